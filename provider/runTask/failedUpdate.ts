import { messageOf } from "../common/errors";
import { codeOf, PartialFailure, withProviderText } from "../common/partialFailure";
import { toPlainJson } from "../common/plainJson";
import { mayHaveBeenCarriedOut } from "../http/serviceError";
import type { RunTaskEndpoints } from "../services/runtask/endpoints";
import { diffRunTaskDetail } from "./fields";
import { taskFromWire, type RunTaskState, type TaskWrite } from "./wire";

/** What a RunTask update tried: the task, its state before, the program's, what was sent, and the call's inputs. */
export interface TaskUpdate {
  id: string;
  old: RunTaskState;
  state: RunTaskState;
  write: TaskWrite;
  inputs: Record<string, unknown>;
}

/**
 * A PATCH whose outcome is unknown after every retry (no answer, a server failure, a success answered with no
 * document) may have been carried out, and then a state that keeps the old settings is wrong both ways: a program
 * reverted to them diffs as "no change", and the service keeps the new values, the HMAC key among them, for good. A read tells what the service holds:
 * - the program's settings (the global ones aside where the organization reports none): the task is recorded as
 *   read, with the failure (a partial failure), so that the next `up` writes the program's values whatever its
 *   diff. The HMAC key, which no read returns, is recorded as sent where the read proves the PATCH carried out (it
 *   changed something a read shows); otherwise as "", a key no program gives, so that the next update sends the
 *   program's key (or clears it) whatever it is;
 * - the old settings (the PATCH was not carried out), or no answer: the failure stands, and the state keeps the old;
 * - settings that are neither (changed outside meanwhile): recorded as read, as above, the key as still to be written.
 */
export async function afterFailedPatch(api: RunTaskEndpoints, update: TaskUpdate, err: unknown): Promise<Error> {
  if (!mayHaveBeenCarriedOut(err)) return err as Error;
  const { id, old, state, write, inputs } = update;
  let found: Awaited<ReturnType<RunTaskEndpoints["showTaskWithGlobal"]>>;
  try {
    found = await api.showTaskWithGlobal(id, state.organization);
  } catch {
    return err as Error;
  }
  if (!found) return err as Error;
  // The global settings as the service reports them, none where it reports none (not the program's).
  const held = taskFromWire(found.task, { ...state, global: undefined });
  const reported = (s: RunTaskState) => (held.global === undefined ? { ...s, global: undefined } : s);
  const isProgram = readableChanges(held, reported(state)).length === 0;
  // The old settings: the PATCH was not carried out, and the state says what the service holds.
  if (!isProgram && readableChanges(held, reported(old)).length === 0) return err as Error;
  const proven = isProgram && readableChanges(old, reported(state)).length > 0;
  const hmacKey = write.hmacKey === undefined || proven ? state.hmacKey : "";
  const properties = withProviderText(toPlainJson({ ...held, hmacKey, taskId: id }) as Record<string, unknown>, inputs);
  const key = hmacKey === "" ? " (its HMAC key, which no read shows, as still to be written)" : "";
  const message =
    `${messageOf(err)}; whether the update was carried out is unknown, and a read shows the task with ` +
    `${isProgram ? "the program's settings" : "other settings than the state's"}: it is recorded as the service holds it${key}, and the ` +
    "next `pulumi up` writes the program's values";
  return new PartialFailure(codeOf(err), message, id, properties, { cause: err });
}

/** The arguments a read shows that differ between a task's state and the program's. */
function readableChanges(state: RunTaskState, program: RunTaskState): string[] {
  return diffRunTaskDetail(state, program).changed.filter((key) => key !== "hmacKey");
}
