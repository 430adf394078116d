import * as core from "../../provider/functions/runTask";
import type { RunTaskInclude, RunTaskRecord, WorkspaceTaskRecord } from "../../provider/functions/runTask";
import { programConfig } from "../programConfig";

export type { RunTaskRecord as RunTaskInfo, WorkspaceTaskRecord as WorkspaceRunTaskInfo };

/** A run task by id, or by name in an organization (all pages are searched). Fails when there is none. */
export function getRunTask(args: { organization?: string; name: string } | { id: string }): Promise<RunTaskRecord> {
  return core.getRunTask(args, programConfig);
}

/** Every run task of the organization, following every page. `include` as the service takes it. */
export function listRunTasks(args: { organization?: string; include?: RunTaskInclude[] } = {}): Promise<RunTaskRecord[]> {
  return core.listRunTasks(args, programConfig);
}

/** The association of a task with a workspace. Fails when the task is not attached there. */
export function getWorkspaceRunTask(args: { workspaceId: string; taskId: string }): Promise<WorkspaceTaskRecord> {
  return core.getWorkspaceRunTask(args, programConfig);
}

/** Every run task association of a workspace, following every page. */
export function listWorkspaceRunTasks(args: { workspaceId: string }): Promise<WorkspaceTaskRecord[]> {
  return core.listWorkspaceRunTasks(args, programConfig);
}
