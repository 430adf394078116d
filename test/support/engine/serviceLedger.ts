import type { Emulator } from "../../../emulator";
import { nameOf, packageResources, type StackState, type StateResource } from "./stateFile";

/** A stack whose state the ledger reads: an EngineStack, or one stack of a LanguageProject. */
type WithState = { state(): StackState };

/** An object at the service, named as a state resource's id names it. */
export interface ServiceObject {
  kind: "SnapshotAutoConfig" | "RunTask" | "WorkspaceRunTask";
  /** The configuration name, the `task-` id, the `wstask-` id. */
  key: string;
}

/** Everything the emulator holds of the three kinds. */
export function serviceObjects(emulator: Emulator): ServiceObject[] {
  return [
    ...[...emulator.snapshot.configs.keys()].map((key) => ({ kind: "SnapshotAutoConfig" as const, key })),
    ...emulator.runTask.tasks().map((t) => ({ kind: "RunTask" as const, key: t.id })),
    ...emulator.runTask.workspaceTasks().map((a) => ({ kind: "WorkspaceRunTask" as const, key: a.id })),
  ];
}

/** The object a state resource claims: its kind, and its id's last part (`<ws>/<wstask-id>` claims the `wstask-`). */
export function claimOf(resource: StateResource): ServiceObject {
  const kind = /SnapshotAutoConfig$/.test(resource.type)
    ? "SnapshotAutoConfig"
    : /WorkspaceRunTask$/.test(resource.type)
      ? "WorkspaceRunTask"
      : "RunTask";
  const id = resource.id ?? "";
  return { kind, key: kind === "WorkspaceRunTask" ? id.slice(id.lastIndexOf("/") + 1) : id };
}

/**
 * What to expect of the service and the states of `stacks` together: each object the service holds is claimed by
 * exactly one live resource of one state (neither stranded nor claimed twice), and each live resource's object is
 * there (none lost). A resource pending replacement claims nothing; one marked for deletion (`delete`, a
 * create-first replacement's old half) claims its object too, as the engine will delete it.
 */
export function ledger(emulator: Emulator, ...stacks: WithState[]): { stranded: string[]; lost: string[]; claimedTwice: string[] } {
  const held = serviceObjects(emulator);
  const claims = stacks.flatMap((s) => packageResources(s.state()).filter((r) => !r.pendingReplacement)).map((r) => ({ r, claim: claimOf(r) }));
  const label = (o: ServiceObject) => `${o.kind} ${o.key}`;
  const stranded = held.filter((o) => !claims.some((c) => c.claim.kind === o.kind && c.claim.key === o.key)).map(label);
  const lost = claims
    .filter((c) => !held.some((o) => o.kind === c.claim.kind && o.key === c.claim.key))
    .map((c) => `${nameOf(c.r.urn)} (${label(c.claim)})`);
  const claimedTwice = held
    .filter((o) => claims.filter((c) => !c.r.delete && c.claim.kind === o.kind && c.claim.key === o.key).length > 1)
    .map(label);
  return { stranded, lost, claimedTwice };
}

/** Fails unless the service holds exactly the objects the states name, once each. */
export function expectServiceMatchesState(emulator: Emulator, ...stacks: WithState[]): void {
  expect(ledger(emulator, ...stacks)).toEqual({ stranded: [], lost: [], claimedTwice: [] });
}
