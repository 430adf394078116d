import { toPlainJson } from "../common/plainJson";
import { messageOf, SnapshotRunTaskError } from "../common/errors";
import { codeOf, PartialFailure, withProviderText } from "../common/partialFailure";
import { mayHaveBeenCarriedOut, ServiceError } from "../http/serviceError";
import type { SnapshotConfigWire, SnapshotEndpoints } from "../services/snapshot/endpoints";
import { diffSnapshotAutoConfigDetail } from "./fields";
import { credentialsShownAsGiven, credentialsUnread, fromWire, toWire, withoutMasked, type SnapshotAutoConfigState } from "./wire";
import { writePlan } from "./writePlan";
import { CREDENTIAL_ARGS } from "./credentialReads";

type Props = Record<string, unknown>;

/**
 * The write sequences of a configuration, each safe whichever request fails (docs/design.md, "Operations of
 * several requests"): nothing the state claims is left deleted, nothing written is left unrecorded.
 */
export interface Writing {
  api: SnapshotEndpoints;
  /** The configuration the program wants. */
  state: SnapshotAutoConfigState;
  /** Values to redact from anything reported. */
  secrets: string[];
  /** The call's inputs (the dynamic provider's provider text goes with what a partial failure records). */
  inputs: Props;
}

/**
 * A create: one POST. When it fails in a way that may have been carried out (no answer, a 5xx), a read tells
 * whether the configuration is there now; if so it is recorded (a partial failure), so that the next `up` is not
 * refused "already exists" by the create's own object.
 */
export async function create(w: Writing): Promise<void> {
  try {
    await w.api.writeConfig(w.state.name, toWire(w.state), w.secrets);
  } catch (err) {
    throw await afterFailedPost(w, err, (held) => held !== undefined);
  }
}

/** What an adopt does with the credentials no read showed, as its notice says. */
export const UNREAD_CREDENTIALS_LEFT =
  "a service that keeps what a write leaves out keeps them, one that replaces a configuration with each write drops them " +
  "(set them in the program to keep them)";

/**
 * An adopt: the configuration the service holds becomes the program's, and what it held is never deleted, nor is
 * anything changed that a read did not show. Where a read shows nothing to change, and the program gives no
 * credential the read left out, nothing is written. Otherwise the program's configuration goes in one POST, clearing
 * what the read showed that the program does not set; credentials the read left out, blanked or masked are neither
 * cleared nor sent (nobody could have read them to copy them into the program). A failure of that POST leaves the
 * configuration as it was. Only where a POST cannot clear what was there (a storage-type switch, a setting with no
 * value meaning unset, on a service that merges writes) is the configuration, by then the program's own, deleted and
 * written afresh; if that fails, the program's is written back, and the object is recorded either way (a partial
 * failure), so that the next `up` finishes the job (`unfinishedRewrite`). A delete that would drop credentials of
 * the program's storage type that no read showed is refused instead. Then a read must show the program's
 * configuration: success is claimed only once the service holds it. Answers that read (or, where nothing was
 * written, the adopt's own).
 */
export async function adopt(w: Writing, held: SnapshotConfigWire): Promise<SnapshotConfigWire> {
  const left = credentialsUnread(held, w.state.storageType).filter((arg) => (w.state as Props)[arg] === undefined);
  // Nothing to write: the read shows every credential the program gives, as it gives it, and the rest as it has it.
  if (credentialsShownAsGiven(w.state, held) && holdsWhatWasSent(w, held)) return held;
  const plan = writePlan(w.state, withoutMasked(held));
  if (plan.rewrite && held.storage_type === w.state.storageType && left.length > 0) {
    throw new SnapshotRunTaskError(
      "conflict",
      `adopt: snapshot configuration "${w.state.name}" must be deleted and written afresh to be the program's (${plan.rewrite}), ` +
        `which would drop ${left.join(", ")}, which no read shows: nothing is changed. Set that setting in the program as the ` +
        "configuration holds it, or give those credentials in the program",
    );
  }
  try {
    await w.api.writeConfig(w.state.name, plan.body, w.secrets);
  } catch (err) {
    throw await afterFailedPost(w, err, (now) => now !== undefined && holdsWhatWasSent(w, now));
  }
  if (plan.rewrite) {
    try {
      await w.api.deleteConfig(w.state.name, w.secrets);
      await w.api.writeConfig(w.state.name, toWire(w.state), w.secrets);
    } catch (err) {
      throw await unfinishedRewrite(w, held, err, `adopted, but writing it afresh (${plan.rewrite}) failed`);
    }
  }
  return requireHeld(w, "adopted");
}

/**
 * A read after a write that took an object over: the service must hold the program's configuration (then the read is
 * returned, for what it shows of the credentials). Otherwise the object is recorded as the service holds it (a partial
 * failure), so that the next `up` writes it again.
 */
async function requireHeld(w: Writing, what: string): Promise<SnapshotConfigWire> {
  const now = await w.api.readConfig(w.state.name, w.secrets);
  if (now !== undefined && holdsWhatWasSent(w, now)) return now;
  const name = `snapshot configuration "${w.state.name}"`;
  const failure = new SnapshotRunTaskError(
    "unexpected_answer",
    now === undefined
      ? `${name} was ${what}, but a read finds no such configuration afterwards`
      : `${name} was ${what}, but a read afterwards does not show the program's configuration`,
  );
  const properties = now === undefined ? outputs(w.state) : outputs(fromWire(w.state.name, now, w.state));
  throw recorded(w, properties, failure, "it is recorded as the service holds it, and the next `pulumi up` writes it again");
}

/**
 * An adopt's rewrite failed, after its first POST made the configuration the program's, as far as a POST can.
 * The program's is written back; then what the service holds decides what is recorded. The program's configuration
 * where a read shows it and nothing a POST cannot clear; otherwise (a service that merges writes still holds what
 * the DELETE was to remove, say the old storage type's credentials, or the read fails) the configuration as the
 * adopt found it, so that the state names the rewrite as still to do: the next `up` updates it from there, and
 * that update deletes and writes it afresh. Recording the program's there would leave those settings in place for
 * good, since later updates plan against the state.
 */
async function unfinishedRewrite(w: Writing, found: SnapshotConfigWire, err: unknown, what: string): Promise<Error> {
  const name = `snapshot configuration "${w.state.name}"`;
  let wroteBack = "the program's configuration was written back";
  try {
    await w.api.writeConfig(w.state.name, toWire(w.state), w.secrets);
  } catch (again) {
    wroteBack = `writing the program's configuration back failed too (${messageOf(again)}), so it may be absent from the service`;
  }
  const now = await readOrUndefined(w);
  if (holdsWhatWasSent(w, now) && !writePlan(w.state, now).rewrite) {
    return recorded(w, outputs(w.state), err, `${name} was ${what}; ${wroteBack} and is recorded: the next \`pulumi up\` writes it again`);
  }
  const before = outputs(fromWire(w.state.name, found, w.state));
  return recorded(
    w,
    before,
    err,
    `${name} was ${what}; ${wroteBack}, but the service may still hold settings a write cannot clear. It is recorded as the adopt ` +
      "found it, so that the next `pulumi up` deletes it and writes the program's configuration afresh",
  );
}

/**
 * An update from `old`, the state's last write. Usually one POST (clearing what the program no longer sets), a
 * failure of which leaves the old or the new configuration: when it may have been carried out, a read tells which,
 * and the new one is recorded. Where a POST cannot clear what `old` holds (a storage-type switch, a setting with
 * no value meaning unset), DELETE then POST; if the DELETE may have been carried out and the new configuration is
 * not written, the previous one is written back, and failing that too, the object is recorded as it was with the
 * failure (a partial failure), so that the next `up` writes it, whatever its diff.
 */
export async function update(w: Writing, old: SnapshotAutoConfigState): Promise<void> {
  const plan = writePlan(w.state, toWire(old));
  if (plan.rewrite) return rewrite(w, old, plan.body, plan.rewrite);
  try {
    await w.api.writeConfig(w.state.name, plan.body, w.secrets);
  } catch (err) {
    throw await afterFailedPost(w, err, (now) => now !== undefined && holdsWhatWasSent(w, now));
  }
}

async function rewrite(w: Writing, old: SnapshotAutoConfigState, body: SnapshotConfigWire, why: string): Promise<void> {
  try {
    await w.api.deleteConfig(w.state.name, w.secrets);
  } catch (err) {
    if (!mayHaveBeenCarriedOut(err)) throw err;
    throw await writtenBack(w, { wire: toWire(old), outputs: outputs(old) }, err, `to be deleted and written afresh (${why}), and the DELETE failed`);
  }
  try {
    await w.api.writeConfig(w.state.name, body, w.secrets);
  } catch (err) {
    if (mayHaveBeenCarriedOut(err) && holdsWhatWasSent(w, await readOrUndefined(w))) throw recorded(w, outputs(w.state), err, recordedNote);
    throw await writtenBack(w, { wire: toWire(old), outputs: outputs(old) }, err, `deleted to be written afresh (${why}), and writing it failed`);
  }
}

/**
 * After a failed step of an update, the configuration the state claims (`back`) is written back. Done: the
 * failure stands, saying so (the update changed nothing). Not done: the configuration may be absent, and the
 * object is recorded as `back` with the failure, so that the next `up` writes it whatever its diff.
 */
async function writtenBack(w: Writing, back: { wire: SnapshotConfigWire; outputs: Props }, err: unknown, what: string): Promise<Error> {
  const name = `snapshot configuration "${w.state.name}"`;
  try {
    await w.api.writeConfig(w.state.name, back.wire, w.secrets);
  } catch (again) {
    return recorded(
      w,
      back.outputs,
      err,
      `${name} was ${what}; writing it back failed too (${messageOf(again)}), so it may be absent from the service. The state keeps ` +
        "it with this error: the next `pulumi up` writes it again (or `pulumi refresh` drops it from the state if it is gone)",
    );
  }
  return withNote(err, `${name} was ${what}; the previous configuration was written back, so the service holds what the state says`);
}

/**
 * After a POST that failed: where it may have been carried out and the service now holds what `made` accepts,
 * the object is recorded (a partial failure); otherwise the failure stands.
 */
async function afterFailedPost(w: Writing, err: unknown, made: (held: SnapshotConfigWire | undefined) => boolean): Promise<Error> {
  if (!mayHaveBeenCarriedOut(err)) return err as Error;
  let held: SnapshotConfigWire | undefined;
  try {
    held = await w.api.readConfig(w.state.name, w.secrets);
  } catch {
    return err as Error;
  }
  return made(held) ? recorded(w, outputs(w.state), err, recordedNote) : (err as Error);
}

const recordedNote =
  "the service holds the configuration as written, though the call failed; it is recorded, and the next `pulumi up` writes it again";

/** A partial failure: the object recorded with `properties`, the failure and what it means as the reason. */
function recorded(w: Writing, properties: Props, err: unknown, note: string): PartialFailure {
  return new PartialFailure(codeOf(err), `${messageOf(err)}; ${note}`, w.state.name, withProviderText(properties, w.inputs), { cause: err });
}

/**
 * Whether the service holds, by the provider's reading, what the program wants. Read right after it was sent, a
 * credential left out or blanked is one the service hides, not one removed (credentialReads.ts).
 */
function holdsWhatWasSent(w: Writing, held: SnapshotConfigWire | undefined): boolean {
  return held !== undefined && !diffSnapshotAutoConfigDetail(fromWire(w.state.name, held, w.state, JUST_SENT), w.state).changes;
}

const JUST_SENT: ReadonlySet<string> = new Set(CREDENTIAL_ARGS);

async function readOrUndefined(w: Writing): Promise<SnapshotConfigWire | undefined> {
  try {
    return await w.api.readConfig(w.state.name, w.secrets);
  } catch {
    return undefined;
  }
}

function outputs(state: SnapshotAutoConfigState): Props {
  return toPlainJson(state) as Props;
}

/** The failure, with what it left said after it. */
function withNote(err: unknown, note: string): Error {
  if (err instanceof ServiceError) return err.with({ advice: err.advice ? `${err.advice}; ${note}` : note });
  return new SnapshotRunTaskError(codeOf(err), `${messageOf(err)}; ${note}`, { cause: err });
}
