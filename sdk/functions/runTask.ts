import { defaultOrganization } from "../../provider/runtask/settings";
import { runTaskApi } from "../../provider/runtask/services";
import type { RunTaskRecord } from "../../provider/runtask/tasks";
import type { WorkspaceTaskRecord } from "../../provider/runtask/workspaceTasks";
import { programConfig } from "../programConfig";

export type { RunTaskRecord as RunTaskInfo, WorkspaceTaskRecord as WorkspaceRunTaskInfo };

function organizationOf(given: string | undefined, fn: string): string {
  const org = given ?? defaultOrganization(programConfig);
  if (!org) throw new Error(`${fn}: no organization: pass one, or set stack config runtask:organization or RUNTASK_ORGANIZATION`);
  return org;
}

/** A run task by id, or by name in an organization (all pages are searched). Fails when there is none. */
export async function getRunTask(args: { organization?: string; name: string } | { id: string }): Promise<RunTaskRecord> {
  const { tasks } = runTaskApi(programConfig);
  if ("id" in args) {
    const task = await tasks.show(args.id);
    if (!task) throw new Error(`getRunTask: no run task ${args.id} (missing or not authorized)`);
    return task;
  }
  const organization = organizationOf(args.organization, "getRunTask");
  const task = await tasks.findByName(organization, args.name);
  if (!task) throw new Error(`getRunTask: no run task named "${args.name}" in organization "${organization}"`);
  return task;
}

/** Every run task of the organization, following every page. `include` as the service takes it. */
export async function listRunTasks(args: { organization?: string; include?: ("workspace_tasks" | "workspace_tasks.workspace")[] } = {}): Promise<RunTaskRecord[]> {
  return runTaskApi(programConfig).tasks.list(organizationOf(args.organization, "listRunTasks"), args.include?.join(","));
}

/** The association of a task with a workspace. Fails when the task is not attached there. */
export async function getWorkspaceRunTask(args: { workspaceId: string; taskId: string }): Promise<WorkspaceTaskRecord> {
  const found = await runTaskApi(programConfig).workspaceTasks.findByTask(args.workspaceId, args.taskId);
  if (!found) throw new Error(`getWorkspaceRunTask: could not find task "${args.taskId}" in workspace "${args.workspaceId}"`);
  return found;
}

/** Every run task association of a workspace, following every page. */
export async function listWorkspaceRunTasks(args: { workspaceId: string }): Promise<WorkspaceTaskRecord[]> {
  return runTaskApi(programConfig).workspaceTasks.list(args.workspaceId);
}
