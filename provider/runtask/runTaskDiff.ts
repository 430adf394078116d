import { changedArgs, diffOutcome, type DiffOutcome } from "../common/diff";

/** `taskId` is the service's id, an output; `adopt` only steers create. */
const IGNORED = new Set(["adopt", "taskId"]);
/** A task belongs to one organization: moving it means creating it in the other. */
const REPLACE_ON = new Set(["organization"]);

export function diffRunTask(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  const old = { ...olds, category: olds.category ?? "task", enabled: olds.enabled ?? true };
  return diffOutcome(changedArgs(old, news, IGNORED), REPLACE_ON);
}
