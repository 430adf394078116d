import { SnapshotRunTaskError } from "../../common/errors";

/** A 404 that could not be proven to mean "gone": refresh and delete fail and keep the object in the state. */
export function notProvenGone(message: string, cause?: unknown): SnapshotRunTaskError {
  return new SnapshotRunTaskError("not_found", message, { cause });
}
