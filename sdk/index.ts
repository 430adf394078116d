export { SnapshotAutoConfig, type SnapshotAutoConfigArgs, type StorageType } from "./snapshotAutoConfig";
export { RunTask, type RunTaskArgs, type RunTaskGlobalArgs, type RunTaskGlobal, type Stage, type EnforcementLevel } from "./runTask";
export { WorkspaceRunTask, type WorkspaceRunTaskArgs } from "./workspaceRunTask";
export { getSnapshotStatus, listSnapshotAutoConfigs, type SnapshotStatus } from "./functions/snapshot";
export {
  getRunTask,
  listRunTasks,
  getWorkspaceRunTask,
  listWorkspaceRunTasks,
  type RunTaskInfo,
  type WorkspaceRunTaskInfo,
} from "./functions/runTask";
export { SnapshotRunTaskError, hasCode, type ErrorCode } from "../provider/common/errors";
export { ServiceError } from "../provider/http/serviceError";
