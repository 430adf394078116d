import { SnapshotRunTaskError } from "../common/errors";
import type { ConfigLookup } from "../config/lookup";
import type { RunTaskGlobal } from "../runTask/globalSettings";
import { taskFromWire, workspaceTaskIdsOf } from "../runTask/wire";
import { runTaskEndpoints } from "../services/runtask/endpoints";
import type { ResourceObject } from "../services/runtask/jsonApi";
import { defaultOrganization } from "../services/runtask/settings";
import type { ClientTuning } from "../services/tuning";
import { findByTask } from "../workspaceRunTask/provider";
import type { WorkspaceTaskRecord } from "../workspaceRunTask/record";
import { workspaceTaskFromWire } from "../workspaceRunTask/wire";

export type { WorkspaceTaskRecord };

/** A run task as the service reports it (the HMAC key is never returned). */
export interface RunTaskRecord {
  /** The `task-...` id. */
  id: string;
  /** The organization the task belongs to. */
  organization: string;
  /** The task's name. */
  name: string;
  /** Where the service sends the run task payload. */
  url: string;
  /** The task's description, when it has one. */
  description?: string;
  /** Always `task`. */
  category: string;
  /** Whether the task runs. */
  enabled: boolean;
  /** The global settings; absent when the organization lacks the global run tasks feature. */
  global?: RunTaskGlobal;
  /**
   * Ids (`wstask-...`) of the task's workspace associations, as the service reports them; absent when the
   * service's answer did not include them (it ignored `include`).
   */
  workspaceTaskIds?: string[];
}

/** `include` as the service takes it. */
export type RunTaskInclude = "workspace_tasks" | "workspace_tasks.workspace";

/** A run task by `id`, or by `name` in an organization. */
export interface GetRunTaskArgs {
  /** The task's `task-...` id. Give this or `name`. */
  id?: string;
  /** The task's name. Give this or `id`. */
  name?: string;
  /** With `name`: the organization. Default: stack config `runtask:organization`, then `RUNTASK_ORGANIZATION`. */
  organization?: string;
}

export interface ListRunTasksArgs {
  /** Default: stack config `runtask:organization`, then `RUNTASK_ORGANIZATION`. */
  organization?: string;
  /**
   * Related objects to include besides the associations (`workspace_tasks`, always asked for, so that
   * `workspaceTaskIds` is known): `workspace_tasks.workspace`.
   */
  include?: RunTaskInclude[];
}

/** Every run task of an organization. */
export interface ListRunTasksResult {
  /** The tasks, following every page. */
  tasks: RunTaskRecord[];
}

export interface GetWorkspaceRunTaskArgs {
  /** The workspace (`ws-...`). */
  workspaceId: string;
  /** The run task (`task-...`). */
  taskId: string;
}

export interface ListWorkspaceRunTasksArgs {
  /** The workspace (`ws-...`). */
  workspaceId: string;
}

/** Every run task association of a workspace. */
export interface ListWorkspaceRunTasksResult {
  /** The associations, following every page. */
  workspaceRunTasks: WorkspaceTaskRecord[];
}

function recordOf(task: ResourceObject, included: unknown): RunTaskRecord {
  const { organization, name, url, description, category, enabled, global } = taskFromWire(task, {});
  const record: RunTaskRecord = { id: task.id, organization, name, url, category: category ?? "task", enabled: enabled ?? true };
  const workspaceTaskIds = workspaceTaskIdsOf(task, included);
  if (workspaceTaskIds !== undefined) record.workspaceTaskIds = workspaceTaskIds;
  if (description !== undefined) record.description = description;
  if (global !== undefined) record.global = global;
  return record;
}

function organizationOf(given: string | undefined, config: ConfigLookup, fn: string): string {
  const org = given ?? defaultOrganization(config);
  if (!org)
    throw new SnapshotRunTaskError(
      "missing_setting",
      `${fn}: no organization: pass one, or set stack config runtask:organization or RUNTASK_ORGANIZATION`,
    );
  return org;
}

/** A run task by id, or by name in an organization (all pages are searched). Fails when there is none. */
export async function getRunTask(args: GetRunTaskArgs, config: ConfigLookup, tuning?: ClientTuning): Promise<RunTaskRecord> {
  const api = runTaskEndpoints(config, tuning);
  if (args.id !== undefined) {
    if (args.name !== undefined) throw new SnapshotRunTaskError("invalid", "getRunTask: give either id or name, not both");
    const found = await api.showTask(args.id, "workspace_tasks");
    if (!found) throw new SnapshotRunTaskError("not_found", `getRunTask: no run task ${args.id} (missing or not authorized)`);
    return recordOf(found.task, found.included);
  }
  if (args.name === undefined) throw new SnapshotRunTaskError("invalid", "getRunTask: give id or name");
  const organization = organizationOf(args.organization, config, "getRunTask");
  const list = await api.listTasks(organization, "workspace_tasks");
  const task = list.items.find((t) => t.attributes.name === args.name);
  if (!task) throw new SnapshotRunTaskError("not_found", `getRunTask: no run task named "${args.name}" in organization "${organization}"`);
  return recordOf(task, list.included);
}

/** Every run task of the organization, following every page. */
export async function listRunTasks(args: ListRunTasksArgs, config: ConfigLookup, tuning?: ClientTuning): Promise<RunTaskRecord[]> {
  const include = [...new Set<RunTaskInclude>(["workspace_tasks", ...(args.include ?? [])])].join(",");
  const list = await runTaskEndpoints(config, tuning).listTasks(organizationOf(args.organization, config, "listRunTasks"), include);
  return list.items.map((task) => recordOf(task, list.included));
}

/** The association of a task with a workspace. Fails when the task is not attached there. */
export async function getWorkspaceRunTask(args: GetWorkspaceRunTaskArgs, config: ConfigLookup, tuning?: ClientTuning): Promise<WorkspaceTaskRecord> {
  const found = await findByTask(runTaskEndpoints(config, tuning), args.workspaceId, args.taskId);
  if (!found)
    throw new SnapshotRunTaskError("not_found", `getWorkspaceRunTask: could not find task "${args.taskId}" in workspace "${args.workspaceId}"`);
  return found;
}

/** Every run task association of a workspace, following every page. */
export async function listWorkspaceRunTasks(
  args: ListWorkspaceRunTasksArgs,
  config: ConfigLookup,
  tuning?: ClientTuning,
): Promise<WorkspaceTaskRecord[]> {
  return (await runTaskEndpoints(config, tuning).listWorkspaceTasks(args.workspaceId)).items.map((r) => workspaceTaskFromWire(r, args.workspaceId));
}
