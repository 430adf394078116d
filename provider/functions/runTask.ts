import type { ConfigLookup } from "../config/lookup";
import { taskFromWire, workspaceTaskIdsOf, type RunTaskGlobal } from "../runTask/wire";
import { runTaskEndpoints } from "../services/runtask/endpoints";
import type { ResourceObject } from "../services/runtask/jsonApi";
import { defaultOrganization } from "../services/runtask/settings";
import type { ClientTuning } from "../services/tuning";
import { findByTask } from "../workspaceRunTask/provider";
import { workspaceTaskFromWire, type WorkspaceTaskRecord } from "../workspaceRunTask/wire";

export type { WorkspaceTaskRecord };

/** A run task as the service reports it (the HMAC key is never returned). */
export interface RunTaskRecord {
  /** The `task-...` id. */
  id: string;
  organization: string;
  name: string;
  url: string;
  description?: string;
  category: string;
  enabled: boolean;
  /** Absent when the organization lacks the global run tasks feature. */
  global?: RunTaskGlobal;
  /** Ids (`wstask-...`) of the task's workspace associations. */
  workspaceTaskIds: string[];
}

/** `include` as the service takes it. */
export type RunTaskInclude = "workspace_tasks" | "workspace_tasks.workspace";

function recordOf(task: ResourceObject, included: unknown): RunTaskRecord {
  const { organization, name, url, description, category, enabled, global } = taskFromWire(task, {});
  const record: RunTaskRecord = { id: task.id, organization, name, url, category: category ?? "task", enabled: enabled ?? true, workspaceTaskIds: workspaceTaskIdsOf(task, included) };
  if (description !== undefined) record.description = description;
  if (global !== undefined) record.global = global;
  return record;
}

function organizationOf(given: string | undefined, config: ConfigLookup, fn: string): string {
  const org = given ?? defaultOrganization(config);
  if (!org) throw new Error(`${fn}: no organization: pass one, or set stack config runtask:organization or RUNTASK_ORGANIZATION`);
  return org;
}

/** A run task by id, or by name in an organization (all pages are searched). Fails when there is none. */
export async function getRunTask(args: { organization?: string; name: string } | { id: string }, config: ConfigLookup, tuning?: ClientTuning): Promise<RunTaskRecord> {
  const api = runTaskEndpoints(config, tuning);
  if ("id" in args) {
    const found = await api.showTask(args.id, "workspace_tasks");
    if (!found) throw new Error(`getRunTask: no run task ${args.id} (missing or not authorized)`);
    return recordOf(found.task, found.included);
  }
  const organization = organizationOf(args.organization, config, "getRunTask");
  const list = await api.listTasks(organization, "workspace_tasks");
  const task = list.items.find((t) => t.attributes.name === args.name);
  if (!task) throw new Error(`getRunTask: no run task named "${args.name}" in organization "${organization}"`);
  return recordOf(task, list.included);
}

/** Every run task of the organization, following every page. */
export async function listRunTasks(args: { organization?: string; include?: RunTaskInclude[] }, config: ConfigLookup, tuning?: ClientTuning): Promise<RunTaskRecord[]> {
  const list = await runTaskEndpoints(config, tuning).listTasks(organizationOf(args.organization, config, "listRunTasks"), args.include?.join(","));
  return list.items.map((task) => recordOf(task, list.included));
}

/** The association of a task with a workspace. Fails when the task is not attached there. */
export async function getWorkspaceRunTask(args: { workspaceId: string; taskId: string }, config: ConfigLookup, tuning?: ClientTuning): Promise<WorkspaceTaskRecord> {
  const found = await findByTask(runTaskEndpoints(config, tuning), args.workspaceId, args.taskId);
  if (!found) throw new Error(`getWorkspaceRunTask: could not find task "${args.taskId}" in workspace "${args.workspaceId}"`);
  return found;
}

/** Every run task association of a workspace, following every page. */
export async function listWorkspaceRunTasks(args: { workspaceId: string }, config: ConfigLookup, tuning?: ClientTuning): Promise<WorkspaceTaskRecord[]> {
  return (await runTaskEndpoints(config, tuning).listWorkspaceTasks(args.workspaceId)).items.map((r) => workspaceTaskFromWire(r, args.workspaceId));
}
