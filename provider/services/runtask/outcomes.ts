import { SnapshotRunTaskError } from "../../common/errors";

/**
 * A create refused because the object exists (found by looking after a 422, never by the refusal's wording).
 */
export function refusedCreate(advice: string): SnapshotRunTaskError {
  return new SnapshotRunTaskError("conflict", advice);
}

/** A 404 that could not be proven to mean "gone": refresh and delete fail and keep the object in the state. */
export function notProvenGone(message: string, cause?: unknown): SnapshotRunTaskError {
  return new SnapshotRunTaskError("not_found", message, { cause });
}
