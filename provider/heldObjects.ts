/**
 * The objects this deployment made, took over (`adopt`) or imported, by kind and service id.
 *
 * One plugin process serves every resource of its package for one deployment (`pulumi up`, `destroy`, ...), and
 * the engine deletes a resource's old object by the id in its state without comparing it with the ids of the
 * resources it has just created (pulumi/pulumi `pkg/resource/deploy/step_generator.go`, `GenerateDeletes`). So a
 * delete of an object held here comes from another resource of the stack that claimed the same object: a resource
 * moved to a new name without `aliases` (a create at the new name, a delete at the old one), or a replacement
 * created before its old object is deleted that adopted it. That delete would remove what the new resource
 * holds; it leaves the object in place instead. The engine never deletes, in one deployment, an object a resource
 * of that deployment has just made, so nothing else is skipped.
 */
export type ObjectKind = "snapshot configuration" | "run task" | "association";

let held = new Set<string>();

function keyOf(kind: ObjectKind, id: string): string {
  return `${kind}\u0000${id}`;
}

/** Records that a resource of this deployment holds the object. */
export function hold(kind: ObjectKind, id: string): void {
  held.add(keyOf(kind, id));
}

/**
 * Whether another resource of this deployment holds the object a delete is for; then the delete says so on the
 * plugin's standard error (which the engine shows) and leaves it in place.
 */
export function heldByAnotherResource(kind: ObjectKind, id: string, say: (message: string) => void = (m) => process.stderr.write(`${m}\n`)): boolean {
  if (!held.has(keyOf(kind, id))) return false;
  say(
    `${kind} ${id} is left in place: another resource of this stack made or took it over in this deployment ` +
      "(a resource moved to a new name, or a replacement that adopted the same object); the old resource leaves the stack",
  );
  return true;
}

/**
 * Starts a new deployment in this process. The plugin processes the engine starts serve one deployment each and
 * never call it; a process that stands for several deployments in turn (a test of the provider core) does.
 */
export function startDeployment(): void {
  held = new Set();
}
