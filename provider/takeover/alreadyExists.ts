import { resourceOfCreate } from "../context";
import { otherHolders, type ObjectKind } from "./heldObjects";
import { pendingCreateRecovery } from "./pendingCreates";
import { SnapshotRunTaskError } from "../common/errors";

/** The object a create found in its way: what to call it, and what the heldObjects ledger knows it by. */
export interface ExistingObject {
  /** E.g. `run task "scanner" of organization "acme"`. */
  label: string;
  kind: ObjectKind;
  /** Its service id: the configuration name, the `task-` id, the `wstask-` id. */
  id: string;
  /** What two resources of a stack share to claim the same object, e.g. "the same `name`". */
  identity: string;
  /** The object's name at the service, where it has one (a configuration's, a task's): the example of a name per stack. */
  name?: string;
}

/**
 * A create refused because an object with the same identity exists (found by looking, never by a server's wording).
 * Where another resource of this deployment holds the object (it made it, or its Diff kept it: see heldObjects.ts),
 * that is the cause, and the message says so, naming the resource where the engine named it. Otherwise a provider
 * cannot tell from a create which of the usual causes it is, so the message gives each with its fix, in the order
 * they are met, the first being the one whose fix (`adopt`) would do harm: another stack or program manages the
 * object. An up stopped while creating the object (pendingCreates.ts) gets the commands that record it, with the
 * resource's URN and the object's id, where the create knows its URN.
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
  const urn = resourceOfCreate();
  const stopped = urn
    ? `(the CLI warned of \`${urn}, interrupted while creating\`)? Record it with no program change: \`${pendingCreateRecovery(urn, object.id)}\`. `
    : "(the CLI warned of it, `interrupted while creating`)? Set `adopt: true` for one `pulumi up`, then run `pulumi refresh --clear-pending-creates`. ";
  return new SnapshotRunTaskError(
    "conflict",
    `${object.label} already exists (${object.id}); a create never overwrites it. ` +
      `Managed by another stack or program (another stack of this project, say, whose resources take the same names)? ${ownPerStack(object)}; ` +
      "adopting it would make both manage it, and either one's destroy delete it. " +
      "Renamed or moved in the program (into a component, say)? Add the old name to the resource's `aliases`. " +
      `Two resources of this stack with ${object.identity}? Give each its own. ` +
      "Replaced with `pulumi up --replace`? Set the resource option `deleteBeforeReplace: true` (the engine decides that " +
      "replacement without the provider). " +
      `Made by an up of this stack that was stopped while creating it ${stopped}` +
      "Made outside Pulumi, and managed by nothing else? Set `adopt: true` (through the provider plugins, `pulumi import` it). " +
      "Never adopt what another stack, program or resource manages: its destroy would delete it.",
  );
}

/** How stacks that share a service keep apart: an object name of their own, or (an association) one stack attaching. */
function ownPerStack(object: ExistingObject): string {
  if (object.name === undefined) return "Attach the task to the workspace from one stack only";
  return (
    `Give each stack its own \`name\`, e.g. from the stack's name (\`${object.name}-\${pulumi.getStack()}\` in TypeScript, ` +
    `\`${object.name}-\${pulumi.stack}\` in YAML)`
  );
}
