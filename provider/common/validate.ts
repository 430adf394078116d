import * as z from "zod";
import type { CheckFailure } from "./inputError";
import { containsUnknown, isUnknown } from "./unknown";

/** Argument schemas by argument name; each one's issues become a reason for that argument. */
export type ArgSchemas = Record<string, z.ZodType>;

export interface FieldValidation {
  /** Valid values, transformed by their schema; unknown (preview) values are kept as they are. */
  values: Record<string, unknown>;
  failures: CheckFailure[];
}

/**
 * Validates each present argument with its own schema, so that a failure names exactly the argument (and the
 * nested path) that is wrong. Arguments that are unknown during preview are skipped; arguments that no schema
 * knows are failures, so a misspelt argument is never silently ignored.
 */
export function validateArgs(input: Record<string, unknown>, schemas: ArgSchemas, resource: string): FieldValidation {
  const values: Record<string, unknown> = {};
  const failures: CheckFailure[] = [];
  for (const [arg, value] of Object.entries(input)) {
    if (arg === "__provider" || value === undefined) continue;
    // Own keys only: an input named `valueOf` or `constructor` is not a schema.
    const schema = Object.hasOwn(schemas, arg) ? schemas[arg] : undefined;
    if (!schema) {
      failures.push({ property: arg === "" ? '""' : arg, reason: `is not an argument of ${resource}` });
      continue;
    }
    if (isUnknown(value)) {
      values[arg] = value;
      continue;
    }
    const result = schema.safeParse(value);
    if (result.success) {
      if (result.data !== undefined) values[arg] = result.data;
    } else {
      failures.push(...result.error.issues.map((issue) => issueFailure(arg, issue)));
    }
  }
  return { values, failures };
}

function issueFailure(arg: string, issue: z.core.$ZodIssue): CheckFailure {
  const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  return { property: `${arg}${path}`.replace(/\.\[/g, "["), reason: issue.message };
}

/** A whole number at least `min`, also written as a numeric string (as services read it). */
export function wholeNumber(min: number) {
  const notWhole = { error: "must be a whole number" };
  return z
    .union([z.number(), z.string().regex(/^\s*-?\d+\s*$/, notWhole)], notWhole)
    .transform(Number)
    .pipe(
      z
        .number()
        .int(notWhole)
        .min(min, { error: `must be at least ${min}` })
        .max(Number.MAX_SAFE_INTEGER, { error: "is too large" }),
    );
}

export function nonEmptyString(what = "a string") {
  return z.string({ error: `must be ${what}` }).min(1, { error: "must not be empty" });
}

/**
 * `.` and `..` are not names: as a path segment they mean "here" and "the parent", which a URL, a proxy or the
 * service resolves to another path than the object's.
 */
export function notDotSegment(value: string): boolean {
  return value !== "." && value !== "..";
}

export const DOT_SEGMENT_REASON = 'must not be "." or "..": as a path segment they mean "here" and "the parent", not a name';

export function bool() {
  return z.boolean({ error: "must be true or false" });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: (issue) => `must be one of ${values.map((v) => `"${v}"`).join(", ")}, got ${refused(issue.input)}` });
}

/**
 * A refused value as a message quotes it. The message carries it itself: for a nested argument
 * (`global.stages[1]`) the engine finds no value to print beside the failure (it shows `value {<nil>}`).
 */
export function refused(input: unknown): string {
  return input === undefined ? "nothing" : (JSON.stringify(input) ?? String(input));
}

/**
 * A schema that lets unknown (preview) values through untouched, anywhere inside the value, and validates
 * everything else with `schema`. For nested arguments, where `validateArgs`' top-level skip does not reach.
 */
export function orUnknown<T extends z.ZodType>(schema: T) {
  return z.unknown().transform((value, ctx) => {
    if (containsUnknown(value)) return value;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  });
}
