import type { PropertyChange } from "./display";

/** What a command did, or plans to do, to one resource. */
export type StepOp = "create" | "update" | "replace" | "same" | "delete" | "refresh" | "gone";

export interface Step {
  op: StepOp;
  name: string;
  /** For refresh: whether the outputs changed (drift). For replace: the diff's replaced keys. */
  detail?: string[] | boolean;
  /** For delete: the resource left the stack, but its object was left in place (`retainOnDelete`). */
  retained?: boolean;
  /** For update, replace and refresh: each property that changes, with its two values, as the CLI shows them. */
  changes?: PropertyChange[];
  /** For replace: whether the old object is deleted before the new one is created. */
  deleteBeforeReplace?: boolean;
  /** For a delete-before-replace: the resources deleted before it and created again, as depending on it. */
  dependents?: string[];
}

/**
 * Progress of a command, one resource at a time, as the engine reports it to the CLI's display: `planned` in a
 * preview, `started` and then `done` or `failed` around each operation of the other commands.
 */
export interface StepEvent {
  phase: "planned" | "started" | "done" | "failed";
  op: StepOp;
  type: string;
  name: string;
  /** The resource's id once known (after a create, for the resources that exist). */
  id?: string;
  retained?: boolean;
  error?: string;
}
