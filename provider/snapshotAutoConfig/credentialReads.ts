import type { SnapshotConfigWire, SnapshotEndpoints } from "../services/snapshot/endpoints";
import type { FieldTable } from "../table/field";
import { secretArgs } from "../table/derived";
import { snapshotAutoConfigTable } from "./fields";

type Props = Record<string, unknown>;
const fields = snapshotAutoConfigTable.fields as FieldTable;

/**
 * Which credentials this service leaves out of its reads, as the state keeps it. The spec's read shape does not
 * settle whether a read shows them, and services differ per credential: some show every one, some none, some a
 * placeholder, some the identifiers (an access key id) and not the secrets. A read alone cannot tell a credential
 * hidden from one removed outside Pulumi; the read that follows a write of it can, since what was just written and is
 * not shown is hidden. So each write is followed by a read (`hiddenAfterWrite`), and what it leaves out is kept here,
 * by argument name: later reads then take a credential left out as kept when it is hidden, and as removed when the
 * service shows it. It appears only where a credential is set (`withHiddenCredentials`), and an engine does not show
 * keys that begin with `__`; the diff does not compare it.
 */
export const HIDDEN_CREDENTIALS = "__hiddenCredentials";

/** The credential arguments (the secret ones: an access key id, a secret key, a session token, an account key). */
export const CREDENTIAL_ARGS: readonly string[] = secretArgs(fields);

/** The credential arguments a state holds a value of. */
function credentialsSet(state: Props): string[] {
  return CREDENTIAL_ARGS.filter((arg) => typeof state[arg] === "string" && state[arg] !== "");
}

/**
 * The credentials the state says this service hides; undefined where it does not say (a state written before this
 * was learned, an import, or a write whose read failed): then a read is judged as before (`fromWire`'s rule).
 */
export function hiddenCredentialsOf(props: Props): ReadonlySet<string> | undefined {
  const kept = props[HIDDEN_CREDENTIALS];
  if (!Array.isArray(kept)) return undefined;
  return new Set(kept.filter((arg): arg is string => typeof arg === "string" && CREDENTIAL_ARGS.includes(arg)));
}

/**
 * The credentials of `written` that the service's read right after the write (`readBack`) leaves out or blanks: it
 * hides them. One it shows, as a value or a placeholder, is shown.
 */
export function hiddenIn(written: Props, readBack: SnapshotConfigWire): string[] {
  return credentialsSet(written).filter((arg) => !shows(readBack, arg));
}

/**
 * The state a write leaves, with what the service's read of it right after shows of its credentials: the one request
 * that can tell a hidden credential from one removed, made only where a credential is set. A read that fails, or
 * finds nothing (a service whose reads lag behind its writes), teaches nothing: the state then says nothing of them.
 */
export async function afterWrite<T extends Props>(
  api: SnapshotEndpoints,
  name: string,
  state: T,
  secrets: string[],
  /** The read a write made already, right after it (an adopt's), which is not made again. */
  readBack?: SnapshotConfigWire,
): Promise<T> {
  if (credentialsSet(state).length === 0) return state;
  if (readBack === undefined) {
    try {
      readBack = await api.readConfig(name, secrets);
    } catch {
      return state;
    }
  }
  return readBack ? withHiddenCredentials(state, hiddenIn(state, readBack)) : state;
}

/**
 * After a read: what the state knew, less the credentials this read shows (a service may come to show what it hid);
 * undefined stays undefined.
 */
export function hiddenAfterRead(known: ReadonlySet<string> | undefined, wire: SnapshotConfigWire): string[] | undefined {
  if (!known) return undefined;
  return [...known].filter((arg) => !shows(wire, arg));
}

/** Whether a read shows a credential: as its value or as a placeholder (`"****"`), not blank, not left out. */
function shows(wire: SnapshotConfigWire, arg: string): boolean {
  const shown = wire[fields[arg].wire!];
  return typeof shown === "string" && shown !== "";
}

/**
 * `state` with what is known of the credentials it holds: the key only where one is set, listing only those set
 * (compact: `[]` where the service shows them all). Without knowledge, the state as it is.
 */
export function withHiddenCredentials<T extends Props>(state: T, hidden: readonly string[] | undefined): T {
  const set = credentialsSet(state);
  if (hidden === undefined || set.length === 0) return state;
  return { ...state, [HIDDEN_CREDENTIALS]: set.filter((arg) => hidden.includes(arg)) };
}

/** The state without what it keeps of the service's ways: the inputs a program would write. */
export function withoutHiddenCredentials<T extends Props>(state: T): T {
  const { [HIDDEN_CREDENTIALS]: _known, ...rest } = state;
  return rest as T;
}
