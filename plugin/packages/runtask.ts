import {
  getRunTask,
  getRunTaskArguments,
  getWorkspaceRunTask,
  getWorkspaceRunTaskArguments,
  listRunTasks,
  listRunTasksArguments,
  listWorkspaceRunTasks,
  listWorkspaceRunTasksArguments,
  runTaskRecordFields,
  workspaceRunTaskRecordFields,
  type RunTaskInclude,
} from "../../provider/functions/runTask";
import { runTaskTable } from "../../provider/runTask/fields";
import { RUN_TASK_IMPORT_FORMS } from "../../provider/runTask/importId";
import { RUNTASK_SERVICE } from "../../provider/services/runtask/settings";
import { t } from "../../provider/table/field";
import { workspaceRunTaskTable } from "../../provider/workspaceRunTask/fields";
import { WORKSPACE_RUN_TASK_IMPORT_FORMS } from "../../provider/workspaceRunTask/importId";
import { associationIdOf } from "../../provider/workspaceRunTask/provider";
import type { PackageDefinition } from "../server/definition";

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
      docs: {
        file: "provider/functions/runTask.ts",
        function: "getRunTask",
        inputs: "GetRunTaskArgs",
        outputs: "RunTaskRecord",
        itemsFile: "provider/runTask/record.ts",
      },
      inputs: getRunTaskArguments,
      outputs: runTaskRecordFields,
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
        itemsFile: "provider/runTask/record.ts",
      },
      inputs: listRunTasksArguments,
      outputs: { tasks: { value: t.list(t.object("RunTaskInfo", runTaskRecordFields)), required: true, onChange: "none" } },
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
      inputs: getWorkspaceRunTaskArguments,
      outputs: workspaceRunTaskRecordFields,
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
      inputs: listWorkspaceRunTasksArguments,
      outputs: {
        workspaceRunTasks: { value: t.list(t.object("WorkspaceRunTaskInfo", workspaceRunTaskRecordFields)), required: true, onChange: "none" },
      },
      call: async (args, config, tuning) => ({
        workspaceRunTasks: await listWorkspaceRunTasks({ workspaceId: String(args.workspaceId) }, config, tuning),
      }),
    },
  ],
};
