import { resourceOfCall } from "../context";
import { DeploymentLedger, removeStaleLedgers } from "./deploymentLedger";
import { tellUser } from "../engineLog";

/**
 * The objects the resources of this deployment hold, and the deletes of held objects left undone.
 *
 * The engine deletes a resource's old object by the id in its state without comparing it with the ids other
 * resources of the stack hold (pulumi/pulumi `pkg/resource/deploy/step_generator.go`, `GenerateDeletes`). A
 * resource holds its object when it makes, adopts or imports it, and when its Diff answers that it keeps it: the
 * engine calls Diff for every resource of the program it has a state for before it deletes the resources the
 * program dropped. A delete of an object another resource holds is left undone: it comes from a resource that
 * claimed the same object as another (a move without `aliases` where the new resource adopted the object, in that
 * deployment or, after a failure stopped it, the next one).
 *
 * A deployment is one engine command, served by one plugin process per provider instance (the default provider,
 * each explicit provider, the dynamic provider plugin), each started with the engine's address as its one argument.
 * A move to an explicit provider adopts in one process and deletes in another, so the entries of a deployment are
 * shared by its plugin processes (`DeploymentLedger`).
 *
 * A delete left undone can be the resource's own: the engine's delete-first replacement of a resource renamed with
 * `aliases` names the old URN in its Delete and the new one in its Diff, and the dynamic provider plugin names
 * none. Its create then meets its own object: a create of an identity whose delete this deployment left undone,
 * held by no resource but the one creating, carries that delete out first (`ownDeleteLeftUndone`). The engine
 * orders a delete before the create of the same identity only in a delete-first replacement of one resource.
 */
export type ObjectKind = "snapshot configuration" | "run task" | "association";

interface Entry {
  /** `hold`: `by` holds the object; `undone`: a delete of it by `by` was left undone; `done`: that delete was made. */
  t: "hold" | "undone" | "done";
  kind: ObjectKind;
  id: string;
  /** The resource's URN where the call named it, else "". */
  by: string;
  /** What names the object on the service (a name, organization/name, workspace/task), for a create to find. */
  identity?: string;
}

let entries = new DeploymentLedger<Entry>();

/**
 * Starts the deployment this process serves: the engine command whose address the process was started with, whose
 * other plugin processes share its entries, or, without one, a deployment of this process alone. Joining the
 * deployment the process is in already changes nothing.
 */
export function startDeployment(engine?: string): void {
  if (engine !== undefined && engine === entries.engine) return;
  if (engine) removeStaleLedgers();
  entries = new DeploymentLedger<Entry>(engine);
}

/** Records that the resource of the call in progress holds the object in this deployment. */
export function hold(kind: ObjectKind, id: string): void {
  entries.record({ t: "hold", kind, id, by: resourceOfCall() ?? "" });
}

/**
 * Whether another resource of this deployment holds the object a delete is for. Then the delete says so (through
 * the engine), leaves it in place, and is recorded as left undone, with the object's `identity`.
 */
export function heldByAnotherResource(
  kind: ObjectKind,
  id: string,
  identity: string,
  say: (message: string) => void = (m) => void tellUser("info", m),
): boolean {
  const all = entries.all();
  const holders = holdersOf(all, kind, id);
  if (holders.length === 0) return false;
  // The resource's own object (its replacement deleting first, the engine naming the resource) is its to delete.
  const self = resourceOfCall();
  if (self !== undefined && holders.every((h) => h === self)) return false;
  entries.record({ t: "undone", kind, id, by: self ?? "", identity });
  say(
    `${kind} ${id} is not deleted: another resource of this stack holds it (one that adopted it after a move ` +
      "without `aliases`, or this resource under its new name, whose create follows)",
  );
  return true;
}

/**
 * The id of the object of `identity` whose delete this deployment left undone, where no resource but the one
 * creating holds it: that delete was this resource's own (a delete-first replacement the engine named by the old
 * URN, or did not name), and its create is to carry it out before it makes the object anew. Recorded as done.
 */
export function ownDeleteLeftUndone(
  kind: ObjectKind,
  identity: string,
  say: (message: string) => void = (m) => void tellUser("info", m),
): string | undefined {
  const all = entries.all();
  const undone = all.filter((e) => e.kind === kind && e.identity === identity && e.t === "undone").pop();
  if (!undone || all.some((e) => e.t === "done" && e.kind === kind && e.id === undone.id)) return undefined;
  const self = resourceOfCall() ?? "";
  if (!holdersOf(all, kind, undone.id).every((h) => h === self)) return undefined;
  entries.record({ t: "done", kind, id: undone.id, by: self, identity });
  say(`${kind} ${undone.id}, which the delete before this create left in place, is this resource's own: deleted now, and made anew`);
  return undone.id;
}

/**
 * The other resources of this deployment that hold the object, by name where the engine named them (`""` where it
 * did not, as under the dynamic provider plugin); empty when none does. A create that finds its object there was
 * beaten to it by another resource of the stack, not by something made outside the program.
 */
export function otherHolders(kind: ObjectKind, id: string): string[] {
  const self = resourceOfCall();
  return holdersOf(entries.all(), kind, id)
    .filter((h) => h === "" || h !== self)
    .map((h) => h.slice(h.lastIndexOf("::") + 2));
}

function holdersOf(all: Entry[], kind: ObjectKind, id: string): string[] {
  return [...new Set(all.filter((e) => e.t === "hold" && e.kind === kind && e.id === id).map((e) => e.by))];
}
