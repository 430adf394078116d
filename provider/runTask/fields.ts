import * as z from "zod";
import { DOT_SEGMENT_REASON, nonEmptyString, notDotSegment } from "../common/validate";
import { defineTable, t, value } from "../table/field";
import { globalField } from "./global";
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

/**
 * An empty description is none: it is sent as `""` either way, and a service may read it back as `""`, as `null` or
 * not at all, none of which may differ from the program's `""` (`noneWhenEmpty` brings old states to that form).
 */
const description = z
  .string({ error: "must be a string" })
  .refine((s) => [...s].length <= MAX_DESCRIPTION, {
    error: (issue) => `must be at most ${MAX_DESCRIPTION} characters (got ${[...(issue.input as string)].length})`,
  })
  .transform((s) => (s === "" ? undefined : s));

/** A state's `""` (as versions before this one stored a program's empty description) read as none. */
const noneWhenEmpty = (v: unknown) => (v === "" ? undefined : v);

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
  description: { value: t.string, schema: description, normalise: noneWhenEmpty, wire: "description", onChange: "update" },
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
  global: globalField,
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
