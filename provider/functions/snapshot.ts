import { SnapshotRunTaskError } from "../common/errors";
import type { ConfigLookup } from "../config/lookup";
import { SnapshotEndpoints } from "../services/snapshot/endpoints";
import { resolveSnapshotSettings } from "../services/snapshot/settings";
import type { ClientTuning } from "../services/tuning";

/** The status of a configuration's snapshots (spec: "Snapshot status"), camelCased. */
export interface SnapshotStatus {
  /** Start of the snapshot in progress, or of the last one (ISO 8601). */
  snapshotStart: string;
  /** Where the snapshot in progress, or the last one, is written. */
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

export interface GetSnapshotStatusArgs {
  /** The configuration's name. */
  name: string;
}

/** Every automated snapshot configuration. */
export interface ListSnapshotAutoConfigsResult {
  /** Names of every configuration (empty when there are none). */
  names: string[];
}

function endpoints(config: ConfigLookup, tuning?: ClientTuning): SnapshotEndpoints {
  return new SnapshotEndpoints(resolveSnapshotSettings(config), tuning);
}

/** The snapshot status of a configuration; fails when no configuration has that name. */
export async function getSnapshotStatus(args: GetSnapshotStatusArgs, config: ConfigLookup, tuning?: ClientTuning): Promise<SnapshotStatus> {
  const data = await endpoints(config, tuning).readStatus(args.name);
  if (!data) throw new SnapshotRunTaskError("not_found", `getSnapshotStatus: no snapshot configuration named "${args.name}"`);
  const text = (k: string) => (typeof data[k] === "string" ? (data[k] as string) : "");
  return {
    snapshotStart: text("snapshot_start"),
    snapshotUrl: text("snapshot_url"),
    lastSnapshotStart: text("last_snapshot_start"),
    lastSnapshotEnd: text("last_snapshot_end"),
    lastSnapshotUrl: text("last_snapshot_url"),
    lastSnapshotError: text("last_snapshot_error"),
  };
}

/**
 * Names of every automated snapshot configuration (empty when there are none). A service that does not serve
 * the endpoints (license, namespace) is an error, never an empty list.
 */
export async function listSnapshotAutoConfigs(config: ConfigLookup, tuning?: ClientTuning): Promise<string[]> {
  return endpoints(config, tuning).listConfigs();
}
