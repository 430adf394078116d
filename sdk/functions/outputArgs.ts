import * as pulumi from "@pulumi/pulumi";

/**
 * The arguments of a function's Output form, as Pulumi's generated SDKs take them (`getXOutput(args: GetXOutputArgs)`):
 * each may be a plain value, a promise or an Output. The function runs once they are known and the resources they
 * come from exist (see whenSourcesExist); until then, in a preview, so is the result unknown. A secret argument makes
 * the result secret.
 */
export type OutputArgs<T> = T extends unknown ? { [K in keyof T]: pulumi.Input<T[K]> } : never;

/**
 * `args`, known once every resource they come from exists, as Pulumi's own output-form invokes wait on theirs
 * (`invokeOutput` in @pulumi/pulumi's runtime/invoke.ts): in a preview a new resource's outputs that repeat its
 * inputs (a `SnapshotAutoConfig`'s `name`) are known while its id is not, and a function called with them would
 * look for an object not made yet. Each resource's id stands for its existence: unknown in a preview while it is to
 * be created or replaced, known once it is there.
 */
export function whenSourcesExist<T>(args: pulumi.Output<T>): pulumi.Output<T> {
  return pulumi.output(sourceIds(args)).apply(() => args);
}

/** The ids of the custom resources `args` come from. */
async function sourceIds<T>(args: pulumi.Output<T>): Promise<pulumi.Output<string>[]> {
  const [, dependencies] = await pulumi.runtime.serializeResourceProperties("function arguments", { args });
  const sources = new Set([...dependencies.values()].flatMap((resources) => [...resources]));
  return [...sources].filter((r): r is pulumi.CustomResource => pulumi.CustomResource.isInstance(r) && r.id !== undefined).map((r) => r.id);
}
