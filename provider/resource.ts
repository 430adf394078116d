import type { CheckContext, CheckResult } from "./table/check";
import type { DiffDetail, DiffOutcome } from "./table/diff";

type Props = Record<string, unknown>;

/**
 * The provider core of one resource type, which both adapters call: the dynamic provider plugin (through the
 * shims) and the native provider plugins. No CRUD logic lives in an adapter.
 */
export interface ResourceProvider {
  /** Validates and normalises arguments; sends nothing. `context` supplies defaults the arguments leave out. */
  check(olds: Props, news: Props, context?: CheckContext): Promise<CheckResult>;
  /** The engine's answer to a diff of the state's outputs against checked inputs; sends nothing. */
  diff(id: string, olds: Props, news: Props): Promise<DiffOutcome>;
  /** The same, with the arguments that changed (the plugins' detailed diff). */
  diffDetail(olds: Props, news: Props): DiffDetail;
  /**
   * Records that the resource of this state keeps its object in this deployment: its Diff answered no
   * replacement (takeover/heldObjects.ts). Sends nothing.
   */
  claim(id: string, olds: Props): void;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  /**
   * The object as the service holds it. `props` is the state's outputs, empty on an import (then `id` alone
   * must do). An empty id answers "gone", and only after proof that it is.
   */
  read(id: string, props: Props): Promise<{ id: string; props: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props?: Props): Promise<void>;
}

/** What `read` answers for an object that is gone. */
export const GONE = { id: "", props: {} } as const;

/** Whether a read has the id alone (an import, in whatever form the user gave it) rather than a state to go by. */
export function isImport(props: Props | undefined): boolean {
  return Object.keys(props ?? {}).length === 0;
}
