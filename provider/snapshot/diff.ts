import { changedArgs, diffOutcome, type DiffOutcome } from "../common/diff";
import { DEFAULT_FILE_PREFIX, DEFAULT_RETAIN } from "./fields";
import { parseInterval } from "./interval";

/** Not part of the remote object: changing them is not a change of the configuration. */
const IGNORED = new Set(["adopt"]);
/** A configuration is identified by its name: a new name is a new configuration. */
const REPLACE_ON = new Set(["name"]);

/**
 * `olds` are the outputs in state, `news` the inputs `check` normalised. Old states are normalised the same way
 * first, so a state written before a default existed, or holding `"24h"`, does not show a spurious change.
 */
export function diffSnapshotAutoConfig(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  return diffOutcome(changedArgs(normaliseState(olds), news, IGNORED), REPLACE_ON);
}

export function normaliseState(state: Record<string, unknown>): Record<string, unknown> {
  const out = { ...state };
  if (out.retain === undefined) out.retain = DEFAULT_RETAIN;
  if (out.filePrefix === undefined) out.filePrefix = DEFAULT_FILE_PREFIX;
  const interval = parseInterval(out.interval);
  if (interval.ok) out.interval = interval.seconds;
  return out;
}
