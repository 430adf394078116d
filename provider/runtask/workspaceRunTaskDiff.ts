import { changedArgs, diffOutcome, type DiffOutcome } from "../common/diff";

/** `stage` is the deprecated spelling of `stages[0]`; `stages` carries the meaning. */
const IGNORED = new Set(["adopt", "workspaceTaskId", "stage"]);
/** An association is of one task to one workspace. */
const REPLACE_ON = new Set(["workspaceId", "taskId"]);

export function diffWorkspaceRunTask(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  return diffOutcome(changedArgs(olds, news, IGNORED), REPLACE_ON);
}
