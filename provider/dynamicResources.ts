import { isUnknown } from "./common/unknown";
import { withCreatedResource } from "./context";
import type { ResourceProvider } from "./resource";

type Props = Record<string, unknown>;

/**
 * What the resource classes (sdk/) send to the dynamic provider besides the arguments: the URN the engine gives the
 * resource, which the SDK's dynamic provider plugin passes to no call (`@pulumi/pulumi/cmd/dynamic-provider` hands
 * Check its olds and news only). Check takes it out of the inputs, so the state never holds it.
 */
export const RESOURCE_URN = "__resourceUrn";

/**
 * A resource provider as the dynamic provider plugin calls it (through sdk/shims), with what the provider plugins
 * get from the engine's requests, from the URN the resource classes send:
 * - a name the program leaves out defaults as the provider plugins default it: on create, to the resource's name;
 *   then, to the name the object has (the old inputs'), so that a resource renamed with `aliases` keeps its object's
 *   name, as Pulumi's auto-naming keeps an auto-name; and, in the Check the engine runs again without olds before a
 *   replacement's create, to the name the first Check of that resource kept;
 * - a create knows its resource's URN (`withCreatedResource`), for its refusal's recovery and the recovery itself
 *   (takeover/pendingCreates.ts). The create's inputs are what its resource's Check answered, so they tell which one it is;
 * - the output that repeats the resource id (`idOutput`: a task's `taskId`, an association's `workspaceTaskId`) is
 *   left out of what a create, an update and a read record where it equals the id, since the state holds the id
 *   already and the resource classes read it from there (sdk/dynamicResource.ts); a read keeps it where the state
 *   had it (one an older version wrote), so that a refresh changes nothing there.
 */
export function dynamicResourceProvider(provider: ResourceProvider, idOutput?: string): ResourceProvider {
  const namesKept = new Map<string, string>();
  const resourceOfInputs = new Map<string, string>();
  return {
    ...provider,
    async check(olds, news) {
      const { [RESOURCE_URN]: urn, ...args } = news;
      if (typeof urn !== "string" || isUnknown(urn)) return provider.check(olds, args);
      const hasOlds = Object.keys(olds).length > 0;
      const kept = hasOlds ? undefined : namesKept.get(urn);
      const result = await provider.check(olds, args, { resourceName: kept ?? urn.slice(urn.lastIndexOf("::") + 2) });
      const name = result.inputs.name;
      if (hasOlds && typeof name === "string" && !isUnknown(name)) namesKept.set(urn, name);
      if (result.failures.length === 0) resourceOfInputs.set(inputsKey(result.inputs), urn);
      return result;
    },
    async create(inputs) {
      const { id, outs } = await withCreatedResource(resourceOfInputs.get(inputsKey(inputs)), () => provider.create(inputs));
      return { id, outs: withoutId(outs, idOutput, id) };
    },
    async update(id, olds, news) {
      const { outs } = await provider.update(id, olds, news);
      return { outs: withoutId(outs, idOutput, id) };
    },
    async read(id, props) {
      const read = await provider.read(id, props);
      return idOutput === undefined || idOutput in props ? read : { ...read, props: withoutId(read.props, idOutput, read.id) };
    },
  };
}

/** `outs` without `key` where it holds the id. */
function withoutId(outs: Props, key: string | undefined, id: string): Props {
  if (key === undefined || outs[key] !== id) return outs;
  const { [key]: _id, ...rest } = outs;
  return rest;
}

/** The inputs as a key, whatever the order of their keys, without the engine's `__provider`. */
function inputsKey(inputs: Props): string {
  const { __provider: _p, ...rest } = inputs;
  return JSON.stringify(sorted(rest));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Props)[k])]),
  );
}
