import type { EnforcementLevel, RunTaskArgs, SnapshotAutoConfigArgs, Stage } from "../sdk";

/**
 * What a stack should hold, declared as data: snapshot configurations, run tasks, and the attachment of run
 * tasks to workspaces. Keys of `snapshots` and `runTasks` are the Pulumi resource names (and the default
 * configuration or task names); keep them stable, since a new key is a new resource.
 */
export interface ProvisioningDescription {
  snapshots?: Record<string, SnapshotAutoConfigArgs>;
  runTasks?: Record<string, RunTaskArgs>;
  attachments?: AttachmentDescription[];
}

/** One run task attached to a set of workspaces, each with the same enforcement and stages. */
export interface AttachmentDescription {
  /** A key of `runTasks`, or the id (`task-...`) of a task managed elsewhere. */
  task: string;
  /** The workspaces (`ws-...`). Adding one attaches the task there; removing one detaches it. */
  workspaceIds: string[];
  enforcementLevel: EnforcementLevel;
  /** Default `["post_plan"]`. */
  stages?: Stage[];
  /** Take over associations that already exist instead of failing. */
  adopt?: boolean;
}

/** One association to create: a resource per task and workspace. */
export interface PlannedAttachment {
  resourceName: string;
  /** The key of the task in `runTasks`, when the description manages the task. */
  taskKey?: string;
  /** The task id, when the task is managed elsewhere. */
  taskId?: string;
  workspaceId: string;
  enforcementLevel: EnforcementLevel;
  stages?: Stage[];
  adopt?: boolean;
}

/** The resource name of the association of a task with a workspace: stable across runs and unique. */
export function attachmentResourceName(task: string, workspaceId: string): string {
  return `${task}-on-${workspaceId}`;
}

/**
 * Expands the attachments into one association per task and workspace, and rejects a description that could
 * not be provisioned as written: unknown task references, workspaces listed twice for the same task.
 */
export function planAttachments(description: ProvisioningDescription): PlannedAttachment[] {
  const tasks = new Set(Object.keys(description.runTasks ?? {}));
  const errors: string[] = [];
  const planned: PlannedAttachment[] = [];
  const seen = new Set<string>();
  (description.attachments ?? []).forEach((a, i) => {
    const managed = tasks.has(a.task);
    if (!managed && !a.task.startsWith("task-")) {
      errors.push(`attachments[${i}].task "${a.task}" is neither a key of runTasks nor a task id (task-...)`);
      return;
    }
    if (a.workspaceIds.length === 0) errors.push(`attachments[${i}] lists no workspaceIds`);
    for (const workspaceId of a.workspaceIds) {
      const resourceName = attachmentResourceName(a.task, workspaceId);
      if (seen.has(resourceName)) {
        errors.push(`task "${a.task}" is attached to workspace ${workspaceId} more than once`);
        continue;
      }
      seen.add(resourceName);
      planned.push({
        resourceName,
        ...(managed ? { taskKey: a.task } : { taskId: a.task }),
        workspaceId,
        enforcementLevel: a.enforcementLevel,
        stages: a.stages,
        adopt: a.adopt,
      });
    }
  });
  if (errors.length > 0) throw new Error(`invalid provisioning description:\n  ${errors.join("\n  ")}`);
  return planned;
}
