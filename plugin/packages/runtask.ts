import { getRunTask, getWorkspaceRunTask, listRunTasks, listWorkspaceRunTasks, type RunTaskInclude } from "../../provider/functions/runTask";
import { runTaskTable } from "../../provider/runTask/fields";
import { RUN_TASK_IMPORT_FORMS } from "../../provider/runTask/importId";
import { RUNTASK_SERVICE } from "../../provider/services/runtask/settings";
import { ENFORCEMENT_LEVELS, STAGES } from "../../provider/services/runtask/vocabulary";
import { t, type Field, type ValueType } from "../../provider/table/field";
import { workspaceRunTaskTable } from "../../provider/workspaceRunTask/fields";
import { WORKSPACE_RUN_TASK_IMPORT_FORMS } from "../../provider/workspaceRunTask/importId";
import { associationIdOf } from "../../provider/workspaceRunTask/provider";
import type { PackageDefinition } from "../definition";

/** A property of a function's result or arguments (never written, so it changes nothing). */
function property(value: ValueType, required?: true): Field {
  return required ? { value, required, onChange: "none" } : { value, onChange: "none" };
}

const { fields: task } = runTaskTable;

/** A run task as the functions return it: the task's table, read back, with its id and associations. */
const runTaskInfo = {
  id: property(t.string, true),
  organization: property(task.organization.value, true),
  name: property(task.name.value, true),
  url: property(task.url.value, true),
  description: property(task.description.value),
  category: property(task.category.value, true),
  enabled: property(task.enabled.value, true),
  global: property(task.global.value),
  workspaceTaskIds: property(t.list(t.string)),
};

/** An association as the functions return it. */
const workspaceRunTaskInfo = {
  id: property(t.string, true),
  workspaceId: property(t.string, true),
  taskId: property(t.string, true),
  enforcementLevel: property(t.oneOfStrings(ENFORCEMENT_LEVELS), true),
  stages: property(t.list(t.oneOfStrings(STAGES)), true),
  stage: property(t.oneOfStrings(STAGES)),
};

const optionalText = property(t.string);
const requiredText = property(t.string, true);

/** The `runtask` provider plugin: run tasks and their association to workspaces (spec: run-task-api.md). */
export const runtaskPackage: PackageDefinition = {
  name: "runtask",
  displayName: "Run tasks",
  description: "Run tasks of an infrastructure-run orchestration service, and their association to workspaces.",
  service: RUNTASK_SERVICE,
  resources: [
    {
      token: "runtask:index:RunTask",
      table: runTaskTable,
      docs: { file: "sdk/runTask.ts", args: "RunTaskArgs", class: "RunTask", nested: { global: "RunTaskGlobalArgs" } },
      importId: `${RUN_TASK_IMPORT_FORMS.map((f) => `\`${f.replace(/ \(.*\)$/, "")}\``).join(" or ")}; the resource's id is the task's \`task-...\` id`,
      provider: () => require("../../provider/runTask/provider").runTaskProvider,
    },
    {
      token: "runtask:index:WorkspaceRunTask",
      table: workspaceRunTaskTable,
      docs: { file: "sdk/workspaceRunTask.ts", args: "WorkspaceRunTaskArgs", class: "WorkspaceRunTask" },
      importId:
        `${WORKSPACE_RUN_TASK_IMPORT_FORMS.map((f) => `\`${f}\``).join(", ")}; the resource's id is \`<workspace-id>/<wstask-id>\` ` +
        "(the API reaches an association only through its workspace, and has no lookup of a workspace by name)",
      provider: () => require("../../provider/workspaceRunTask/provider").workspaceRunTaskProvider,
      idOf: associationIdOf,
    },
  ],
  functions: [
    {
      token: "runtask:index:getRunTask",
      docs: { file: "provider/functions/runTask.ts", function: "getRunTask", inputs: "GetRunTaskArgs", outputs: "RunTaskRecord" },
      inputs: { id: optionalText, name: optionalText, organization: optionalText },
      outputs: runTaskInfo,
      call: async (args, config, tuning) => ({ ...(await getRunTask(args, config, tuning)) }),
    },
    {
      token: "runtask:index:listRunTasks",
      docs: {
        file: "provider/functions/runTask.ts",
        function: "listRunTasks",
        inputs: "ListRunTasksArgs",
        outputs: "ListRunTasksResult",
        outputItems: "RunTaskRecord",
      },
      inputs: { organization: optionalText, include: property(t.list(t.oneOfStrings(["workspace_tasks", "workspace_tasks.workspace"] as const))) },
      outputs: { tasks: property(t.list(t.object("RunTaskInfo", runTaskInfo)), true) },
      call: async (args, config, tuning) => ({
        tasks: await listRunTasks(
          { organization: args.organization as string | undefined, include: args.include as RunTaskInclude[] | undefined },
          config,
          tuning,
        ),
      }),
    },
    {
      token: "runtask:index:getWorkspaceRunTask",
      docs: {
        file: "provider/functions/runTask.ts",
        function: "getWorkspaceRunTask",
        inputs: "GetWorkspaceRunTaskArgs",
        outputs: "WorkspaceTaskRecord",
        itemsFile: "provider/workspaceRunTask/record.ts",
      },
      inputs: { workspaceId: requiredText, taskId: requiredText },
      outputs: workspaceRunTaskInfo,
      call: async (args, config, tuning) => ({
        ...(await getWorkspaceRunTask({ workspaceId: String(args.workspaceId), taskId: String(args.taskId) }, config, tuning)),
      }),
    },
    {
      token: "runtask:index:listWorkspaceRunTasks",
      docs: {
        file: "provider/functions/runTask.ts",
        function: "listWorkspaceRunTasks",
        inputs: "ListWorkspaceRunTasksArgs",
        outputs: "ListWorkspaceRunTasksResult",
        outputItems: "WorkspaceTaskRecord",
        itemsFile: "provider/workspaceRunTask/record.ts",
      },
      inputs: { workspaceId: requiredText },
      outputs: { workspaceRunTasks: property(t.list(t.object("WorkspaceRunTaskInfo", workspaceRunTaskInfo)), true) },
      call: async (args, config, tuning) => ({
        workspaceRunTasks: await listWorkspaceRunTasks({ workspaceId: String(args.workspaceId) }, config, tuning),
      }),
    },
  ],
};
