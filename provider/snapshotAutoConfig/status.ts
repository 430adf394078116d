// A module of its own, free of the field tables and their validation types: `getSnapshotStatus`'s result names it,
// and programs compile that declaration (a template's tsconfig cannot compile zod's). `functions/snapshot.ts`
// checks it against the status's fields at compile time.

/** The status of a configuration's snapshots (spec: "Snapshot status"), camelCased. */
export interface SnapshotStatus {
  /** The service's `snapshot_start`: a time (ISO 8601); the spec does not say how it differs from `lastSnapshotStart`. */
  snapshotStart: string;
  /** The service's `snapshot_url`, shaped as `lastSnapshotUrl`; the spec does not say how it differs from it. */
  snapshotUrl: string;
  /** Start of the last snapshot (ISO 8601). */
  lastSnapshotStart: string;
  /** End of the last snapshot (ISO 8601). */
  lastSnapshotEnd: string;
  /** Where the last snapshot was written (`file://...` for `local`). */
  lastSnapshotUrl: string;
  /** The last snapshot's error; empty when it succeeded. */
  lastSnapshotError: string;
}
