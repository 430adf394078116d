import * as pulumi from "@pulumi/pulumi";
import { RunTask, SnapshotAutoConfig, WorkspaceRunTask, type EnforcementLevel, type Stage, type StorageType } from "../sdk";
import { planAttachments, type ProvisioningDescription } from "./description";

/** What the program exports, by the keys of the description (attachments by resource name). */
export interface ProvisionedOutputs {
  snapshots: Record<string, { name: string; interval: number; storageType: StorageType; pathPrefix: string }>;
  runTasks: Record<string, { id: string; name: string; organization: string; url: string; enabled: boolean }>;
  attachments: Record<string, { id: string; workspaceId: string; taskId: string; enforcementLevel: EnforcementLevel; stages: Stage[] }>;
}

/** The program's return value: `ProvisionedOutputs` with every leaf an Output, as a Pulumi program exports it. */
export type ProvisionedOutputsOf = {
  [K in keyof ProvisionedOutputs]: Record<string, { [F in keyof ProvisionedOutputs[K][string]]: pulumi.Output<ProvisionedOutputs[K][string][F]> }>;
};

/**
 * The Pulumi program that creates the resources a description declares. Use it as an inline program with
 * the Automation API (see `provision`), or as the default export of a project's `index.ts` to run the same
 * description with `pulumi up`. The description is checked before any resource is declared.
 */
export function provisioningProgram(description: ProvisioningDescription): () => Promise<ProvisionedOutputsOf> {
  const attachments = planAttachments(description);
  return async () => {
    const snapshots: ProvisionedOutputsOf["snapshots"] = {};
    for (const [key, args] of Object.entries(description.snapshots ?? {})) {
      const s = new SnapshotAutoConfig(key, args);
      snapshots[key] = { name: s.name, interval: s.interval, storageType: s.storageType, pathPrefix: s.pathPrefix };
    }

    const tasks: Record<string, RunTask> = {};
    const runTasks: ProvisionedOutputsOf["runTasks"] = {};
    for (const [key, args] of Object.entries(description.runTasks ?? {})) {
      const t = (tasks[key] = new RunTask(key, args));
      runTasks[key] = { id: t.id, name: t.name, organization: t.organization, url: t.url, enabled: t.enabled };
    }

    const attached: ProvisionedOutputsOf["attachments"] = {};
    for (const a of attachments) {
      const task = a.taskKey !== undefined ? tasks[a.taskKey] : undefined;
      const w = new WorkspaceRunTask(a.resourceName, {
        workspaceId: a.workspaceId,
        taskId: task ? task.id : a.taskId!,
        enforcementLevel: a.enforcementLevel,
        stages: a.stages,
        adopt: a.adopt,
      });
      attached[a.resourceName] = { id: w.id, workspaceId: w.workspaceId, taskId: w.taskId, enforcementLevel: w.enforcementLevel, stages: w.stages };
    }
    return { snapshots, runTasks: runTasks, attachments: attached };
  };
}
