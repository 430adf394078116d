import { SnapshotRunTaskError } from "../common/errors";
import { resourceOfCreate } from "../context";
import { tellUser } from "../engineLog";
import { otherHolders, type ObjectKind } from "./heldObjects";

/**
 * The way back from an up whose CLI was killed between a create and its record (SIGKILL, a CI runner's timeout):
 * the object was made, the state holds a pending create of the resource and no resource, and the next up's create
 * is refused "already exists". The engine's own way, `pulumi refresh --import-pending-creates <urn> <id>`, drops the
 * pending create without recording anything in Pulumi 3.274 (it rewrites it as an `importing` operation, which the
 * next snapshot leaves out: pkg/backend/snapshot.go), and `pulumi import` cannot read a dynamic resource by its id
 * (pulumi/pulumi#16175). So an `up` run with this variable names, for each such resource, the object its create
 * takes over, as `adopt: true` does, with no program change:
 *
 *   PULUMI_SNAPSHOT_RUNTASK_ADOPT_PENDING_CREATES='<urn> <id> [<urn> <id> ...]' pulumi up
 *
 * the pairs as `--import-pending-creates` takes them. An id pins the object: the refusal prints the one it found,
 * and a create that finds another refuses. A URN alone takes the object of the resource's identity, for a caller
 * that read the pending creates from the state itself (the Automation API helper's `adoptPendingCreates`). Nothing
 * is taken over that another resource of the deployment holds, nor by a create of any other resource.
 */
export const ADOPT_PENDING_CREATES = "PULUMI_SNAPSHOT_RUNTASK_ADOPT_PENDING_CREATES";

/** The resources the variable names, each with the id of its object where one is given. */
export function pendingCreatesToAdopt(value = process.env[ADOPT_PENDING_CREATES]): Map<string, string | undefined> {
  const entries = new Map<string, string | undefined>();
  const words = (value ?? "").split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const urn = words[i];
    if (!urn.startsWith("urn:pulumi:")) {
      throw new SnapshotRunTaskError(
        "invalid_setting",
        `${ADOPT_PENDING_CREATES}: "${urn}" is not a resource's URN: give pairs of a URN and an object's id, as the refusal printed them`,
      );
    }
    const id = words[i + 1] !== undefined && !words[i + 1].startsWith("urn:pulumi:") ? words[++i] : undefined;
    entries.set(urn, id);
  }
  return entries;
}

/**
 * Whether the create in progress takes over `found`, the object of its identity, as the variable names it for its
 * resource (otherwise it is refused or made as usual). Refused, with the reason, where the variable pins another
 * object, or another resource of the deployment holds it.
 */
export function adoptsPendingCreate(kind: ObjectKind, found: string): boolean {
  const urn = resourceOfCreate();
  const entries = pendingCreatesToAdopt();
  if (urn === undefined || !entries.has(urn)) return false;
  const pinned = entries.get(urn);
  if (pinned !== undefined && pinned !== found) {
    throw new SnapshotRunTaskError(
      "conflict",
      `${ADOPT_PENDING_CREATES} names ${kind} ${pinned} for ${urn}, but the ${kind} of its identity is ${found}: nothing is adopted. ` +
        "Run the up without it to see what the create finds now",
    );
  }
  if (otherHolders(kind, found).length > 0) {
    throw new SnapshotRunTaskError(
      "conflict",
      `${ADOPT_PENDING_CREATES} names ${urn}, but another resource of this stack holds ${kind} ${found}: nothing is adopted`,
    );
  }
  void tellUser("info", `${kind} ${found}, made by an up of this stack that was stopped while creating it, is taken over and recorded`);
  return true;
}

/** Whether the create in progress is named by the variable (then its create looks for its object first). */
export function namedForPendingCreate(): boolean {
  const urn = resourceOfCreate();
  return urn !== undefined && pendingCreatesToAdopt().has(urn);
}

/**
 * The commands that record `id` for the resource `urn` after an up stopped while creating it, as a CI job can run
 * them: only where the stack's state names the resource (its pending create: a resource it holds would not be
 * created, and a stack that never began creating it does not name it), the up that takes the object over, then the
 * refresh that drops the pending create the engine would warn of.
 */
export function pendingCreateRecovery(urn: string, id: string): string {
  const stack = urn.split("::")[0].slice("urn:pulumi:".length);
  const flags = stack ? ` --stack ${shellWord(stack)}` : "";
  return (
    `pulumi stack export${flags} | grep -qF ${shellWord(`"${urn}"`)} && ` +
    `${ADOPT_PENDING_CREATES}=${shellWord(`${urn} ${id}`)} pulumi up --yes${flags} && ` +
    `pulumi refresh --clear-pending-creates --yes${flags} --target ${shellWord(urn)}`
  );
}

function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
