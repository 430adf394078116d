/**
 * A validation schema (a zod schema), typed by its shape: the declarations of the package, which programs compile,
 * then name nothing of zod (whose own declarations need `esModuleInterop`, which Pulumi's templates leave off).
 */
export interface ArgSchema {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

/**
 * One line of a resource's field table: everything about an argument (or output) in one place. Checks, diffs,
 * the wire mapping both ways, secrets, SDK output keys, the README's argument tables and the Pulumi schema of
 * the provider plugins are derived from these lines, never written again elsewhere.
 */
export interface Field {
  /** The value as state and outputs hold it (after `check`'s normalisation). */
  value: ValueType;
  /** What the argument accepts, where it is wider than `value` (an interval as seconds or as "24h"). */
  input?: ValueType;
  /** Validation (and normalisation) of a present argument; a `ValueType` default is used when absent. */
  schema?: ArgSchema;
  /** The name on the wire. Absent for what never reaches the service as an attribute (`adopt`, path segments). */
  wire?: string;
  /** Required argument. With `group`, required when that group is selected. */
  required?: true;
  /** Filled in by `check` (and in old states) when the argument is absent. */
  default?: Default;
  /** What a change of the argument does to the remote object. */
  onChange: OnChange;
  /**
   * Part of the object's identity on the service (what names it: a configuration's name, a task's organization and
   * name, an association's workspace and task). A replacement that keeps every identity field makes an object the
   * service cannot hold beside the old one, so the old one is deleted first (the diff's `deleteBeforeReplace`).
   */
  identity?: true;
  /** Kept secret in state and outputs, and redacted from errors. */
  secret?: true;
  /** Never returned by the service: the state keeps the last applied value and it is sent only when it changes. */
  writeOnly?: true;
  /** Set by the service; not an argument. */
  output?: true;
  /** The parameter group (storage type) the argument belongs to; other groups' arguments are refused. */
  group?: string;
  /** A deprecated alias of another argument, which carries the meaning (and the diff); `as` maps its value. */
  alias?: { of: string; as: (value: unknown) => unknown };
  /** Equality for the diff, where a field's meaning is not plain JSON equality. */
  same?: (old: unknown, next: unknown) => boolean;
  /** Brings an old state's value to the checked form (`"24h"` stored by an older version becomes 86400). */
  normalise?: (value: unknown) => unknown;
}

export type OnChange = "update" | "replace" | "none";

/**
 * A default value, or one taken from the call's context (the resource's name, a provider setting); `missing` is
 * the reason given when the context has none either.
 */
export type Default = { value: Json } | { from: ContextKey; missing?: string };

/** What a check knows beyond the arguments: the Pulumi resource's name, the provider's settings. */
export type ContextKey = "resourceName" | "organization";

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export type ValueType =
  | { type: "string"; enum?: readonly string[] }
  | { type: "integer" }
  | { type: "boolean" }
  | { type: "array"; items: ValueType }
  | { type: "object"; name: string; fields: FieldTable }
  | { type: "oneOf"; of: readonly ValueType[] };

export type FieldTable = Readonly<Record<string, Field>>;

/** A table of a resource: its fields and how the resource is named. */
export interface ResourceTable<F extends FieldTable = FieldTable> {
  /** The resource's name in messages and types (`RunTask`). */
  resource: string;
  fields: F;
}

export function defineTable<const F extends FieldTable>(resource: string, fields: F): ResourceTable<F> {
  return { resource, fields };
}

/** Value type shorthands for table lines. */
export const t = {
  string: { type: "string" } as const,
  integer: { type: "integer" } as const,
  boolean: { type: "boolean" } as const,
  oneOfStrings: <const V extends readonly string[]>(values: V) => ({ type: "string", enum: values }) as const,
  list: <const I extends ValueType>(items: I) => ({ type: "array", items }) as const,
  object: <const F extends FieldTable>(name: string, fields: F) => ({ type: "object", name, fields }) as const,
};

/** A static default, its type kept (the read side's types know the field is always there). */
export function value<const V extends Json>(v: V): { value: V } {
  return { value: v };
}
