import type { SnapshotConfigWire } from "../services/snapshot/endpoints";
import type { Field, FieldTable } from "../table/field";
import { snapshotAutoConfigTable } from "./fields";
import { toWire, type SnapshotAutoConfigState } from "./wire";

const { fields } = snapshotAutoConfigTable;

/** How to bring a configuration the service holds to the program's: the POST body, and whether to rewrite it. */
export interface WritePlan {
  body: SnapshotConfigWire;
  /**
   * Why the configuration must be deleted and written afresh (a POST cannot clear what it holds), or undefined
   * when the POST alone makes it the program's.
   */
  rewrite?: string;
}

/**
 * The spec says POST "creates the named configuration or updates it if it exists", not that keys it leaves out
 * are cleared: a service may merge. So that no setting the program no longer has can stay behind on one that
 * does, whatever it holds (`held`: the state's last write, or what an adopted configuration holds) is cleared:
 * - a key of the selected storage type that the program no longer sets is sent with the value that means unset
 *   (`""` for a string, `false` for a switch), in the same POST; so is each argument of `unseen` the body leaves
 *   out (credentials a service that masks them never shows in a read);
 * - where a key has no such value (an enumeration such as `cloudB_auth_mode`), or another storage type's keys
 *   are held (a storage type switch), the configuration must be deleted and written afresh (`rewrite`). Who
 *   writes it decides the order and what is written back when a step fails (`writes.ts`).
 */
export function writePlan(desired: SnapshotAutoConfigState, held: SnapshotConfigWire | undefined, unseen: readonly string[] = []): WritePlan {
  const body = toWire(desired);
  for (const arg of unseen) {
    const field = (fields as FieldTable)[arg];
    if (field?.wire && field.group === desired.storageType && body[field.wire] === undefined) body[field.wire] = unsetValue(field);
  }
  if (held === undefined) return { body };
  if (held.storage_type !== undefined && held.storage_type !== desired.storageType) {
    return { body, rewrite: `its storage type changes from ${String(held.storage_type)} to ${desired.storageType}` };
  }
  for (const [wire, value] of Object.entries(held)) {
    const field = byWire.get(wire);
    // Common keys are always sent; keys no field names (a server's own) are not settings of the program's.
    if (!field || field.group === undefined || isUnset(value) || body[wire] !== undefined) continue;
    const clear = field.group === desired.storageType ? unsetValue(field) : undefined;
    if (clear === undefined) return { body, rewrite: `${wire} has no value that means unset` };
    body[wire] = clear;
  }
  return { body };
}

const byWire = new Map(Object.values(fields as FieldTable).flatMap((f) => (f.wire ? [[f.wire, f] as const] : [])));

/** The value that means "not set" for a field: empty text, a switch off; none for an enumeration or a number. */
function unsetValue(field: Field): string | boolean | undefined {
  const type = field.value;
  if (type.type === "string" && !type.enum) return "";
  if (type.type === "boolean") return false;
  return undefined;
}

function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === "" || value === false;
}
