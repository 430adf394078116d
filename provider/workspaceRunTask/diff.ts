import { diffByTable, outcomeOf, type DiffDetail, type DiffOutcome } from "../table/diff";
import { workspaceRunTaskTable } from "./fields";

/** Field by field, as the table says: a new workspace or task replaces the association; `stages` carries `stage`. */
export function diffWorkspaceRunTaskDetail(olds: Record<string, unknown>, news: Record<string, unknown>): DiffDetail {
  return diffByTable(workspaceRunTaskTable, olds, news);
}

export function diffWorkspaceRunTask(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  return outcomeOf(diffWorkspaceRunTaskDetail(olds, news));
}
