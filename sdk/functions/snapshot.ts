import { isStatus } from "../../provider/http/serviceError";
import { SnapshotClient } from "../../provider/snapshot/client";
import { resolveSnapshotSettings } from "../../provider/snapshot/settings";
import type { SnapshotStatus } from "../../provider/snapshot/types";
import { programConfig } from "../programConfig";

export type { SnapshotStatus };

function client(): SnapshotClient {
  return new SnapshotClient(resolveSnapshotSettings(programConfig));
}

/** The snapshot status of a configuration; fails when no configuration has that name. */
export async function getSnapshotStatus(args: { name: string }): Promise<SnapshotStatus> {
  const data = await client().readStatus(args.name);
  if (!data) throw new Error(`getSnapshotStatus: no snapshot configuration named "${args.name}"`);
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

/** Names of every automated snapshot configuration (empty when there are none). */
export async function listSnapshotAutoConfigs(): Promise<string[]> {
  try {
    return await client().listConfigs();
  } catch (err) {
    if (isStatus(err, 404)) return [];
    throw err;
  }
}
