import type { RunTaskGlobal } from "./global";

// A module of its own, free of the field table and its validation types: the functions' results name it, and
// programs compile those declarations (a template's tsconfig cannot compile zod's). `functions/runTask.ts` checks
// it against the table at compile time.

/** What `listRunTasks` may include besides the associations, as the service's `include` takes it. */
export const RUN_TASK_INCLUDES = ["workspace_tasks", "workspace_tasks.workspace"] as const;
export type RunTaskInclude = (typeof RUN_TASK_INCLUDES)[number];

/** A run task as the service reports it (the HMAC key is never returned). */
export interface RunTaskRecord {
  /** The `task-...` id. */
  id: string;
  /** The organization the task belongs to. */
  organization: string;
  /** The task's name. */
  name: string;
  /** Where the service sends the run task payload. */
  url: string;
  /** The task's description, when it has one. */
  description?: string;
  /** Always `task`. */
  category: "task";
  /** Whether the task runs. */
  enabled: boolean;
  /** The global settings; absent when the organization lacks the global run tasks feature. */
  global?: RunTaskGlobal;
  /**
   * Ids (`wstask-...`) of the task's workspace associations, as the service reports them; absent when the
   * service's answer did not include them (it ignored `include`).
   */
  workspaceTaskIds?: string[];
  /**
   * The workspaces of the task's associations, as the service includes them where `listRunTasks` asks for
   * `workspace_tasks.workspace`; absent otherwise, or when the service's answer did not include them.
   */
  workspaces?: RunTaskWorkspace[];
}

/** A workspace a task is associated with, as the service includes it. */
export interface RunTaskWorkspace {
  /** The workspace's `ws-...` id. */
  id: string;
  /** The workspace's name. */
  name: string;
}
