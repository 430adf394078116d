import { checkByTable, type CheckResult } from "../table/check";
import { workspaceRunTaskTable } from "./fields";
import { workspaceRunTaskRules } from "./rules";

/**
 * Validates and normalises `WorkspaceRunTask` arguments: `stages` defaults to ["post_plan"]; the deprecated
 * `stage` maps to `stages` when `stages` is absent, and takes only pre_plan or post_plan when it changes on an
 * existing association, as the service's update does.
 */
export function checkWorkspaceRunTask(olds: Record<string, unknown>, news: Record<string, unknown>): CheckResult {
  return checkByTable(workspaceRunTaskTable, news, olds, {}, workspaceRunTaskRules);
}
