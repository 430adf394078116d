import { contains, parsePropertyPath } from "./propertyPath";

/** What the step generator takes from a provider's Diff. */
export interface DiffDecision {
  changes: "unknown" | "none" | "some";
  /** The keys that replace the resource. */
  replaces: string[];
  /** The changed keys (`DiffResponse.diffs`); the dynamic provider plugin sends none. */
  changed: string[];
  /** The detailed diff's paths. */
  detailed: string[];
  deleteBeforeReplace: boolean;
}

/**
 * `pulumi up --replace <urn>` (and a tainted resource): the step generator decides the replacement without calling
 * Diff, blaming the id, and no provider's `deleteBeforeReplace` comes with it (pulumi/pulumi
 * `pkg/resource/deploy/step_generator.go`, `diff`, `isTargetedReplace`).
 */
export const TARGETED_REPLACE: DiffDecision = { changes: "some", replaces: ["id"], changed: [], detailed: [], deleteBeforeReplace: false };

/**
 * `applyReplaceOnChanges` (step_generator.go): a changed key, or a detailed diff path, under one of the resource's
 * `replaceOnChanges` paths replaces the resource; the provider's `deleteBeforeReplace` stays as it answered. A
 * provider that reports neither changed keys nor a detailed diff (the dynamic provider plugin) is never replaced
 * this way.
 */
export function withReplaceOnChanges(diff: DiffDecision, replaceOnChanges: readonly string[] | undefined): DiffDecision {
  if (diff.changes !== "some" || !replaceOnChanges?.length) return diff;
  const paths = replaceOnChanges.map((p) => parsePropertyPath(p)).filter((p) => p !== undefined);
  const under = (key: string) => {
    const elements = parsePropertyPath(key);
    return elements !== undefined && paths.some((p) => contains(p, elements));
  };
  const replaces = new Set(diff.replaces);
  for (const key of [...diff.changed, ...diff.detailed]) if (under(key)) replaces.add(key.split(/[.[]/)[0]);
  return { ...diff, replaces: [...replaces].sort() };
}

/**
 * Whether the old object is deleted before the replacement is created (`continueStepsFromDiff`): the resource
 * option `deleteBeforeReplace` where the program sets it, else the provider's answer.
 */
export function deletesFirst(diff: DiffDecision, option: boolean | undefined): boolean {
  return option ?? diff.deleteBeforeReplace;
}
