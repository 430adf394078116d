import type { SnapshotConfigWire } from "../services/snapshot/endpoints";
import { secretArgs } from "../table/derived";
import type { FieldTable } from "../table/field";
import type { StateOf } from "../table/types";
import { fromWire as fieldsFromWire, isMasked, toWire as fieldsToWire } from "../table/wire";
import { snapshotAutoConfigTable, STORAGE_TYPES, type StorageType } from "./fields";

type Props = Record<string, unknown>;
const { fields } = snapshotAutoConfigTable;

/** A configuration as the provider keeps it: the checked arguments (interval in seconds, defaults filled). */
export type SnapshotAutoConfigState = StateOf<typeof snapshotAutoConfigTable> & { name: string; storageType: StorageType };

/** The POST body: the common fields and those of the selected storage type, nothing else. */
export function toWire(state: SnapshotAutoConfigState): SnapshotConfigWire {
  return fieldsToWire(fields, state, { group: state.storageType });
}

/**
 * The state for what the service returned (see the table's read rules: credentials the service hides keep their prior
 * value, `hiddenCredentials` saying which, where known; zero values of fields never set stay unset). The name and
 * `adopt` are not on the wire.
 */
export function fromWire(name: string, wire: SnapshotConfigWire, prior: Props, hiddenCredentials?: ReadonlySet<string>): SnapshotAutoConfigState {
  const reported = String(wire.storage_type);
  const storageType = isStorageType(reported) ? reported : (prior.storageType as StorageType);
  const read = fieldsFromWire(fields, wire, prior, { group: storageType, hiddenSecrets: hiddenCredentials });
  const state: SnapshotAutoConfigState = { name, storageType, ...read };
  state.storageType = storageType;
  if (prior.adopt !== undefined) state.adopt = prior.adopt === true;
  return state;
}

function isStorageType(value: string): value is StorageType {
  return (STORAGE_TYPES as readonly string[]).includes(value);
}

const SECRET_ARGS = secretArgs(fields);

/** The credential arguments of a storage type. */
export function credentialArgsOf(storageType: string): string[] {
  return SECRET_ARGS.filter((arg) => (fields as FieldTable)[arg].group === storageType);
}

/**
 * The credential arguments of the storage type whose values a read did not show: those it masks, and, where it shows
 * none at all (a service that hides credentials, or a configuration that holds none: one read cannot tell), every one.
 * Nobody could have copied these into a program. Where a read shows credentials, one it leaves out or blanks is none.
 */
export function credentialsUnread(wire: SnapshotConfigWire, storageType: string): string[] {
  const args = credentialArgsOf(storageType);
  const valueOf = (arg: string) => wire[(fields as FieldTable)[arg].wire ?? arg];
  if (!args.some((arg) => valueOf(arg) != null)) return args;
  return args.filter((arg) => isMasked(valueOf(arg)));
}

/** Whether a read shows each credential the state gives, with the state's value. */
export function credentialsShownAsGiven(state: SnapshotAutoConfigState, wire: SnapshotConfigWire): boolean {
  return credentialArgsOf(state.storageType).every((arg) => {
    const given = (state as Props)[arg];
    return given === undefined || wire[(fields as FieldTable)[arg].wire ?? arg] === given;
  });
}

/** What a read showed, without the values it masked (a placeholder is no value, to be cleared or kept). */
export function withoutMasked(wire: SnapshotConfigWire): SnapshotConfigWire {
  return Object.fromEntries(Object.entries(wire).filter(([, value]) => !isMasked(value)));
}
/** Members of a JSON credential (a service account key) that a service may quote on their own. */
const SECRET_MEMBERS = ["private_key", "private_key_id"];

/** Credential values in the state, to be redacted from anything reported about a call that carries them. */
export function secretValues(state: Props): string[] {
  const values = SECRET_ARGS.map((arg) => state[arg]).filter((v): v is string => typeof v === "string");
  return [...values, ...values.flatMap(secretMembers)];
}

function secretMembers(value: string): string[] {
  if (!value.trimStart().startsWith("{")) return [];
  try {
    const doc = JSON.parse(value) as Record<string, unknown>;
    return SECRET_MEMBERS.map((k) => doc?.[k]).filter((v): v is string => typeof v === "string");
  } catch {
    return [];
  }
}
