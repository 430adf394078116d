import { otherHolders, type ObjectKind } from "../heldObjects";
import { SnapshotRunTaskError } from "./errors";

/** The object a create found in its way: what to call it, and what the heldObjects ledger knows it by. */
export interface ExistingObject {
  /** E.g. `run task "scanner" of organization "acme"`. */
  label: string;
  kind: ObjectKind;
  /** Its service id: the configuration name, the `task-` id, the `wstask-` id. */
  id: string;
  /** What two resources of a stack share to claim the same object, e.g. "the same `name`". */
  identity: string;
}

/**
 * A create refused because an object with the same identity exists (found by looking, never by a server's wording).
 * Where another resource of this deployment holds the object (it made it, or its Diff kept it: see heldObjects.ts),
 * that is the cause, and the message says so, naming the resource where the engine named it. Otherwise a provider
 * cannot tell from a create which of the usual causes it is, so the message gives each with its fix, in the order
 * they are met. An up the CLI was killed in while creating it leaves the object made and the state holding a
 * pending create; `adopt` records it (`pulumi refresh --import-pending-creates` does not, with file backends).
 */
export function alreadyExists(object: ExistingObject): SnapshotRunTaskError {
  const holders = otherHolders(object.kind, object.id);
  if (holders.length > 0) {
    const named = holders.filter((h) => h !== "");
    return new SnapshotRunTaskError(
      "conflict",
      `${object.label} already exists, and another resource of this stack holds it` +
        `${named.length > 0 ? ` (${named.map((n) => `"${n}"`).join(", ")})` : ""}: two resources give ${object.identity}. ` +
        `Give each its own; a create never overwrites an object.`,
    );
  }
  return new SnapshotRunTaskError(
    "conflict",
    `${object.label} already exists (${object.id}); a create never overwrites it. ` +
      "Renamed or moved in the program (into a component, say)? Add the old name to the resource's `aliases`. " +
      `Two resources of this stack with ${object.identity}? Give each its own. ` +
      "Replaced with `pulumi up --replace`? Set the resource option `deleteBeforeReplace: true` (the engine decides that " +
      "replacement without the provider). " +
      "Made by an up that was stopped while creating it (the CLI warns of pending operations)? Set `adopt: true` for one " +
      "`pulumi up`, then run `pulumi refresh --clear-pending-creates`. " +
      "Made outside Pulumi? Set `adopt: true`, or `pulumi import` it. " +
      "Never adopt what another resource of this stack holds: that resource's delete would remove it in a later deployment.",
  );
}
