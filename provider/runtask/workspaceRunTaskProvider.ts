import type { dynamic } from "@pulumi/pulumi";
import { toPlainJson } from "../common/plainJson";
import { isStatus } from "../http/serviceError";
import { createOnce } from "./createOnce";
import { runTaskApi } from "./services";
import { checkWorkspaceRunTask } from "./workspaceRunTaskCheck";
import { diffWorkspaceRunTask } from "./workspaceRunTaskDiff";
import type { WorkspaceTaskRecord } from "./workspaceTasks";

type Props = Record<string, unknown>;

interface WorkspaceRunTaskState {
  workspaceId: string;
  taskId: string;
  enforcementLevel: string;
  stages: string[];
  stage?: string;
  adopt?: boolean;
}

function stateOf(props: Props): WorkspaceRunTaskState {
  const { __provider: _p, workspaceTaskId: _w, ...rest } = props;
  return rest as unknown as WorkspaceRunTaskState;
}

/** Outputs: the arguments as applied, `stage` as the service reports it (the first stage), and the association id. */
function outputs(s: WorkspaceRunTaskState, wt: WorkspaceTaskRecord): Props {
  return toPlainJson({ ...s, stages: wt.stages, stage: wt.stages[0], workspaceTaskId: wt.id }) as Props;
}

function alreadyAttached(s: WorkspaceRunTaskState): Error {
  return new Error(`run task ${s.taskId} is already attached to workspace ${s.workspaceId}: set adopt: true to take the association over`);
}

/** Whether an association found after a create's answer was lost is the one that create made. */
function isWhatWasSent(found: WorkspaceTaskRecord, sent: { enforcementLevel: string; stages: string[] }): boolean {
  return found.enforcementLevel === sent.enforcementLevel && JSON.stringify(found.stages) === JSON.stringify(sent.stages);
}

export const workspaceRunTaskProvider = {
  async check(olds: Props, news: Props): Promise<dynamic.CheckResult> {
    return checkWorkspaceRunTask(olds, news);
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    return diffWorkspaceRunTask(olds, news);
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const s = stateOf(inputs);
    const { workspaceTasks } = runTaskApi();
    const attrs = { enforcementLevel: s.enforcementLevel, stages: s.stages };
    const existing = s.adopt === true ? await workspaceTasks.findByTask(s.workspaceId, s.taskId) : undefined;
    let wt: WorkspaceTaskRecord;
    if (existing) {
      wt = await workspaceTasks.update(s.workspaceId, existing.id, attrs);
    } else {
      const attached = (err: unknown) => isStatus(err, 422) && /already been associated/i.test(err.message);
      try {
        wt = await createOnce(
          () => workspaceTasks.associate(s.workspaceId, s.taskId, attrs),
          () => workspaceTasks.findByTask(s.workspaceId, s.taskId),
          { matches: (found) => isWhatWasSent(found, attrs), foreign: () => alreadyAttached(s), isConflict: attached },
        );
      } catch (err) {
        if (attached(err)) throw alreadyAttached(s);
        throw err;
      }
    }
    return { id: wt.id, outs: outputs(s, wt) };
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    const prior = stateOf(props ?? {});
    const wt = await runTaskApi().workspaceTasks.show(prior.workspaceId, id);
    if (!wt) return { id: "", props: {} };
    const state: WorkspaceRunTaskState = { ...prior, workspaceId: wt.workspaceId, taskId: wt.taskId || prior.taskId, enforcementLevel: wt.enforcementLevel, stages: wt.stages };
    const outs = outputs(state, wt);
    // `stages` carries the meaning; the deprecated `stage` is an output only.
    const { workspaceTaskId: _w, stage: _s, ...inputs } = outs;
    return { id, props: outs, inputs };
  },

  async update(id: string, _olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const s = stateOf(news);
    const wt = await runTaskApi().workspaceTasks.update(s.workspaceId, id, { enforcementLevel: s.enforcementLevel, stages: s.stages });
    return { outs: outputs(s, wt) };
  },

  async delete(id: string, props: Props): Promise<void> {
    await runTaskApi().workspaceTasks.delete(stateOf(props).workspaceId, id);
  },
};
