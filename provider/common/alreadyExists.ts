import { SnapshotRunTaskError } from "./errors";

/**
 * A create refused because an object with the same identity exists (found by looking, never by a server's wording).
 * A provider cannot tell from a create which of the usual causes it is, so the message gives each with its fix, in
 * the order they are met; `object` names it, e.g. `run task "scanner" in organization "acme"`, and `id` is its id
 * on the service. An up the CLI was killed in while creating it leaves the object made and the state holding a
 * pending create; `adopt` records it (`pulumi refresh --import-pending-creates` does not, with file backends).
 */
export function alreadyExists(object: string, id: string): SnapshotRunTaskError {
  return new SnapshotRunTaskError(
    "conflict",
    `${object} already exists (${id}); a create never overwrites it. ` +
      "Renamed or moved in the program (into a component, say)? Add the old name to the resource's `aliases`. " +
      "Replaced with `pulumi up --replace`? Set the resource option `deleteBeforeReplace: true` (the engine decides that " +
      "replacement without the provider). " +
      "Made by an up that was stopped while creating it (the CLI warns of pending operations)? Set `adopt: true` for one " +
      "`pulumi up`, then run `pulumi refresh --clear-pending-creates`. " +
      "Made outside Pulumi? Set `adopt: true`, or `pulumi import` it. " +
      "Never adopt what another resource of this stack holds: that resource's delete would remove it in a later deployment.",
  );
}
