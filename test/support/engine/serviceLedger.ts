import type { Emulator } from "../../../emulator";
import type { EngineStack } from "./engineStack";
import { nameOf, packageResources, type StateResource } from "./stateFile";

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

/**
 * The object a state resource claims: its kind, and its id's last part (`<ws>/<wstask-id>` claims the `wstask-`). An
 * association recorded by its task (`<ws>/<task-id>`, after a create whose list could not give the id) claims, where
 * `emulator` is given, the association of that task on that workspace.
 */
export function claimOf(resource: StateResource, emulator?: Emulator): ServiceObject {
  const kind = /SnapshotAutoConfig$/.test(resource.type)
    ? "SnapshotAutoConfig"
    : /WorkspaceRunTask$/.test(resource.type)
      ? "WorkspaceRunTask"
      : "RunTask";
  const id = resource.id ?? "";
  if (kind !== "WorkspaceRunTask") return { kind, key: id };
  const [workspaceId, key] = [id.slice(0, id.lastIndexOf("/")), id.slice(id.lastIndexOf("/") + 1)];
  const byTask = key.startsWith("task-") ? emulator?.runTask.workspaceTasks({ workspaceId, taskId: key }) : undefined;
  return { kind, key: byTask?.length === 1 ? byTask[0].id : key };
}

/**
 * What to expect of the service and the states of `stacks` together: each object the service holds is claimed by
 * exactly one live resource of one state (neither stranded nor claimed twice), and each live resource's object is
 * there (none lost). A resource pending replacement claims nothing; one marked for deletion (`delete`, a
 * create-first replacement's old half) claims its object too, as the engine will delete it.
 */
export function ledger(emulator: Emulator, ...stacks: EngineStack[]): { stranded: string[]; lost: string[]; claimedTwice: string[] } {
  const held = serviceObjects(emulator);
  const claims = stacks
    .flatMap((s) => packageResources(s.state()).filter((r) => !r.pendingReplacement))
    .map((r) => ({ r, claim: claimOf(r, emulator) }));
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
export function expectServiceMatchesState(emulator: Emulator, ...stacks: EngineStack[]): void {
  expect(ledger(emulator, ...stacks)).toEqual({ stranded: [], lost: [], claimedTwice: [] });
}
