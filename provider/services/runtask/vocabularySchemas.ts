import * as z from "zod";
import { ENFORCEMENT_LEVELS, STAGES } from "./vocabulary";

/** Validation of the run task service's words (vocabulary.ts), with messages that say what was meant. */

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(", ");

/** A stage; `pre-apply` (hyphen) is a common slip, so the message says what was meant. */
export function stageSchema() {
  return z.enum(STAGES, {
    error: (issue) => {
      const input = issue.input;
      const fixed = typeof input === "string" ? input.trim().toLowerCase().replace(/-/g, "_") : undefined;
      if (typeof input === "string" && fixed && (STAGES as readonly string[]).includes(fixed)) {
        return `"${input}" is not a stage: did you mean "${fixed}"? (stages use underscores)`;
      }
      return `must be one of ${quoted(STAGES)}`;
    },
  });
}

/** One or more stages, each once. */
export function stageListSchema() {
  return z
    .array(stageSchema(), { error: "must be a list of stages" })
    .min(1, { error: "must list at least one stage" })
    .refine((list) => new Set(list).size === list.length, { error: "must not list a stage twice" });
}

export function enforcementLevelSchema() {
  return z.enum(ENFORCEMENT_LEVELS, { error: `must be one of ${quoted(ENFORCEMENT_LEVELS)}` });
}
