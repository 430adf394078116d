import { getSnapshotStatus as getStatus, listSnapshotAutoConfigs as listConfigs, type SnapshotStatus } from "../../provider/functions/snapshot";
import { programConfig } from "../programConfig";

export type { SnapshotStatus };

/** The snapshot status of a configuration; fails when no configuration has that name. */
export function getSnapshotStatus(args: { name: string }): Promise<SnapshotStatus> {
  return getStatus(args, programConfig);
}

/** Names of every automated snapshot configuration (empty when there are none). */
export function listSnapshotAutoConfigs(): Promise<string[]> {
  return listConfigs(programConfig);
}
