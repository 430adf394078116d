import { diffByTable, outcomeOf, type DiffDetail, type DiffOutcome } from "../table/diff";
import { runTaskTable } from "./fields";

/** Field by field, as the table says: a new organization replaces the task; `global` is compared by meaning. */
export function diffRunTaskDetail(olds: Record<string, unknown>, news: Record<string, unknown>): DiffDetail {
  return diffByTable(runTaskTable, olds, news);
}

export function diffRunTask(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  return outcomeOf(diffRunTaskDetail(olds, news));
}
