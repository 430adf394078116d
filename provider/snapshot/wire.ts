import { COMMON_FIELDS, STORAGE_FIELDS, STORAGE_TYPES, type FieldSpec, type StorageType } from "./fields";
import type { SnapshotAutoConfigState, SnapshotConfigWire } from "./types";

function fieldsOf(storageType: StorageType): readonly FieldSpec[] {
  return [...COMMON_FIELDS, ...STORAGE_FIELDS[storageType]];
}

/** The POST body: the common fields and those of the selected storage type, nothing else. */
export function toWire(state: SnapshotAutoConfigState): SnapshotConfigWire {
  const body: SnapshotConfigWire = {};
  for (const f of fieldsOf(state.storageType)) {
    const value = state[f.arg];
    if (value !== undefined) body[f.wire] = value;
  }
  return body;
}

/**
 * Credential values in the state, to be redacted from anything reported about a call that carries them. A
 * credential that is a JSON document (a service account key) also gives its own secret members, which a
 * service may quote on their own ("invalid private_key: ...").
 */
export function secretValues(state: Record<string, unknown>): string[] {
  const type = state.storageType as StorageType;
  const fields = STORAGE_TYPES.includes(type) ? STORAGE_FIELDS[type] : [];
  const values = fields.filter((f) => f.secret && typeof state[f.arg] === "string").map((f) => state[f.arg] as string);
  return [...values, ...values.flatMap(secretMembers)];
}

const SECRET_MEMBERS = ["private_key", "private_key_id"];

function secretMembers(value: string): string[] {
  if (!value.trimStart().startsWith("{")) return [];
  try {
    const doc = JSON.parse(value) as Record<string, unknown>;
    return SECRET_MEMBERS.map((k) => doc?.[k]).filter((v): v is string => typeof v === "string");
  } catch {
    return [];
  }
}

/**
 * The state for what the service returned. Credentials the service does not echo keep their prior value (the
 * service may omit them); zero values (`""`, `false`, `0`) of fields that were never set stay unset, so a
 * service that echoes defaults does not produce a diff against a program that leaves them out.
 */
export function fromWire(name: string, wire: SnapshotConfigWire, prior: Record<string, unknown>): SnapshotAutoConfigState {
  const storageType = (STORAGE_TYPES as readonly string[]).includes(String(wire.storage_type))
    ? (wire.storage_type as StorageType)
    : (prior.storageType as StorageType);
  const state: Record<string, unknown> = { name };
  for (const f of fieldsOf(storageType)) {
    const value = coerce(f, wire[f.wire]);
    const priorValue = prior[f.arg];
    if (value === undefined || (f.secret && value === "")) {
      if (f.secret && priorValue !== undefined) state[f.arg] = priorValue;
      continue;
    }
    if (isZero(value) && priorValue === undefined && !f.required) continue;
    state[f.arg] = value;
  }
  state.storageType = storageType;
  if (prior.adopt !== undefined) state.adopt = prior.adopt;
  return state as SnapshotAutoConfigState;
}

/** Services built on loose JSON may send numbers as strings and booleans as "true"/"false". */
function coerce(f: FieldSpec, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (f.kind === "integer" && typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  if (f.kind === "boolean" && (value === "true" || value === "false")) return value === "true";
  if (f.kind === "string" && typeof value !== "string") return undefined;
  return value;
}

function isZero(value: unknown): boolean {
  return value === "" || value === false || value === 0;
}
