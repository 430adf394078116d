import * as z from "zod";

export const STAGES = ["pre_plan", "post_plan", "pre_apply", "post_apply"] as const;
export type Stage = (typeof STAGES)[number];
/** On update the service takes the deprecated single `stage` only from these. */
export const STAGES_ON_STAGE_UPDATE: readonly Stage[] = ["pre_plan", "post_plan"];
export const DEFAULT_STAGES: Stage[] = ["post_plan"];

export const ENFORCEMENT_LEVELS = ["advisory", "mandatory"] as const;
export type EnforcementLevel = (typeof ENFORCEMENT_LEVELS)[number];

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

/**
 * Stages are lifecycle points, a set: the spec lists them without saying that their order is kept, so a server
 * that answers them in another order than sent says the same thing (and must not diff forever).
 */
export function sameStages(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  const left = new Set(a);
  return left.size === new Set(b).size && b.every((stage) => left.has(stage));
}
