import type { EnforcementLevel, Stage } from "../services/runtask/vocabulary";

// A module of its own, free of the field table and its validation types: the functions' results name it, and
// programs compile those declarations. `functions/runTask.ts` checks it against the table at compile time.

/** An association of a run task to a workspace, as the service reports it. */
export interface WorkspaceTaskRecord {
  /** The `wstask-...` id. */
  id: string;
  /** The workspace (`ws-...`). */
  workspaceId: string;
  /** The run task (`task-...`). */
  taskId: string;
  /** `advisory` or `mandatory`. */
  enforcementLevel: EnforcementLevel;
  /** Lifecycle stages, in the order the service gives them. */
  stages: Stage[];
  /**
   * The single stage older programs read: the service's `stage`, else the first of `stages`.
   * @deprecated Read `stages`.
   */
  stage?: Stage;
}
