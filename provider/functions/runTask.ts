import { SnapshotRunTaskError } from "../common/errors";
import type { ConfigLookup } from "../config/lookup";
import { runTaskTable } from "../runTask/fields";
import { RUN_TASK_INCLUDES, type RunTaskInclude, type RunTaskRecord, type RunTaskWorkspace } from "../runTask/record";
import { taskFromWire, workspaceTaskIdsOf } from "../runTask/wire";
import { organizationHolding } from "../runTask/organization";
import { runTaskEndpoints, withGlobalOf } from "../services/runtask/endpoints";
import { relatedId, resourcesOf, type ResourceObject } from "../services/runtask/jsonApi";
import { wholeList } from "../services/runtask/proofOfGone";
import { defaultOrganization } from "../services/runtask/settings";
import { idSchema } from "../services/runtask/vocabularySchemas";
import type { ClientTuning } from "../services/tuning";
import { t, type ValueType } from "../table/field";
import { assertType, type RecordOf, type SameRecord } from "../table/types";
import { workspaceRunTaskTable } from "../workspaceRunTask/fields";
import type { WorkspaceTaskRecord } from "../workspaceRunTask/record";
import { workspaceTaskFromWire } from "../workspaceRunTask/wire";
import { requireValidArguments } from "./arguments";

export type { RunTaskInclude, RunTaskRecord, RunTaskWorkspace, WorkspaceTaskRecord };

const { fields: task } = runTaskTable;
const { fields: association } = workspaceRunTaskTable;

/** A property of a function's arguments or result, typed like a table field (never written: it changes nothing). */
function optional<const V extends ValueType>(value: V): { value: V; onChange: "none" } {
  return { value, onChange: "none" };
}
function required<const V extends ValueType>(value: V): { value: V; required: true; onChange: "none" } {
  return { value, required: true, onChange: "none" };
}

/** A run task as the functions return it: the task's table, read back, with its id and associations. */
export const runTaskRecordFields = {
  id: required(t.string),
  organization: required(task.organization.value),
  name: required(task.name.value),
  url: required(task.url.value),
  description: optional(task.description.value),
  category: required(task.category.value),
  enabled: required(task.enabled.value),
  global: optional(task.global.value),
  workspaceTaskIds: optional(t.list(t.string)),
  workspaces: optional(t.list(t.object("RunTaskWorkspace", { id: required(t.string), name: required(t.string) }))),
};

/** An association as the functions return it. */
export const workspaceRunTaskRecordFields = {
  id: required(t.string),
  workspaceId: required(association.workspaceId.value),
  taskId: required(association.taskId.value),
  enforcementLevel: required(association.enforcementLevel.value),
  stages: required(association.stages.value),
  stage: optional(association.stage.value),
};

assertType<SameRecord<RunTaskRecord, RecordOf<typeof runTaskRecordFields>>>(true);
assertType<SameRecord<WorkspaceTaskRecord, RecordOf<typeof workspaceRunTaskRecordFields>>>(true);

/** `include` as the service takes it. */

/** The arguments of each function, with the checks of the resources' fields (a name where an id belongs, say). */
export const getRunTaskArguments = {
  id: { ...optional(t.string), schema: idSchema("task", "a run task", "may be the task's name: give it as name instead") },
  name: { ...optional(task.name.value), schema: task.name.schema },
  organization: { ...optional(task.organization.value), schema: task.organization.schema },
};
export const listRunTasksArguments = {
  organization: getRunTaskArguments.organization,
  include: optional(t.list(t.oneOfStrings(RUN_TASK_INCLUDES))),
};
export const getWorkspaceRunTaskArguments = {
  workspaceId: { ...required(t.string), schema: association.workspaceId.schema },
  taskId: { ...required(t.string), schema: association.taskId.schema },
};
export const listWorkspaceRunTasksArguments = { workspaceId: getWorkspaceRunTaskArguments.workspaceId };

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
   * `workspaceTaskIds` is known): `workspace_tasks.workspace`, which gives each task its `workspaces`.
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

assertType<SameRecord<GetRunTaskArgs, RecordOf<typeof getRunTaskArguments>>>(true);
assertType<SameRecord<ListRunTasksArgs, RecordOf<typeof listRunTasksArguments>>>(true);
assertType<SameRecord<GetWorkspaceRunTaskArgs, RecordOf<typeof getWorkspaceRunTaskArguments>>>(true);
assertType<SameRecord<ListWorkspaceRunTasksArgs, RecordOf<typeof listWorkspaceRunTasksArguments>>>(true);

/** Every run task association of a workspace. */
export interface ListWorkspaceRunTasksResult {
  /** The associations, following every page. */
  workspaceRunTasks: WorkspaceTaskRecord[];
}

/**
 * The workspaces of the task's associations among the included objects (`include=workspace_tasks.workspace`): the
 * `workspaces` documents whose id an included association of this task names. Undefined where the answer includes
 * nothing (a service that ignores `include`).
 */
function workspacesOf(task: ResourceObject, included: unknown): RunTaskRecord["workspaces"] {
  if (!Array.isArray(included)) return undefined;
  const objects = resourcesOf({ data: included });
  const ofTask = new Set(
    objects.filter((r) => r.type === "workspace-tasks" && relatedId(r, "task") === task.id).map((r) => relatedId(r, "workspace")),
  );
  return objects.filter((r) => r.type === "workspaces" && ofTask.has(r.id)).map((r) => ({ id: r.id, name: String(r.attributes.name ?? "") }));
}

function recordOf(task: ResourceObject, included: unknown, organizationName: string, withWorkspaces = false): RunTaskRecord {
  const { organization, name, url, description, category, enabled, global } = taskFromWire(task, { organization: organizationName });
  const record: RunTaskRecord = { id: task.id, organization, name, url, category: category ?? "task", enabled: enabled ?? true };
  const workspaceTaskIds = workspaceTaskIdsOf(task, included);
  if (workspaceTaskIds !== undefined) record.workspaceTaskIds = workspaceTaskIds;
  const workspaces = withWorkspaces ? workspacesOf(task, included) : undefined;
  if (workspaces !== undefined) record.workspaces = workspaces;
  if (description !== undefined) record.description = description;
  if (global !== undefined) record.global = global;
  return record;
}

function organizationOf(given: string | undefined, config: ConfigLookup, fn: string): string {
  const org = given ?? defaultOrganization(config);
  if (!org) {
    throw new SnapshotRunTaskError(
      "missing_setting",
      `${fn}: no organization: pass one, or set stack config runtask:organization or RUNTASK_ORGANIZATION`,
    );
  }
  return org;
}

/**
 * A run task by id, or by name in an organization (all pages are searched). Fails when there is none, when an id's
 * task is not in the organization given, and when the organization holds several of that name.
 */
export async function getRunTask(args: GetRunTaskArgs, config: ConfigLookup, tuning?: ClientTuning): Promise<RunTaskRecord> {
  requireValidArguments("getRunTask", getRunTaskArguments, args);
  const api = runTaskEndpoints(config, tuning);
  if (args.id !== undefined) {
    if (args.name !== undefined) throw new SnapshotRunTaskError("invalid", "getRunTask: give either id or name, not both");
    const found = await api.showTask(args.id, "workspace_tasks");
    if (!found) throw new SnapshotRunTaskError("not_found", `getRunTask: no run task ${args.id} (missing or not authorized)`);
    // Its organization by name: the one given, which must hold it, else the one whose list holds it (organization.ts).
    const holding = await organizationHolding(api, found.task, args.organization !== undefined ? [args.organization] : [defaultOrganization(config)]);
    if (!holding || (args.organization !== undefined && holding.organization !== args.organization)) {
      throw new SnapshotRunTaskError(
        "not_found",
        args.organization !== undefined
          ? `getRunTask: run task ${args.id} is not in organization "${args.organization}"`
          : `getRunTask: run task ${args.id} is in no organization its name could be told from (runtask:organization, or its relationship's ` +
              "id, which need not be a name): pass organization",
      );
    }
    const global = found.task.attributes["global-configuration"] ?? holding.listed.attributes["global-configuration"];
    return recordOf(global === undefined ? found.task : withGlobalOf(found.task, global), found.included, holding.organization);
  }
  if (args.name === undefined) throw new SnapshotRunTaskError("invalid", "getRunTask: give id or name");
  const organization = organizationOf(args.organization, config, "getRunTask");
  // Only a whole list proves a name absent, or held once.
  const list = wholeList(await api.listTasks(organization, "workspace_tasks"), `getRunTask: the task list of organization "${organization}"`);
  const named = list.items.filter((t) => t.attributes.name === args.name);
  if (named.length === 0)
    throw new SnapshotRunTaskError("not_found", `getRunTask: no run task named "${args.name}" in organization "${organization}"`);
  if (named.length > 1) {
    throw new SnapshotRunTaskError(
      "conflict",
      `getRunTask: organization "${organization}" holds ${named.length} run tasks named "${args.name}" (${named.map((t) => t.id).join(", ")}): ` +
        "give the one meant by id",
    );
  }
  return recordOf(named[0], list.included, organization);
}

/** Every run task of the organization, following every page. */
export async function listRunTasks(args: ListRunTasksArgs, config: ConfigLookup, tuning?: ClientTuning): Promise<RunTaskRecord[]> {
  requireValidArguments("listRunTasks", listRunTasksArguments, args);
  // A list that changed while it was read is never answered as the whole (`wholeList`).
  const include = [...new Set<RunTaskInclude>(["workspace_tasks", ...(args.include ?? [])])].join(",");
  const organization = organizationOf(args.organization, config, "listRunTasks");
  const list = wholeList(
    await runTaskEndpoints(config, tuning).listTasks(organization, include),
    `listRunTasks: the task list of organization "${organization}"`,
  );
  return list.items.map((task) => recordOf(task, list.included, organization, args.include?.includes("workspace_tasks.workspace")));
}

/** The association of a task with a workspace. Fails when the task is not attached there. */
export async function getWorkspaceRunTask(args: GetWorkspaceRunTaskArgs, config: ConfigLookup, tuning?: ClientTuning): Promise<WorkspaceTaskRecord> {
  requireValidArguments("getWorkspaceRunTask", getWorkspaceRunTaskArguments, args);
  // From the workspace's whole list; attached more than once (the spec does not forbid it), an error names them all.
  const { workspaceId, taskId } = args;
  const found = (await workspaceTasks("getWorkspaceRunTask", workspaceId, config, tuning)).filter((r) => r.taskId === taskId);
  if (found.length === 0)
    throw new SnapshotRunTaskError("not_found", `getWorkspaceRunTask: could not find task "${taskId}" in workspace "${workspaceId}"`);
  if (found.length > 1) {
    throw new SnapshotRunTaskError(
      "conflict",
      `getWorkspaceRunTask: workspace ${workspaceId} holds ${found.length} associations of task ${taskId} (${found.map((r) => r.id).join(", ")}): ` +
        "which one is meant cannot be told. Keep one (delete the others at the service), then run the program again",
    );
  }
  return found[0];
}

/** Every run task association of a workspace, following every page. */
export async function listWorkspaceRunTasks(
  args: ListWorkspaceRunTasksArgs,
  config: ConfigLookup,
  tuning?: ClientTuning,
): Promise<WorkspaceTaskRecord[]> {
  requireValidArguments("listWorkspaceRunTasks", listWorkspaceRunTasksArguments, args);
  return workspaceTasks("listWorkspaceRunTasks", args.workspaceId, config, tuning);
}

/** The associations of a workspace, from its whole list (`wholeList`). */
async function workspaceTasks(fn: string, workspaceId: string, config: ConfigLookup, tuning?: ClientTuning): Promise<WorkspaceTaskRecord[]> {
  const list = wholeList(
    await runTaskEndpoints(config, tuning).listWorkspaceTasks(workspaceId),
    `${fn}: the run task list of workspace "${workspaceId}"`,
  );
  return list.items.map((r) => workspaceTaskFromWire(r, workspaceId));
}
