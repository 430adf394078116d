export { SnapshotAutoConfig, type SnapshotAutoConfigArgs, type StorageType } from "./snapshotAutoConfig";
export { getSnapshotStatus, listSnapshotAutoConfigs, type SnapshotStatus } from "./functions/snapshot";
