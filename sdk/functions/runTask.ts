import * as pulumi from "@pulumi/pulumi";
import * as core from "../../provider/functions/runTask";
import type { RunTaskInclude, RunTaskRecord, RunTaskWorkspace } from "../../provider/runTask/record";
import type { WorkspaceTaskRecord } from "../../provider/workspaceRunTask/record";
import { programConfig } from "../programConfig";
import { whenSourcesExist, type OutputArgs } from "./outputArgs";
import { asProgramFailure } from "./programFailure";

export type { RunTaskRecord as RunTaskInfo, WorkspaceTaskRecord as WorkspaceRunTaskInfo, RunTaskInclude, RunTaskWorkspace };

/** A run task by its `task-...` id, or by its name in an organization (default: `runtask:organization`). */
export type GetRunTaskArgs = { organization?: string; name: string } | { id: string };
export type ListRunTasksArgs = { organization?: string; include?: RunTaskInclude[] };
export type GetWorkspaceRunTaskArgs = { workspaceId: string; taskId: string };
export type ListWorkspaceRunTasksArgs = { workspaceId: string };

/** A run task by id, or by name in an organization (all pages are searched). Fails when there is none. */
export function getRunTask(args: GetRunTaskArgs): Promise<RunTaskRecord> {
  return asProgramFailure(() => core.getRunTask(args, programConfig));
}

/** `getRunTask` of arguments that may be Outputs (another resource's, say): its result as an Output. */
export function getRunTaskOutput(args: pulumi.Input<OutputArgs<GetRunTaskArgs>>): pulumi.Output<RunTaskRecord> {
  return whenSourcesExist(pulumi.output(args)).apply((plain) => getRunTask(plain));
}

/** Every run task of the organization, following every page. `include` as the service takes it. */
export function listRunTasks(args: ListRunTasksArgs = {}): Promise<RunTaskRecord[]> {
  return asProgramFailure(() => core.listRunTasks(args, programConfig));
}

/** `listRunTasks` of arguments that may be Outputs: its result as an Output. */
export function listRunTasksOutput(args: pulumi.Input<OutputArgs<ListRunTasksArgs>> = {}): pulumi.Output<RunTaskRecord[]> {
  return whenSourcesExist(pulumi.output(args)).apply((plain) => listRunTasks(plain));
}

/** The association of a task with a workspace. Fails when the task is not attached there. */
export function getWorkspaceRunTask(args: GetWorkspaceRunTaskArgs): Promise<WorkspaceTaskRecord> {
  return asProgramFailure(() => core.getWorkspaceRunTask(args, programConfig));
}

/** `getWorkspaceRunTask` of arguments that may be Outputs (a `RunTask`'s id, say): its result as an Output. */
export function getWorkspaceRunTaskOutput(args: pulumi.Input<OutputArgs<GetWorkspaceRunTaskArgs>>): pulumi.Output<WorkspaceTaskRecord> {
  return whenSourcesExist(pulumi.output(args)).apply((plain) => getWorkspaceRunTask(plain));
}

/** Every run task association of a workspace, following every page. */
export function listWorkspaceRunTasks(args: ListWorkspaceRunTasksArgs): Promise<WorkspaceTaskRecord[]> {
  return asProgramFailure(() => core.listWorkspaceRunTasks(args, programConfig));
}

/** `listWorkspaceRunTasks` of arguments that may be Outputs: its result as an Output. */
export function listWorkspaceRunTasksOutput(args: pulumi.Input<OutputArgs<ListWorkspaceRunTasksArgs>>): pulumi.Output<WorkspaceTaskRecord[]> {
  return whenSourcesExist(pulumi.output(args)).apply((plain) => listWorkspaceRunTasks(plain));
}
