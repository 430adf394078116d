import { takenOverOrRefused } from "../takeover/alreadyExists";
import { hasCode, messageOf, SnapshotRunTaskError } from "../common/errors";
import { toPlainJson } from "../common/plainJson";
import { GONE, isImport, type ResourceProvider } from "../resource";
import { heldByAnotherResource, hold, ownDeleteLeftUndone } from "../takeover/heldObjects";
import { createRefusalChecked } from "../services/runtask/createRefusalChecked";
import { runTaskEndpoints, type RunTaskEndpoints } from "../services/runtask/endpoints";
import { associationOfTask, requireAssociationGone } from "../services/runtask/proofOfGone";
import type { ResourceObject } from "../services/runtask/jsonApi";
import { requireNotHeldByAnother, theOneObject, type Lookup } from "../takeover/proof";
import { codeOf, PartialFailure, withProviderText } from "../common/partialFailure";
import { ServiceError } from "../http/serviceError";
import { sameStages } from "../services/runtask/vocabulary";
import { checkAndDiff } from "../tableProvider";
import { noticeAdoption } from "../takeover/adoptionNotice";
import { adoptsPendingCreate, namedForPendingCreate } from "../takeover/pendingCreates";
import { afterFailedAssociationPatch } from "./failedUpdate";
import { associationOfImport } from "./importId";
import { checkWorkspaceRunTask, diffWorkspaceRunTaskDetail, workspaceRunTaskTable } from "./fields";
import { inputsOf, outputsOf, workspaceTaskBody, workspaceTaskFromWire, type WorkspaceRunTaskState, type WorkspaceTaskRecord } from "./wire";

type Props = Record<string, unknown>;

function stateOf(props: Props): WorkspaceRunTaskState {
  const { __provider: _p, workspaceTaskId: _w, ...rest } = props;
  return { ...rest, workspaceId: String(rest.workspaceId ?? ""), taskId: String(rest.taskId ?? "") };
}

/**
 * The association found in a create's way (the task attached already, or found after a lost answer and not what the
 * create sent): taken over where it is proven this resource's own, made by an up that was stopped while creating it;
 * refused otherwise, naming the causes that apply (takeover/alreadyExists.ts).
 */
async function foundInTheWay(api: RunTaskEndpoints, s: WorkspaceRunTaskState, found: WorkspaceTaskRecord): Promise<WorkspaceTaskRecord> {
  await takenOverOrRefused({
    label: `the association of run task ${s.taskId} with workspace ${s.workspaceId}`,
    kind: "association",
    id: found.id,
    identity: "the same task and workspace",
    inputs: s,
    holdsWhatWasSent: (sent) => isWhatWasSent(found, stateOf(sent)),
  });
  return workspaceTaskFromWire(await api.updateWorkspaceTask(s.workspaceId, found.id, workspaceTaskBody(s, { withTask: false })), s.workspaceId);
}

/** Whether an association found after a create's answer was lost is the one that create made. */
function isWhatWasSent(found: WorkspaceTaskRecord, sent: WorkspaceRunTaskState): boolean {
  return found.enforcementLevel === sent.enforcementLevel && sameStages(found.stages, sent.stages);
}

/** The associations of that task in the workspace, from every page of its list: the spec does not forbid two of one task. */
async function associationsOfTask(api: RunTaskEndpoints, workspaceId: string, taskId: string): Promise<Lookup<WorkspaceTaskRecord>> {
  const list = await api.listWorkspaceTasks(workspaceId);
  const records = list.items.map((r) => workspaceTaskFromWire(r, workspaceId)).filter((r) => r.taskId === taskId);
  return { found: records, consistent: list.consistent };
}

/** The list before an associate: a 404 holds none; another failure stops the create before anything is sent. */
function noneWhereNotFound(err: unknown): Lookup<WorkspaceTaskRecord> {
  if (hasCode(err, "not_found") && err instanceof ServiceError) return { found: [], consistent: true };
  if (err instanceof ServiceError)
    throw err.with({ advice: [err.advice, "read before associating: nothing was associated"].filter(Boolean).join("; ") });
  throw err;
}

/** The association of that task in the workspace, taken for `purpose` only where it is the only one (takeover/proof.ts). */
export async function findByTask(
  api: RunTaskEndpoints,
  workspaceId: string,
  taskId: string,
  purpose = `the association of task ${taskId} with workspace ${workspaceId}`,
): Promise<WorkspaceTaskRecord | undefined> {
  return theOneObject(await associationsOfTask(api, workspaceId, taskId), (r) => r.id, {
    kind: "association",
    identity: `associations of task ${taskId} in workspace ${workspaceId}`,
    purpose,
  });
}

/**
 * The association a create made, told from those of the same task the workspace held before it (`before`): the
 * service's 204 carries no id, and an answer lost carries nothing. None new: undefined (the list may lag behind);
 * several: an error naming them all, since which one is this create's cannot be told.
 */
async function madeSince(api: RunTaskEndpoints, s: WorkspaceRunTaskState, before: ReadonlySet<string>): Promise<WorkspaceTaskRecord | undefined> {
  const { found, consistent } = await associationsOfTask(api, s.workspaceId, s.taskId);
  const made = found.filter((r) => !before.has(r.id));
  if (made.length > 1) {
    throw new SnapshotRunTaskError(
      "conflict",
      `run task service: task ${s.taskId} was associated to workspace ${s.workspaceId}, which now holds ${made.length} associations of it ` +
        `that were not there before the create (${made.map((r) => r.id).join(", ")}): which one is this create's cannot be told, and none ` +
        "is recorded. Keep one (delete the others at the service), then adopt it (`adopt: true`)",
    );
  }
  return theOneObject({ found: made, consistent }, (r) => r.id, {
    kind: "association",
    identity: `associations of task ${s.taskId} in workspace ${s.workspaceId} made since the create began`,
    purpose: `the association of task ${s.taskId} with workspace ${s.workspaceId}, whose create was answered without it`,
  });
}

/**
 * Associates the task without ever making a duplicate (`createOnce`). The service answers 204 with no body (the
 * spec's status), or a document; without one the association is found by listing. A refusal (422) is looked
 * into: when the task is attached already, the answer is the advice to adopt it, whatever the service's wording.
 * An association made whose id the list cannot give (the list fails, or does not show it yet) is recorded by its
 * task, `<workspace-id>/<task-id>`, which later calls resolve (a partial failure): never made and unrecorded.
 */
async function associate(api: RunTaskEndpoints, s: WorkspaceRunTaskState, inputs: Props): Promise<WorkspaceTaskRecord> {
  // Those of the task there before: what the create made is told from them afterwards. A workspace that answers 404
  // holds none this token sees; the POST's own 404 then says which part answered.
  const held = await associationsOfTask(api, s.workspaceId, s.taskId).catch(noneWhereNotFound);
  if (!held.consistent) {
    throw new SnapshotRunTaskError(
      "not_found",
      `run task service: the run task list of workspace ${s.workspaceId} changed while it was read, so the associations of task ` +
        `${s.taskId} it held cannot be told from the one a create would make: nothing was associated. Run the command again`,
    );
  }
  const before = new Set(held.found.map((r) => r.id));
  const find = () => madeSince(api, s, before);
  const post = async () => {
    const resource = await api.associate(s.workspaceId, workspaceTaskBody(s, { withTask: true }));
    if (resource) return workspaceTaskFromWire(resource, s.workspaceId);
    let found: WorkspaceTaskRecord | undefined;
    let failure: unknown;
    try {
      found = await find();
    } catch (err) {
      // Several made since: none can be recorded as this one (an id by its task would resolve to any of them).
      if (hasCode(err, "conflict")) throw err;
      failure = err;
    }
    if (found) return found;
    const why = failure ? `listing the workspace's run tasks for its id failed: ${messageOf(failure)}` : "the workspace's list does not show it yet";
    throw new PartialFailure(
      failure ? codeOf(failure) : "server_error",
      `run task service: task ${s.taskId} was associated to workspace ${s.workspaceId}, but ${why}. It is recorded by its task ` +
        `(${s.workspaceId}/${s.taskId}); the next \`pulumi up\` or \`pulumi refresh\` looks up its id`,
      `${s.workspaceId}/${s.taskId}`,
      withProviderText(toPlainJson({ ...s, stage: s.stages?.[0] }) as Props, inputs),
      { cause: failure },
    );
  };
  return createRefusalChecked(api.http, {
    post,
    find,
    existing: () => findByTask(api, s.workspaceId, s.taskId),
    matches: (found) => isWhatWasSent(found, s),
    taken: (found) => foundInTheWay(api, s, found),
  });
}

/**
 * Where the association is: its workspace and `wstask-` id, from an id in state (`wstask-...`, or
 * `<workspace-id>/<wstask-id>`). An association recorded by its task (`<workspace-id>/<task-id>`) is looked up in
 * the workspace's list; undefined when the list answers without it (it is gone).
 */
async function located(api: RunTaskEndpoints, id: string, props: Props): Promise<{ workspaceId: string; id: string } | undefined> {
  const at = associationOf(id, props);
  if (!at.id.startsWith("task-")) return at;
  const found = await associationOfTask(api, at.workspaceId, at.id);
  return found === undefined ? undefined : { workspaceId: at.workspaceId, id: found };
}

/** `<workspaceId>/<wstask-id>`: an association's id with its workspace, the form an import gives (an id with one already, as it is). */
export function associationIdOf(id: string, outputs: Props): string {
  return id.includes("/") ? id : `${String(outputs.workspaceId)}/${id}`;
}

/**
 * The id of an association in state, with its workspace: the `wstask-` id with the state's workspace, or
 * `<workspaceId>/<wstask-id>` as an import gives it (the API reaches an association only through its workspace).
 */
export function associationOf(id: string, props: Props): { workspaceId: string; id: string } {
  const slash = id.indexOf("/");
  if (slash > 0) return { workspaceId: id.slice(0, slash), id: id.slice(slash + 1) };
  return { workspaceId: String(props.workspaceId ?? ""), id };
}

/**
 * An association kept by its resource holds its `wstask-` id, which its delete compares. One recorded by its task
 * (a create whose list could not give the id) is compared by the id its delete finds, and holds nothing here.
 */
function claimAssociation(id: string, olds: Props): void {
  const wsTaskId = typeof olds.workspaceTaskId === "string" ? olds.workspaceTaskId : associationOf(id, olds).id;
  if (wsTaskId.startsWith("wstask-")) hold("association", wsTaskId);
}

/** What names an association on the service (its workspace and task), as the holds of a deployment record it. */
function identityOf(s: WorkspaceRunTaskState): string {
  return `${s.workspaceId}/${s.taskId}`;
}

/** The `WorkspaceRunTask` provider. The resource id is the service's `wstask-...` id. */
export const workspaceRunTaskProvider: ResourceProvider = {
  ...checkAndDiff(checkWorkspaceRunTask, diffWorkspaceRunTaskDetail, claimAssociation, (olds, inputs) =>
    noticeAdoption(workspaceRunTaskTable, olds, inputs, {
      what: "association",
      label: (i) => `WorkspaceRunTask of ${String(i.taskId)} in ${String(i.workspaceId)}`,
      lookUp: async (i) => {
        const s = stateOf(i);
        const found = await findByTask(runTaskEndpoints(), s.workspaceId, s.taskId, `WorkspaceRunTask of ${s.taskId} in ${s.workspaceId}: adopt`);
        return found && { found: found.id, state: { ...s, enforcementLevel: found.enforcementLevel, stages: found.stages } };
      },
    }),
  ),

  async create(inputs) {
    const s = stateOf(inputs);
    const api = runTaskEndpoints();
    // This resource's own delete, left undone earlier in the deployment (takeover/heldObjects.ts), is carried out first.
    const undone = ownDeleteLeftUndone("association", identityOf(s));
    if (undone && !(await api.deleteWorkspaceTask(s.workspaceId, undone))) await requireAssociationGone(api, "DELETE", s.workspaceId, undone);
    // Adopted, or named by the recovery of an up stopped while creating it (takeover/pendingCreates.ts).
    const label = `WorkspaceRunTask of ${s.taskId} in ${s.workspaceId}`;
    const purpose = s.adopt === true ? `${label}: adopt` : `${label}: the recovery of an up stopped while creating it`;
    const found = s.adopt === true || namedForPendingCreate() ? await findByTask(api, s.workspaceId, s.taskId, purpose) : undefined;
    if (found) requireNotHeldByAnother({ kind: "association", identity: `association ${found.id}`, purpose }, found.id);
    const existing = found && (s.adopt === true || adoptsPendingCreate("association", found.id)) ? found : undefined;
    const record = existing
      ? workspaceTaskFromWire(await api.updateWorkspaceTask(s.workspaceId, existing.id, workspaceTaskBody(s, { withTask: false })), s.workspaceId)
      : await associate(api, s, inputs);
    hold("association", record.id);
    return { id: record.id, outs: toPlainJson(outputsOf(s, record)) as Props };
  },

  async read(readId, props) {
    const prior = stateOf(props ?? {});
    const api = runTaskEndpoints();
    // An import gives an id alone, in one of the forms users have; its id is then `<workspaceId>/<wstask-id>`.
    const importing = isImport(props);
    const at = importing ? await associationOfImport(api, readId) : await located(api, readId, prior);
    if (!at) return GONE;
    const { workspaceId, id: wsTaskId } = at;
    // An id with its workspace is answered in that form; one recorded by its task, with the id found.
    const id = importing || readId.includes("/") ? `${workspaceId}/${wsTaskId}` : readId;
    const resource = await api.showWorkspaceTask(workspaceId, wsTaskId);
    if (!resource) {
      await requireAssociationGone(api, "GET", workspaceId, wsTaskId);
      return GONE;
    }
    if (importing) hold("association", wsTaskId);
    const record = workspaceTaskFromWire(resource, workspaceId);
    const state: WorkspaceRunTaskState = {
      ...prior,
      workspaceId: record.workspaceId,
      taskId: record.taskId || prior.taskId,
      enforcementLevel: record.enforcementLevel as WorkspaceRunTaskState["enforcementLevel"],
    };
    const outs = toPlainJson(outputsOf(state, record)) as Props;
    return { id, props: outs, inputs: inputsOf(outs) };
  },

  async update(id, olds, news) {
    const s = stateOf(news);
    const api = runTaskEndpoints();
    const at = await located(api, id, s);
    if (!at) {
      throw new SnapshotRunTaskError(
        "not_found",
        `run task service: workspace ${s.workspaceId} holds no association of task ${s.taskId}: it was deleted outside the program ` +
          "(`pulumi refresh` drops it from the state, then `pulumi up` attaches the task again)",
      );
    }
    let resource: ResourceObject;
    try {
      resource = await api.updateWorkspaceTask(s.workspaceId, at.id, workspaceTaskBody(s, { withTask: false }));
    } catch (err) {
      // Carried out though it failed, the update is recorded as the service holds it (a partial failure).
      throw await afterFailedAssociationPatch(
        api,
        { resourceId: id, workspaceId: at.workspaceId, id: at.id, old: stateOf(olds), state: s, inputs: news },
        err,
      );
    }
    return { outs: toPlainJson(outputsOf(s, workspaceTaskFromWire(resource, s.workspaceId))) as Props };
  },

  async delete(id, props) {
    const api = runTaskEndpoints();
    const prior = stateOf(props ?? {});
    const at = await located(api, id, prior);
    if (at && heldByAnotherResource("association", at.id, identityOf(prior))) return;
    // Already gone is what delete wants, but only when the 404 is proven to mean that.
    if (at && !(await api.deleteWorkspaceTask(at.workspaceId, at.id))) await requireAssociationGone(api, "DELETE", at.workspaceId, at.id);
  },
};
