import * as pulumi from "@pulumi/pulumi";
import type { ConfigLookup } from "../provider/config/lookup";

/**
 * Stack config as a program sees it, by fully qualified key. Reads the raw value so that secret keys
 * (`snapshot:token`) are usable by program-side functions without being turned into Outputs.
 */
export const programConfig: ConfigLookup = (key) => {
  try {
    return pulumi.runtime.getConfig(key);
  } catch {
    return undefined;
  }
};
