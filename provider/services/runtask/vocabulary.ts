/**
 * The run task service's words: stages and enforcement levels. Free of validation code, so that the SDK's
 * declarations, which name these types, name nothing of zod (see vocabularySchemas.ts for the schemas).
 */
export const STAGES = ["pre_plan", "post_plan", "pre_apply", "post_apply"] as const;
export type Stage = (typeof STAGES)[number];

export const ENFORCEMENT_LEVELS = ["advisory", "mandatory"] as const;
export type EnforcementLevel = (typeof ENFORCEMENT_LEVELS)[number];

/**
 * Stages are lifecycle points, a set: the spec lists them without saying that their order is kept, so a server
 * that answers them in another order than sent says the same thing (and must not diff forever).
 */
export function sameStages(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  const left = new Set(a);
  return left.size === new Set(b).size && b.every((stage) => left.has(stage));
}
