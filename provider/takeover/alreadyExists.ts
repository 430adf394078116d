import { messageOf, SnapshotRunTaskError } from "../common/errors";
import { resourceOfCreate } from "../context";
import { tellUser } from "../engineLog";
import { otherHolders, type ObjectKind } from "./heldObjects";
import { pendingCreateRecovery } from "./pendingCreates";
import { CliStackStates, engineCli, holdersOfId, otherStacksHolding, pendingCreates, stackOfUrn, type StackStates } from "./stackStates";

type Props = Record<string, unknown>;

/** The object a create found in its way: what to call it, and what the deployment's holds and the states know it by. */
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
  /** The create's inputs: the fields of its identity among them, by which another stack's pending create of it is told. */
  inputs: Props;
  /**
   * Whether the object holds what a create was sent (`sent`: its inputs as a state keeps them, secrets encrypted):
   * the settings a read shows. The object was found as the only one of its identity (proof.ts).
   */
  holdsWhatWasSent(sent: Props): boolean;
}

/** The states of the backend the engine works on, read through its CLI in the program's folder, as the user would. */
const cliStates = (): StackStates => new CliStackStates(engineCli() ?? "pulumi", process.cwd(), process.env);
let statesOf = cliStates;

/** Reads stacks' states some other way (tests), or again through the CLI. */
export function readStatesWith(states: (() => StackStates) | undefined): void {
  statesOf = states ?? cliStates;
}

/**
 * A create that found an object of its identity in its way (found by looking, never by a server's wording), not
 * adopting it. Resolves when the object is this resource's own, made by an up of this stack that was stopped while
 * creating it, on this proof: the stack's state holds a create of this very resource pending from an earlier command
 * (the engine lists the command's own operation first and keeps the earlier ones after it, pkg/backend/snapshot.go),
 * the object holds what that create sent, and no resource of this stack, of this deployment or of another stack of
 * the backend holds it. The caller then makes it the program's and records it, with no step of the user's.
 * Otherwise fails, naming the causes the states show, once: another resource of this deployment or stack, another
 * stack, this resource itself (a replacement that creates before it deletes), a stopped create that sent other
 * settings, or none (made outside Pulumi). Where the states cannot be read, the causes a create cannot tell apart.
 */
export async function takenOverOrRefused(object: ExistingObject): Promise<void> {
  const holders = otherHolders(object.kind, object.id);
  if (holders.length > 0) {
    const named = holders.filter((h) => h !== "");
    throw new SnapshotRunTaskError(
      "conflict",
      `${object.label} already exists, and another resource of this stack holds it` +
        `${named.length > 0 ? ` (${named.map((n) => `"${n}"`).join(", ")})` : ""}: two resources give ${object.identity}. ` +
        `Give each its own; a create never overwrites an object.`,
    );
  }
  const urn = resourceOfCreate();
  if (urn === undefined) throw unexplained(object, undefined, "");
  const type = typeOfUrn(urn);
  const { stack, project } = stackOfUrn(urn);
  const states = statesOf();
  let own: unknown;
  try {
    own = await states.export(stack);
  } catch (err) {
    throw unexplained(object, urn, ` (this stack's state could not be read: ${messageOf(err)})`);
  }
  const earlier = pendingCreates(own)
    .filter((p) => p.urn === urn)
    .slice(1);
  const heldHere = holdersOfId(type, object.id, own);
  const head = `${object.label} already exists (${object.id}); a create never overwrites it`;
  if (heldHere.includes(urn)) {
    throw new SnapshotRunTaskError(
      "conflict",
      `${head}. This very resource holds it in the stack's state: its replacement creates the new object before it deletes the ` +
        "old one, and both are one object. Set the resource option `deleteBeforeReplace: true` (a replacement decided by " +
        "`pulumi up --replace` or `replaceOnChanges` does not ask the provider)",
    );
  }
  if (heldHere.length > 0) {
    const names = heldHere.map((u) => `"${nameOfUrn(u)}" (${u})`).join(", ");
    throw new SnapshotRunTaskError(
      "conflict",
      `${head}. Resource ${names} of this stack holds it. Renamed or moved in the program (into a component, say)? Add the ` +
        `old name to the resource's \`aliases\`. Two resources with ${object.identity}? Give each its own`,
    );
  }
  let elsewhere: Awaited<ReturnType<typeof otherStacksHolding>>;
  try {
    elsewhere = await otherStacksHolding(states, { type, id: object.id, inputs: object.inputs }, { stack, project });
  } catch (err) {
    const failed = `the backend's stacks (listing them failed: ${messageOf(err)})`;
    elsewhere = { holders: [], unread: [failed], unreadOfProject: [failed] };
  }
  if (elsewhere.holders.length > 0) {
    const names = elsewhere.holders.map((h) => `stack "${h.stack}" (${h.urn}${h.how === "creating" ? ", its create pending" : ""})`).join(", ");
    throw new SnapshotRunTaskError(
      "conflict",
      `${head}. It is managed by ${names} of this backend. ${ownPerStack(object)}; adopting it would make both manage it, and ` +
        "either one's destroy delete it",
    );
  }
  const unread = elsewhere.unread.length > 0 ? ` (not read: ${elsewhere.unread.join(", ")})` : "";
  const sent = earlier.at(-1)?.inputs;
  // Every stack of the project read (those of other projects past the bound of reads aside): none holds it.
  if (sent !== undefined && elsewhere.unreadOfProject.length === 0 && object.holdsWhatWasSent(sent)) {
    void tellUser(
      "info",
      `${object.kind} ${object.id}, made by an up of this stack that was stopped while creating ${urn} (its create is pending in the ` +
        "stack's state, and the object, the only one of its identity, holds what it sent; no other resource or stack holds it), is " +
        "taken over and recorded. The engine warns of that pending create until `pulumi refresh --clear-pending-creates`, which is " +
        "safe once every create it lists is recorded",
    );
    return;
  }
  if (sent !== undefined) {
    const why =
      elsewhere.unreadOfProject.length > 0
        ? `not every stack of the backend could be read${unread}`
        : "the object does not hold what that create sent";
    throw new SnapshotRunTaskError(
      "conflict",
      `${head}. An up of this stack was stopped while creating ${urn}, but ${why}, so it is not taken as that create's. If it is, ` +
        `record it with no program change: \`${pendingCreateRecovery(urn, object.id)}\``,
    );
  }
  throw new SnapshotRunTaskError(
    "conflict",
    `${head}. No stack of this backend holds it${unread}, and this resource has no create pending: it was made outside Pulumi, ` +
      "or by a stack of another backend. If nothing else manages it, set `adopt: true` (through the provider plugins, `pulumi import` " +
      "it); never adopt what another stack or program manages: its destroy would delete it",
  );
}

/** The refusal where the states cannot tell the cause: the causes a create meets, each with its fix. */
function unexplained(object: ExistingObject, urn: string | undefined, why: string): SnapshotRunTaskError {
  const stopped = urn
    ? `record it with no program change: \`${pendingCreateRecovery(urn, object.id)}\``
    : "set `adopt: true` for one `pulumi up`, then run `pulumi refresh --clear-pending-creates`";
  return new SnapshotRunTaskError(
    "conflict",
    `${object.label} already exists (${object.id}); a create never overwrites it${why}. Which of these it is cannot be told ` +
      `here: another stack or program manages it (${lowerFirst(ownPerStack(object))}; adopting it would make both manage it, and ` +
      "either one's destroy delete it); this resource was renamed or moved (add the old name to its `aliases`); it is replaced " +
      "by `pulumi up --replace` (set `deleteBeforeReplace: true`); an up of this stack was stopped while creating it " +
      `(${stopped}); it was made outside Pulumi and nothing else manages it (set \`adopt: true\`; through the provider ` +
      "plugins, `pulumi import` it)",
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

/** The resource type a URN names (of the resource itself, not its parents'). */
function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  const qualified = parts[parts.length - 2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

function nameOfUrn(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
