import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_URN } from "../provider/dynamicResources";

/**
 * The resource's URN as the engine will give it (`pulumi.createUrn` of its name, type and parent), under the key the
 * dynamic provider takes it by (provider/dynamicResources.ts: the SDK's dynamic provider plugin passes the engine's
 * to no call). Made from the parent's URN without depending on the parent, so the state records no dependency the
 * program did not write. URNs are known in a preview too.
 */
export function resourceUrnArg(
  module: string,
  type: string,
  name: string,
  opts?: pulumi.CustomResourceOptions,
): Record<string, pulumi.Input<string>> {
  const urn = pulumi.createUrn(name, `pulumi-nodejs:dynamic/${module}:${type}`, opts?.parent);
  return { [RESOURCE_URN]: pulumi.output(new Promise<string>((resolve) => urn.apply(resolve))) };
}
