import { checkByTable, type CheckContext, type CheckResult } from "../table/check";
import { snapshotAutoConfigTable } from "./fields";
import { snapshotAutoConfigRules } from "./rules";

/**
 * Validates and normalises the arguments of a `SnapshotAutoConfig`: interval to seconds, defaults filled, empty
 * optional strings dropped. Unknown values (preview) pass through untouched and skip the rules that need them.
 */
export function checkSnapshotAutoConfig(news: Record<string, unknown>, context: CheckContext = {}, olds: Record<string, unknown> = {}): CheckResult {
  return checkByTable(snapshotAutoConfigTable, news, olds, context, snapshotAutoConfigRules);
}
