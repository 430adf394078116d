import { SnapshotRunTaskError } from "../common/errors";
import { resourceOfCall } from "../context";
import { otherHolders, type ObjectKind } from "./heldObjects";

/**
 * The one rule of taking over an object that already exists, which adopt, an import by name, the recovery of an up
 * stopped while creating, a lookup after a create's lost answer and the migration from Terraform all follow: an
 * object is taken only on proof that it is the one meant and this stack's to take.
 *
 * 1. It is the only object of its identity: a lookup by name (the spec does not make a task's name unique in its
 *    organization) that finds two takes neither, and fails naming every id; a list that changed while it was read
 *    proves neither that there is one nor that there is none.
 * 2. No other resource of this deployment holds it (heldObjects.ts): two resources never manage one object.
 * 3. Where the object is taken as the one a create of this stack made (a lost answer, a pending create), it holds what
 *    that create sent.
 * Then the write that makes it the program's changes nothing the user could not have read (an HMAC key no read
 * returns is kept where the program gives none), and what the service answers is taken only when it is the object
 * asked for.
 */

/** What a lookup by identity found: every object of that identity, and whether its list's pages agreed. */
export interface Lookup<T> {
  found: T[];
  /** False where the list changed while it was read: what it shows proves neither absence nor uniqueness. */
  consistent: boolean;
}

/** What a takeover is for, as its refusals name it, e.g. `adopt` or `import "acme/scanner"`. */
export interface Takeover {
  kind: ObjectKind;
  /** The identity looked up, as a refusal names it: `run tasks named "scanner" in organization "acme"`. */
  identity: string;
  /** What would have taken the object: `adopt`, `import "acme/scanner"`, `the recovery of ...`. */
  purpose: string;
}

/**
 * The one object of the identity, or undefined when there is none. Several: an error naming every id, nothing taken.
 * A list that changed while it was read: an error, whatever it shows.
 */
export function theOneObject<T>(lookup: Lookup<T>, idOf: (object: T) => string, takeover: Takeover): T | undefined {
  const { found, consistent } = lookup;
  if (!consistent) {
    // Not a conflict: nothing is known to be in the way, and a caller that records what it made by other means may.
    throw new SnapshotRunTaskError(
      "not_found",
      `${takeover.purpose}: the list of ${takeover.identity} changed while it was read (its pages disagree), so whether there is ` +
        "exactly one cannot be told: nothing is taken over. Run the command again",
    );
  }
  if (found.length > 1) {
    const ids = found.map(idOf);
    throw new SnapshotRunTaskError(
      "conflict",
      `${takeover.purpose}: there are ${found.length} ${takeover.identity} (${ids.join(", ")}), and which one is meant cannot be told: ` +
        `none is taken over or changed. ${severalAdvice(takeover.kind)}`,
    );
  }
  return found[0];
}

function severalAdvice(kind: ObjectKind): string {
  if (kind === "association")
    return "Keep one association of the task in the workspace (delete the others at the service), then run the command again";
  return (
    "Rename or delete at the service the ones that are not meant (another team's, say), or take the one meant by its id " +
    "(through the provider plugins, `pulumi import` it by its task- id), then run the command again"
  );
}

/**
 * Refuses to take over an object another resource of this deployment holds: two resources never manage one object.
 * Holds the engine did not name (the dynamic provider plugin's calls name no resource) may be this resource's own
 * (its Diff before a `pulumi up --replace`): they refuse only where the engine names the resource of the call.
 */
export function requireNotHeldByAnother(takeover: Takeover, id: string): void {
  const holders = otherHolders(takeover.kind, id);
  const named = holders.filter((h) => h !== "");
  if (named.length === 0 && (holders.length === 0 || resourceOfCall() === undefined)) return;
  throw new SnapshotRunTaskError(
    "conflict",
    `${takeover.purpose}: ${takeover.kind} ${id} is held by another resource of this stack` +
      `${named.length > 0 ? ` (${named.map((n) => `"${n}"`).join(", ")})` : ""}: nothing is taken over. Give each resource its own object`,
  );
}
