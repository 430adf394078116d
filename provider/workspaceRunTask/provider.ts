import { SnapshotRunTaskError } from "../common/errors";
import { alreadyExists } from "../common/alreadyExists";
import { toPlainJson } from "../common/plainJson";
import { GONE, isImport, type ResourceProvider } from "../resource";
import { heldByAnotherResource, hold } from "../heldObjects";
import { createRefusalChecked } from "../services/runtask/createRefusalChecked";
import { runTaskEndpoints, type RunTaskEndpoints } from "../services/runtask/endpoints";
import { requireAssociationGone } from "../services/runtask/proofOfGone";
import { sameStages } from "../services/runtask/vocabulary";
import { checkAndDiff } from "../tableProvider";
import { noticeAdoption } from "../adoptionNotice";
import { associationOfImport } from "./importId";
import { checkWorkspaceRunTask } from "./check";
import { workspaceRunTaskTable } from "./fields";
import { diffWorkspaceRunTaskDetail } from "./diff";
import { inputsOf, outputsOf, workspaceTaskBody, workspaceTaskFromWire, type WorkspaceRunTaskState, type WorkspaceTaskRecord } from "./wire";

type Props = Record<string, unknown>;

function stateOf(props: Props): WorkspaceRunTaskState {
  const { __provider: _p, workspaceTaskId: _w, ...rest } = props;
  return { ...rest, workspaceId: String(rest.workspaceId ?? ""), taskId: String(rest.taskId ?? "") };
}

function alreadyAttached(s: WorkspaceRunTaskState): SnapshotRunTaskError {
  return alreadyExists(`the association of run task ${s.taskId} with workspace ${s.workspaceId}`);
}

/** Whether an association found after a create's answer was lost is the one that create made. */
function isWhatWasSent(found: WorkspaceTaskRecord, sent: WorkspaceRunTaskState): boolean {
  return found.enforcementLevel === sent.enforcementLevel && sameStages(found.stages, sent.stages);
}

/** The association of that task in the workspace, looking through every page. */
export async function findByTask(api: RunTaskEndpoints, workspaceId: string, taskId: string): Promise<WorkspaceTaskRecord | undefined> {
  return (await api.listWorkspaceTasks(workspaceId)).items.map((r) => workspaceTaskFromWire(r, workspaceId)).find((w) => w.taskId === taskId);
}

/**
 * Associates the task without ever making a duplicate (`createOnce`). The service answers 204 with no body (the
 * spec's status), or a document; without one the association is found by listing. A refusal (422) is looked
 * into: when the task is attached already, the answer is the advice to adopt it, whatever the service's wording.
 */
async function associate(api: RunTaskEndpoints, s: WorkspaceRunTaskState): Promise<WorkspaceTaskRecord> {
  const find = () => findByTask(api, s.workspaceId, s.taskId);
  const post = async () => {
    const resource = await api.associate(s.workspaceId, workspaceTaskBody(s, { withTask: true }));
    if (resource) return workspaceTaskFromWire(resource, s.workspaceId);
    const found = await find();
    if (!found) {
      throw new SnapshotRunTaskError(
        "unexpected_answer",
        `run task service: task ${s.taskId} was associated to workspace ${s.workspaceId}, but the association is not listed`,
      );
    }
    return found;
  };
  return createRefusalChecked(api.http, { post, find, matches: (found) => isWhatWasSent(found, s), exists: () => alreadyAttached(s) });
}

/** `<workspaceId>/<wstask-id>`: an association's id with its workspace, the form an import gives. */
export function associationIdOf(id: string, outputs: Props): string {
  return `${String(outputs.workspaceId)}/${id}`;
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

/** The `WorkspaceRunTask` provider. The resource id is the service's `wstask-...` id. */
export const workspaceRunTaskProvider: ResourceProvider = {
  ...checkAndDiff(checkWorkspaceRunTask, diffWorkspaceRunTaskDetail, (olds, inputs) =>
    noticeAdoption(workspaceRunTaskTable, olds, inputs, {
      what: "association",
      label: (i) => `WorkspaceRunTask of ${String(i.taskId)} in ${String(i.workspaceId)}`,
      lookUp: async (i) => {
        const s = stateOf(i);
        const found = await findByTask(runTaskEndpoints(), s.workspaceId, s.taskId);
        return found && { found: found.id, state: { ...s, enforcementLevel: found.enforcementLevel, stages: found.stages } };
      },
    }),
  ),

  async create(inputs) {
    const s = stateOf(inputs);
    const api = runTaskEndpoints();
    const existing = s.adopt === true ? await findByTask(api, s.workspaceId, s.taskId) : undefined;
    const record = existing
      ? workspaceTaskFromWire(await api.updateWorkspaceTask(s.workspaceId, existing.id, workspaceTaskBody(s, { withTask: false })), s.workspaceId)
      : await associate(api, s);
    hold("association", record.id);
    return { id: record.id, outs: toPlainJson(outputsOf(s, record)) as Props };
  },

  async read(readId, props) {
    const prior = stateOf(props ?? {});
    const api = runTaskEndpoints();
    // An import gives an id alone, in one of the forms users have; its id is then `<workspaceId>/<wstask-id>`.
    const importing = isImport(props);
    const { workspaceId, id: wsTaskId } = importing ? await associationOfImport(api, readId) : associationOf(readId, prior);
    const id = importing ? `${workspaceId}/${wsTaskId}` : readId;
    const resource = await api.showWorkspaceTask(workspaceId, wsTaskId);
    if (!resource) {
      await requireAssociationGone(api, "GET", workspaceId, wsTaskId, prior.taskId || undefined);
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

  async update(id, _olds, news) {
    const s = stateOf(news);
    const resource = await runTaskEndpoints().updateWorkspaceTask(s.workspaceId, associationOf(id, s).id, workspaceTaskBody(s, { withTask: false }));
    return { outs: toPlainJson(outputsOf(s, workspaceTaskFromWire(resource, s.workspaceId))) as Props };
  },

  async delete(id, props) {
    const prior = stateOf(props ?? {});
    const { workspaceId, id: wsTaskId } = associationOf(id, prior);
    if (heldByAnotherResource("association", wsTaskId)) return;
    const api = runTaskEndpoints();
    // Already gone is what delete wants, but only when the 404 is proven to mean that.
    if (!(await api.deleteWorkspaceTask(workspaceId, wsTaskId)))
      await requireAssociationGone(api, "DELETE", workspaceId, wsTaskId, prior.taskId || undefined);
  },
};
