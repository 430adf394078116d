import { checkByTable, type CheckContext, type CheckResult } from "../table/check";
import { runTaskTable } from "./fields";

/**
 * Validates and normalises `RunTask` arguments: `enabled` true, `category` "task", `global.enabled` false when
 * `global` is set, and the organization from the provider's stack config or environment when not given.
 */
export function checkRunTask(
  news: Record<string, unknown>,
  defaultOrganization: string | undefined,
  context: CheckContext = {},
  olds: Record<string, unknown> = {},
): CheckResult {
  return checkByTable(runTaskTable, news, olds, { ...context, organization: defaultOrganization });
}
