export {
  SnapshotAutoConfig,
  type SnapshotAutoConfigArgs,
  type SnapshotAutoConfigCommonArgs,
  type LocalSnapshotAutoConfigArgs,
  type CloudAS3SnapshotAutoConfigArgs,
  type CloudBBlobSnapshotAutoConfigArgs,
  type CloudCGcsSnapshotAutoConfigArgs,
  type ComputedStorageSnapshotAutoConfigArgs,
  type LocalStorageParameters,
  type CloudAS3StorageParameters,
  type CloudBBlobStorageParameters,
  type CloudCGcsStorageParameters,
  type StorageType,
} from "./snapshotAutoConfig";
export { RunTask, type RunTaskArgs, type RunTaskGlobalArgs, type RunTaskGlobal, type Stage, type EnforcementLevel } from "./runTask";
export { WorkspaceRunTask, type WorkspaceRunTaskArgs } from "./workspaceRunTask";
export {
  getSnapshotStatus,
  getSnapshotStatusOutput,
  listSnapshotAutoConfigs,
  listSnapshotAutoConfigsOutput,
  type GetSnapshotStatusArgs,
  type SnapshotStatus,
} from "./functions/snapshot";
export {
  getRunTask,
  getRunTaskOutput,
  listRunTasks,
  listRunTasksOutput,
  getWorkspaceRunTask,
  getWorkspaceRunTaskOutput,
  listWorkspaceRunTasks,
  listWorkspaceRunTasksOutput,
  type GetRunTaskArgs,
  type ListRunTasksArgs,
  type GetWorkspaceRunTaskArgs,
  type ListWorkspaceRunTasksArgs,
  type RunTaskInclude,
  type RunTaskInfo,
  type RunTaskWorkspace,
  type WorkspaceRunTaskInfo,
} from "./functions/runTask";
export type { OutputArgs } from "./functions/outputArgs";
export { SnapshotRunTaskError, hasCode, type ErrorCode } from "../provider/common/errors";
export { ServiceError } from "../provider/http/serviceError";
