import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SettingValue } from "../../config/lookup";
import type { CommonSettingName, VendorSource } from "../../config/serviceSettings";

/** An environment variable of the vendor's client, as a source. */
const variable = (name: string): VendorSource => ({ name, read: (env) => (env[name] ? { value: env[name], from: name } : undefined) });

/**
 * Where users of Vault and its Go client keep the snapshot service's address, token and TLS settings, read as that
 * client reads them (`api.DefaultConfig`, `ReadEnvironment`, and the `vault` CLI's token helper), after the package's
 * settings: `VAULT_ADDR`, `VAULT_TOKEN` then the token file `~/.vault-token` that `vault login` writes,
 * `VAULT_CACERT`, `VAULT_SKIP_VERIFY`, and `VAULT_NAMESPACE` (which must name the root namespace, as
 * `snapshot:namespace` must).
 */
export const VENDOR_SOURCES: Partial<Record<CommonSettingName | "namespace", VendorSource[]>> = {
  address: [variable("VAULT_ADDR")],
  token: [variable("VAULT_TOKEN"), { name: "~/.vault-token", read: (env) => tokenFile(env) }],
  caCert: [variable("VAULT_CACERT")],
  skipTlsVerify: [variable("VAULT_SKIP_VERIFY")],
  namespace: [variable("VAULT_NAMESPACE")],
};

/** `~/.vault-token`, trimmed as the client's token helper trims it; undefined where there is none. */
function tokenFile(env: NodeJS.ProcessEnv): SettingValue | undefined {
  const home = env.HOME ?? (process.platform === "win32" ? env.USERPROFILE : undefined);
  if (!home) return undefined;
  try {
    const token = readFileSync(join(home, ".vault-token"), "utf8").trim();
    return token ? { value: token, from: "~/.vault-token" } : undefined;
  } catch {
    return undefined;
  }
}
