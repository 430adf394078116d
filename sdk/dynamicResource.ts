import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_URN } from "../provider/dynamicResources";

/** The resource kinds the dynamic provider plugin serves, each through its shim (`pulumi-snapshot-runtask/shim/<kind>`). */
export type DynamicKind = "snapshotAutoConfig" | "runTask" | "workspaceRunTask";

/**
 * The provider text a resource of `kind` keeps in the state (its `__provider` input and output, written with every
 * checkpoint, twice per resource). The SDK's dynamic provider plugin evaluates it as a module and calls its `handler()`
 * for the provider object: here the shim module, loaded by package name from the program's directory, so that later
 * reads and deletes run the installed version's code. What `pulumi.dynamic.Resource` would store (the closure
 * serializer's text of a function returning the shim) does the same in 270 bytes, and costs the program the
 * serializer's work; states written that way keep working, since the shims stay where they are.
 */
export function providerText(kind: DynamicKind): string {
  return `exports.handler=()=>require("pulumi-snapshot-runtask/shim/${kind}")`;
}

/** The type token of a dynamic resource, as `pulumi.dynamic.Resource` makes it from a module and a type. */
export function dynamicType(module: string, type: string): string {
  return `pulumi-nodejs:dynamic/${module}:${type}`;
}

/**
 * The properties a resource class registers: each key of `outputs` (its outputs that can hold a value, so that each is
 * an Output of the resource), then the arguments, the URN the provider names the object by
 * (provider/dynamicResources.ts) and the provider text. Each registered key costs the program an Output and its
 * promises: keys that can hold no value are left to `unregisteredOutputs`.
 */
export function dynamicProps(kind: DynamicKind, outputs: readonly string[], args: object, urn: pulumi.Input<string>): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const key of outputs) props[key] = undefined;
  Object.assign(props, args);
  props[RESOURCE_URN] = urn;
  props.__provider = providerText(kind);
  return props;
}

/**
 * The resource's URN as the engine will give it (`pulumi.createUrn` of its name, type and parent), which the dynamic
 * provider takes under `__resourceUrn` (provider/dynamicResources.ts: the SDK's dynamic provider plugin passes the
 * engine's to no call). A plain string where the resource has no parent (its URN then names the stack and the project
 * alone); else made from the parent's URN without depending on the parent, so that the state records no dependency the
 * program did not write. URNs are known in a preview too.
 */
export function resourceUrn(type: string, name: string, parent: pulumi.Resource | undefined): pulumi.Input<string> {
  if (!parent) return `urn:pulumi:${pulumi.getStack()}::${pulumi.getProject()}::${type}::${name}`;
  const urn = pulumi.createUrn(name, type, parent);
  return pulumi.output(new Promise<string>((resolve) => urn.apply(resolve)));
}

/**
 * Declares on a resource class's prototype the outputs that a resource may leave unregistered (`dynamicProps`): read,
 * such an output is made once, from `derive` where it has a value all the same (an output equal to the id), else as an
 * Output of no value that depends on the resource, as a registered output that holds none would be. A registered
 * output (assigned by the SDK as the resource registers) takes the place of the accessor on the instance.
 */
export function unregisteredOutputs(
  prototype: object,
  keys: readonly string[],
  derive: Record<string, (resource: pulumi.CustomResource) => pulumi.Output<unknown>> = {},
): void {
  for (const key of keys) {
    const own = (resource: object, value: unknown) => {
      Object.defineProperty(resource, key, { value, writable: true, enumerable: true, configurable: true });
      return value;
    };
    Object.defineProperty(prototype, key, {
      configurable: true,
      get(this: pulumi.CustomResource) {
        return own(this, derive[key] ? derive[key](this) : this.urn.apply(() => undefined));
      },
      set(this: object, value: unknown) {
        own(this, value);
      },
    });
  }
}
