import type { Field, FieldTable, ValueType } from "./field";

type Props = Record<string, unknown>;

export interface WireOptions {
  /** The selected parameter group: fields of other groups are left out. */
  group?: string;
  /**
   * Of the secrets, those this service is known to leave out of its reads (or blank): learned from the read that
   * follows a write of theirs, where one absent can only be hidden. Where it is given, a secret read absent or blank
   * keeps the prior value when it is one of these, and is none otherwise (removed outside). Undefined: not known.
   */
  hiddenSecrets?: ReadonlySet<string>;
}

function onWire(field: Field, options: WireOptions): field is Field & { wire: string } {
  return field.wire !== undefined && !field.output && (field.group === undefined || field.group === options.group);
}

/** The attributes to send for `values` (argument names), by wire name; absent values stay absent. */
export function toWire(fields: FieldTable, values: Props, options: WireOptions = {}): Props {
  const out: Props = {};
  for (const [arg, field] of Object.entries(fields)) {
    const value = values[arg];
    if (!onWire(field, options) || value === undefined) continue;
    out[field.wire] = field.value.type === "object" && isObject(value) ? toWire(field.value.fields, value) : value;
  }
  return out;
}

/**
 * The state for what the service reports, from its wire attributes and the prior state:
 * - a write-only value keeps its prior value; so does a secret the service masks (`isMasked`: a placeholder is no
 *   value, to be stored or written back), which stays unset without one;
 * - a secret the service leaves out or blanks keeps its prior value where the service is known to hide it
 *   (`hiddenSecrets`), and is held as none where it is known to show it: removed outside, it leaves the state, and
 *   the next `up` writes the program's back. Where neither is known (a state written before it was learned), a
 *   secret blanked, or left out while the read shows secrets at all (a value, a blank or a mask), is none, and one
 *   left out of a read that shows none keeps its value: one read cannot tell a service that hides them from one that
 *   holds none;
 * - an optional field without a default that the service reports with its zero value (`""`, `false`, `0`) stays
 *   unset when it was unset, so a service that echoes zero values causes no diff against a program without them;
 * - loose renderings are read as their type (`"true"`, `"42"`).
 * Only fields with a wire name are read; the caller adds the others (path segments, relationships).
 */
export function fromWire(fields: FieldTable, wire: Props, prior: Props, options: WireOptions = {}): Props {
  const state: Props = {};
  const showsSecrets = Object.values(fields).some((f) => onWire(f, options) && f.secret && !f.writeOnly && f.wire && wire[f.wire] != null);
  for (const [arg, field] of Object.entries(fields)) {
    if (!onWire(field, options)) continue;
    const priorValue = prior[arg];
    const raw = field.writeOnly ? undefined : wire[field.wire];
    const value =
      field.value.type === "object" && isObject(raw)
        ? fromWire(field.value.fields, raw, isObject(priorValue) ? priorValue : {})
        : read(field.value, raw);
    const hidden = options.hiddenSecrets ? options.hiddenSecrets.has(arg) : value === undefined && !showsSecrets;
    const keep = field.writeOnly || (field.secret && (isMasked(value) || hidden));
    if (value === undefined || (field.secret && (value === "" || isMasked(value)))) {
      if (keep && priorValue !== undefined) state[arg] = priorValue;
      continue;
    }
    if (isZero(value) && priorValue === undefined && !field.required && !field.default) continue;
    state[arg] = value;
  }
  return state;
}

/** A wire value read as `type`; undefined when absent or of another type. */
export function read(type: ValueType, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  switch (type.type) {
    case "string":
      return typeof value === "string" ? value : undefined;
    case "integer":
      if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
      return typeof value === "number" && Number.isInteger(value) ? value : undefined;
    case "boolean":
      if (value === "true" || value === "false") return value === "true";
      return typeof value === "boolean" ? value : undefined;
    case "array":
      if (!Array.isArray(value)) return undefined;
      return value.map((v) => read(type.items, v)).filter((v) => v !== undefined);
    case "object":
      return isObject(value) ? value : undefined;
    case "oneOf":
      return type.of.map((t) => read(t, value)).find((v) => v !== undefined);
  }
}

/**
 * Whether a secret read back is a placeholder for it (`"****"`, `"AKIA****WXYZ"`, `"••••"`): it holds a run of mask
 * characters, which no credential of these services does (access keys, tokens, base64 text, JSON documents).
 */
export function isMasked(value: unknown): boolean {
  return typeof value === "string" && /[*\u2022]{3,}/.test(value);
}

function isZero(value: unknown): boolean {
  return value === "" || value === false || value === 0;
}

function isObject(value: unknown): value is Props {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
