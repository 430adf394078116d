import * as z from "zod";
import { bool, DOT_SEGMENT_REASON, nonEmptyString, notDotSegment, orUnknown } from "../common/validate";
import { jsonEqual } from "../common/jsonEqual";
import { ENFORCEMENT_LEVELS, sameStages, STAGES } from "../services/runtask/vocabulary";
import { enforcementLevelSchema, stageListSchema } from "../services/runtask/vocabularySchemas";
import { defineTable, t, value } from "../table/field";
import { checkByTable, type CheckContext, type CheckResult } from "../table/check";
import { diffByTable, outcomeOf, type DiffDetail, type DiffOutcome } from "../table/diff";

/** The spec's limit on a description, in characters (code points, not UTF-16 units). */
export const MAX_DESCRIPTION = 300;

const httpUrl = z.string({ error: "must be a string" }).refine(
  (v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && u.host !== "";
    } catch {
      return false;
    }
  },
  { error: (issue) => `must be an http or https URL, got ${JSON.stringify(issue.input)}` },
);

/** A task's name: letters, digits, `-` and `_`; a refusal repeats the name and the characters that are not. */
const taskName = nonEmptyString().regex(/^[A-Za-z0-9_-]+$/, {
  error: (issue) => {
    const name = String(issue.input);
    const others = [...new Set(name.replace(/[A-Za-z0-9_-]/g, ""))].map((c) => JSON.stringify(c)).join(", ");
    return `may contain only letters, digits, '-' and '_': ${JSON.stringify(name)} has ${others}`;
  },
});

const description = z.string({ error: "must be a string" }).refine((s) => [...s].length <= MAX_DESCRIPTION, {
  error: (issue) => `must be at most ${MAX_DESCRIPTION} characters (got ${[...(issue.input as string)].length})`,
});

/** The spec's `global-configuration`: the task on every workspace of the organization. */
export const globalFields = {
  enabled: { value: t.boolean, schema: bool(), wire: "enabled", default: value(false), onChange: "update" },
  stages: { value: t.list(t.oneOfStrings(STAGES)), schema: stageListSchema(), wire: "stages", same: sameStages, onChange: "update" },
  enforcementLevel: { value: t.oneOfStrings(ENFORCEMENT_LEVELS), schema: enforcementLevelSchema(), wire: "enforcement-level", onChange: "update" },
} as const;

const globalSchema = z
  .object(
    {
      enabled: orUnknown(globalFields.enabled.schema).optional(),
      stages: orUnknown(globalFields.stages.schema).optional(),
      enforcementLevel: orUnknown(globalFields.enforcementLevel.schema).optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `has no setting ${issue.keys.map((k) => `"${k}"`).join(", ")}: the settings are enabled, stages and enforcementLevel`
          : "must be an object with enabled, stages and enforcementLevel",
    },
  )
  .strict();

/**
 * `global` is declarative: a program without it, or without `enabled`, means "not global" (the service's
 * default). `stages` and `enforcementLevel` have no default in the spec; left out, the service's values stand.
 * A state without `global` is an organization without the feature (or a server that never reported it): there
 * only a program that asks for global settings differs.
 */
export function sameGlobal(old: unknown, next: unknown): boolean {
  if (old === undefined && (next === undefined || isSettings(next))) return !asksForGlobal(next);
  if (next === undefined && isSettings(old)) return old.enabled !== true;
  if (!isSettings(old) || !isSettings(next)) return jsonEqual(old, next);
  return (
    (old.enabled ?? false) === (next.enabled ?? false) &&
    (next.stages === undefined || sameStages(old.stages, next.stages)) &&
    (next.enforcementLevel === undefined || jsonEqual(old.enforcementLevel, next.enforcementLevel))
  );
}

/** Whether the program's `global` asks for anything but the service's default (global off). */
export function asksForGlobal(global: unknown): boolean {
  return isSettings(global) && global.enabled === true;
}

type GlobalSettings = { enabled?: unknown; stages?: unknown; enforcementLevel?: unknown };

function isSettings(v: unknown): v is GlobalSettings {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * The fields of a run task (spec: run-task-api.md, "Run task"), one line each. `organization` is a path segment
 * of the create call, not an attribute; `taskId` is the service's id.
 */
export const runTaskTable = defineTable("RunTask", {
  organization: {
    value: t.string,
    schema: nonEmptyString()
      .regex(/^[^/\s]+$/, { error: "must be an organization name (no '/' or whitespace)" })
      .refine(notDotSegment, { error: DOT_SEGMENT_REASON }),
    required: true,
    default: {
      from: "organization",
      missing: "is required: set it, or stack config runtask:organization, or the environment variable RUNTASK_ORGANIZATION",
    },
    onChange: "replace",
    identity: true,
  },
  name: {
    value: t.string,
    schema: taskName,
    wire: "name",
    required: true,
    default: { from: "resourceName" },
    onChange: "update",
    identity: true,
  },
  url: { value: t.string, schema: httpUrl, wire: "url", required: true, onChange: "update" },
  description: { value: t.string, schema: description, wire: "description", onChange: "update" },
  category: {
    value: t.oneOfStrings(["task"]),
    schema: z.literal("task", { error: 'must be "task"' }),
    wire: "category",
    default: value("task"),
    onChange: "update",
  },
  hmacKey: {
    value: t.string,
    // An empty key means no key.
    schema: z.string({ error: "must be a string" }).transform((s) => (s === "" ? undefined : s)),
    wire: "hmac-key",
    secret: true,
    writeOnly: true,
    onChange: "update",
  },
  enabled: { value: t.boolean, wire: "enabled", default: value(true), onChange: "update" },
  global: {
    value: t.object("RunTaskGlobal", globalFields),
    schema: globalSchema,
    wire: "global-configuration",
    same: sameGlobal,
    onChange: "update",
  },
  adopt: { value: t.boolean, onChange: "none" },
  taskId: { value: t.string, output: true, onChange: "none" },
});

// What the table answers: check and diff, which send nothing.

/**
 * Validates and normalises `RunTask` arguments: `enabled` true, `category` "task", `global.enabled` false when
 * `global` is set, and the organization from the provider's stack config or environment when not given.
 */
export function checkRunTask(
  news: Record<string, unknown>,
  defaultOrganization: string | undefined,
  context: CheckContext = {},
  olds: Record<string, unknown> = {},
): CheckResult {
  return checkByTable(runTaskTable, news, olds, { ...context, organization: defaultOrganization });
}

/** Field by field, as the table says: a new organization replaces the task; `global` is compared by meaning. */
export function diffRunTaskDetail(olds: Record<string, unknown>, news: Record<string, unknown>): DiffDetail {
  return diffByTable(runTaskTable, olds, news);
}

export function diffRunTask(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  return outcomeOf(diffRunTaskDetail(olds, news));
}
