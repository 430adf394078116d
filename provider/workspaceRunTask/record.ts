// A module of its own, free of the field table and its validation types: the functions' results name it, and
// programs compile those declarations.

/** An association of a run task to a workspace, as the service reports it. */
export interface WorkspaceTaskRecord {
  /** The `wstask-...` id. */
  id: string;
  /** The workspace (`ws-...`). */
  workspaceId: string;
  /** The run task (`task-...`). */
  taskId: string;
  /** `advisory` or `mandatory`. */
  enforcementLevel: string;
  /** Lifecycle stages, in the order the service gives them. */
  stages: string[];
  /**
   * The single stage older programs read: the service's `stage`, else the first of `stages`.
   * @deprecated Read `stages`.
   */
  stage?: string;
}
