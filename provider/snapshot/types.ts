import type { StorageType } from "./fields";

/**
 * The provider's view of a configuration: arguments in normalised form (interval in seconds, defaults filled).
 * This is what `check` returns, what `create`/`update` return as outputs, and what `read` reports.
 */
export interface SnapshotAutoConfigState {
  name: string;
  interval: number;
  retain: number;
  pathPrefix: string;
  filePrefix: string;
  storageType: StorageType;
  adopt?: boolean;
  /** Storage-type fields by argument name (`localMaxSpace`, `cloudAS3Bucket`, ...). */
  [storageArg: string]: unknown;
}

/** A configuration as the service reads and writes it (snake_case wire names). */
export type SnapshotConfigWire = Record<string, unknown>;

/** The status object of a configuration, camelCased from the wire. */
export interface SnapshotStatus {
  snapshotStart: string;
  snapshotUrl: string;
  lastSnapshotStart: string;
  lastSnapshotEnd: string;
  lastSnapshotUrl: string;
  lastSnapshotError: string;
}
