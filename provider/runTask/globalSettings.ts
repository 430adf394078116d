import type { EnforcementLevel, Stage } from "../services/runtask/vocabulary";

/**
 * A run task's global settings as the service reports them (the spec's `global-configuration`), in a resource's
 * outputs and in the functions' results alike. Written out rather than derived from the field table, so that the
 * declarations programs compile carry no validation types; `runTask/wire.ts` checks at compile time that both say
 * the same.
 */
export interface RunTaskGlobal {
  /** Whether the task is associated with every workspace of the organization. */
  enabled: boolean;
  /** The stages it runs at there. */
  stages?: Stage[];
  /** `advisory` or `mandatory`. */
  enforcementLevel?: EnforcementLevel;
}
