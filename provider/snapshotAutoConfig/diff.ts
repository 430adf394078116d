import { diffByTable, outcomeOf, type DiffDetail, type DiffOutcome } from "../table/diff";
import { snapshotAutoConfigTable } from "./fields";

/** Field by field, as the table says: a new name replaces the configuration, `adopt` changes nothing. */
export function diffSnapshotAutoConfigDetail(olds: Record<string, unknown>, news: Record<string, unknown>): DiffDetail {
  return diffByTable(snapshotAutoConfigTable, olds, news);
}

export function diffSnapshotAutoConfig(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  return outcomeOf(diffSnapshotAutoConfigDetail(olds, news));
}
