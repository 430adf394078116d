import { SnapshotRunTaskError } from "../common/errors";
import type { ConfigLookup } from "../config/lookup";
import { SnapshotEndpoints } from "../services/snapshot/endpoints";
import { resolveSnapshotSettings } from "../services/snapshot/settings";
import type { ClientTuning } from "../services/tuning";
import { snapshotAutoConfigTable } from "../snapshotAutoConfig/fields";
import type { SnapshotStatus } from "../snapshotAutoConfig/status";
import { t } from "../table/field";
import { assertType, type RecordOf, type SameRecord } from "../table/types";
import { requireValidArguments } from "./arguments";

export type { SnapshotStatus };

/** A member of the status: text, by its wire name, empty when the service leaves it out. */
const text = (wire: string) => ({ value: t.string, wire, required: true, onChange: "none" }) as const;

/** The status of a configuration's snapshots (spec: "Snapshot status"), camelCased, one line each. */
export const snapshotStatusFields = {
  snapshotStart: text("snapshot_start"),
  snapshotUrl: text("snapshot_url"),
  lastSnapshotStart: text("last_snapshot_start"),
  lastSnapshotEnd: text("last_snapshot_end"),
  lastSnapshotUrl: text("last_snapshot_url"),
  lastSnapshotError: text("last_snapshot_error"),
};

assertType<SameRecord<SnapshotStatus, RecordOf<typeof snapshotStatusFields>>>(true);

/** The arguments of `getSnapshotStatus`: a configuration's name, checked as the resource's is. */
export const getSnapshotStatusArguments = {
  name: { value: t.string, schema: snapshotAutoConfigTable.fields.name.schema, required: true, onChange: "none" },
} as const;

export interface GetSnapshotStatusArgs {
  /** The configuration's name. */
  name: string;
}

assertType<SameRecord<GetSnapshotStatusArgs, RecordOf<typeof getSnapshotStatusArguments>>>(true);

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
  requireValidArguments("getSnapshotStatus", getSnapshotStatusArguments, args);
  const data = await endpoints(config, tuning).readStatus(args.name);
  if (!data) throw new SnapshotRunTaskError("not_found", `getSnapshotStatus: no snapshot configuration named "${args.name}"`);
  const status = {} as SnapshotStatus;
  for (const [key, { wire }] of Object.entries(snapshotStatusFields)) {
    const value = data[wire];
    status[key as keyof SnapshotStatus] = typeof value === "string" ? value : "";
  }
  return status;
}

/**
 * Names of every automated snapshot configuration (empty when there are none). A service that does not serve
 * the endpoints (license, namespace) is an error, never an empty list.
 */
export async function listSnapshotAutoConfigs(config: ConfigLookup, tuning?: ClientTuning): Promise<string[]> {
  return endpoints(config, tuning).listConfigs();
}
