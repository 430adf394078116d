import { resourceOfCall } from "./context";

/**
 * The objects resources of this deployment hold, by kind and service id, and which resources hold them.
 *
 * One plugin process serves every resource of its package for one deployment (`pulumi up`, `destroy`, ...), and
 * the engine deletes a resource's old object by the id in its state without comparing it with the ids other
 * resources of the stack hold (pulumi/pulumi `pkg/resource/deploy/step_generator.go`, `GenerateDeletes`). A
 * resource holds its object when it makes, adopts or imports it, and when its Diff answers that it keeps it (no
 * replacement): the engine calls Diff for every resource of the program it has a state for, before the deletes of
 * the resources the program no longer has. So a delete of an object another resource holds comes from another
 * resource of the stack that claimed the same object: a resource moved to a new name without `aliases` (a create at
 * the new name, a delete at the old one, maybe in a later deployment after a failure stopped the first), or a
 * replacement created before its old object is deleted that adopted it. That delete would remove what the other
 * resource holds; it leaves the object in place instead. A resource's own delete (its replacement deleting first)
 * is not skipped: where the engine names the resource of a call (the provider plugins), holds are by resource; the
 * dynamic provider plugin does not, and there a Diff that replaces holds nothing, and `replaceOnChanges`, the one
 * way the engine replaces after a Diff that said it would not, never reaches a dynamic resource.
 */
export type ObjectKind = "snapshot configuration" | "run task" | "association";

/** For each object held, the resources that hold it (`""` where the call did not say which). */
let held = new Map<string, Set<string>>();

function keyOf(kind: ObjectKind, id: string): string {
  return `${kind}\u0000${id}`;
}

/** Records that the resource of the call in progress holds the object in this deployment. */
export function hold(kind: ObjectKind, id: string): void {
  const key = keyOf(kind, id);
  const holders = held.get(key) ?? new Set<string>();
  holders.add(resourceOfCall() ?? "");
  held.set(key, holders);
}

/**
 * Whether another resource of this deployment holds the object a delete is for; then the delete says so on the
 * plugin's standard error (which the engine shows) and leaves it in place.
 */
export function heldByAnotherResource(kind: ObjectKind, id: string, say: (message: string) => void = (m) => process.stderr.write(`${m}\n`)): boolean {
  const holders = held.get(keyOf(kind, id));
  if (!holders) return false;
  // The resource's own object (its replacement deleting first) is its to delete.
  const self = resourceOfCall();
  if (self !== undefined && [...holders].every((h) => h === self)) return false;
  say(
    `${kind} ${id} is left in place: another resource of this stack holds it ` +
      "(a resource moved to a new name, or a replacement that adopted the same object); the old resource leaves the stack",
  );
  return true;
}

/**
 * The other resources of this deployment that hold the object, by name where the engine named them (`""` where it
 * did not, as under the dynamic provider plugin); empty when none does. A create that finds its object there was
 * beaten to it by another resource of the stack, not by something made outside the program.
 */
export function otherHolders(kind: ObjectKind, id: string): string[] {
  const self = resourceOfCall();
  return [...(held.get(keyOf(kind, id)) ?? [])].filter((h) => h === "" || h !== self).map((h) => h.slice(h.lastIndexOf("::") + 2));
}

/**
 * Starts a new deployment in this process. The plugin processes the engine starts serve one deployment each and
 * never call it; a process that stands for several deployments in turn (a test of the provider core) does.
 */
export function startDeployment(): void {
  held = new Map();
}
