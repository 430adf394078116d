import * as z from "zod";
import { refused } from "../../common/validate";
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
      return `must be one of ${quoted(STAGES)}, got ${refused(input)}`;
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

/**
 * An id of the spec's shape (`ws-...`, `task-...`). A value of another shape is most often the object's name, which
 * the API does not take: refused before any request, with `hint` on what to give instead.
 */
export function idSchema(prefix: string, what: string, hint: string) {
  return z.string({ error: "must be a string" }).refine((v) => new RegExp(`^${prefix}-[^/\\s]+$`).test(v), {
    error: (issue) => `must be ${what} id (${prefix}-...); ${JSON.stringify(issue.input)} ${hint}`,
  });
}

/** A workspace's id, which its name is often taken for. */
export const workspaceIdSchema = () =>
  idSchema("ws", "a workspace", "may be the workspace's name, but the run task API takes its id (shown in the workspace's settings)");

export function enforcementLevelSchema() {
  return z.enum(ENFORCEMENT_LEVELS, { error: (issue) => `must be one of ${quoted(ENFORCEMENT_LEVELS)}, got ${refused(issue.input)}` });
}
