import { DEFAULT_RUNTASK_TOKEN, startEmulator, type Emulator, type FaultKind } from "../../emulator";
import { PartialFailure } from "../../provider/common/partialFailure";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { failure } from "../support/failure";
import { configureProvider } from "../support/providerConfig";
import { checkedInputs } from "../support/checkedInputs";

/**
 * A RunTask update that the service carried out, though the call failed: the provider answers a partial failure
 * with what the service holds, so that the next `up` writes the program's values, a program reverted to the old
 * ones included (its diff against a state that kept the old values would be "no change", and the service would
 * keep the new HMAC key for good). Each test plays the engine: the state after a failure is the partial failure's
 * properties (with init errors, so that the next `up` updates whatever the diff), or the old state.
 */
type Props = Record<string, any>;

const PATCH = "PATCH /api/v2/tasks/:id";
let emulator: Emulator;

/** `fault` on the first `times` PATCHes of a task (two: every attempt, with `maxRetries` 1). */
async function start(fault?: FaultKind, times = 2): Promise<void> {
  emulator = await startEmulator({
    runTask: { organizations: [{ name: "acme" }, { name: "free", globalRunTasks: false }] },
    faults: fault ? { rules: [{ route: PATCH, rates: { [fault]: 1 }, times }] } : undefined,
  });
  configureProvider(
    { "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "acme", "runtask:maxRetries": "1" },
    { retry: { baseDelayMs: 5, maxDelayMs: 20 } },
  );
}
afterEach(() => emulator.close());
afterAll(() => closeSharedDispatchers());

const v1 = { name: "scanner", url: "https://hooks.example.com/v1", hmacKey: "hmac-key-v1" };

/** A task made by the provider with `program`, and its state. */
async function made(program: Props): Promise<{ id: string; state: Props }> {
  const { id, outs } = await tasks.create(await checkedInputs(tasks, program));
  return { id, state: outs };
}

/** The engine's next `up` of `program` after a failed update: the state it kept, updated when it has init errors or a diff. */
async function nextUp(id: string, after: { state: Props; initErrors: boolean }, program: Props): Promise<boolean> {
  const news = await checkedInputs(tasks, program, after.state);
  if (!after.initErrors && !(await tasks.diff(id, after.state, news)).changes) return false;
  await tasks.update(id, after.state, news);
  return true;
}

/** What the engine keeps after an update failed with `err`. */
const kept = (err: unknown, olds: Props) =>
  err instanceof PartialFailure ? { state: err.properties, initErrors: true } : { state: olds, initErrors: false };

const held = (id: string) => emulator.runTask.tasks().find((t) => t.id === id)!;

describe("a RunTask update the service carried out but answered as failed", () => {
  test("global settings unsupported after the PATCH was applied: recorded as the service holds it; a reverted program writes the old values back", async () => {
    await start();
    const program = { ...v1, organization: "free" };
    const { id, state } = await made(program);
    const v2 = { ...program, url: "https://hooks.example.com/v2", hmacKey: "hmac-key-v2", global: { enabled: true } };
    const err = await failure(tasks.update(id, state, await checkedInputs(tasks, v2, state)));
    expect(err).toBeInstanceOf(PartialFailure);
    expect(err.code).toBe("unsupported");
    expect((err as PartialFailure).id).toBe(id);
    expect((err as PartialFailure).properties).toMatchObject({ url: v2.url, hmacKey: v2.hmacKey, taskId: id });
    expect((err as PartialFailure).properties).not.toHaveProperty("global");
    expect(held(id)).toMatchObject({ url: v2.url, hmacKey: v2.hmacKey });

    expect(await nextUp(id, kept(err, state), program)).toBe(true);
    expect(held(id)).toMatchObject({ url: v1.url, hmacKey: v1.hmacKey });
  });

  test("every PATCH answer lost after the service applied it: recorded as a read shows it, with the key sent; a reverted program writes the old values back", async () => {
    await start("dropAfterCommit");
    const { id, state } = await made(v1);
    const v2 = { ...v1, url: "https://hooks.example.com/v2", hmacKey: "hmac-key-v2" };
    const err = await failure(tasks.update(id, state, await checkedInputs(tasks, v2, state)));
    expect(err).toBeInstanceOf(PartialFailure);
    expect(err.code).toBe("network");
    expect((err as PartialFailure).properties).toMatchObject({ url: v2.url, hmacKey: v2.hmacKey, taskId: id });
    expect(held(id)).toMatchObject({ url: v2.url, hmacKey: v2.hmacKey });

    expect(await nextUp(id, kept(err, state), v1)).toBe(true);
    expect(held(id)).toMatchObject({ url: v1.url, hmacKey: v1.hmacKey });
  });

  test("every PATCH answer lost, the key alone changed: no read can tell whether it was written, so the next up writes the program's key", async () => {
    await start("dropAfterCommit");
    const { id, state } = await made(v1);
    const v2 = { ...v1, hmacKey: "hmac-key-v2" };
    const err = await failure(tasks.update(id, state, await checkedInputs(tasks, v2, state)));
    expect(err).toBeInstanceOf(PartialFailure);
    // Recorded as a key no program gives: whatever the program says next differs from it, and is sent.
    expect((err as PartialFailure).properties.hmacKey).toBe("");
    expect(await nextUp(id, kept(err, state), v1)).toBe(true);
    expect(held(id).hmacKey).toBe(v1.hmacKey);
  });

  test("every PATCH lost before the service acted, the key alone changed: the next up writes the program's key", async () => {
    await start("dropBeforeCommit");
    const { id, state } = await made(v1);
    const v2 = { ...v1, hmacKey: "hmac-key-v2" };
    const err = await failure(tasks.update(id, state, await checkedInputs(tasks, v2, state)));
    expect(held(id).hmacKey).toBe(v1.hmacKey);
    expect(await nextUp(id, kept(err, state), v2)).toBe(true);
    expect(held(id).hmacKey).toBe(v2.hmacKey);
  });

  test("every PATCH lost before the service acted, where a read shows it: the failure stands, and the state keeps the old values", async () => {
    await start("dropBeforeCommit");
    const { id, state } = await made(v1);
    const v2 = { ...v1, url: "https://hooks.example.com/v2", hmacKey: "hmac-key-v2" };
    const err = await failure(tasks.update(id, state, await checkedInputs(tasks, v2, state)));
    expect(err).not.toBeInstanceOf(PartialFailure);
    expect(err.code).toBe("network");
    expect(held(id)).toMatchObject({ url: v1.url, hmacKey: v1.hmacKey });
    expect(await nextUp(id, kept(err, state), v2)).toBe(true);
    expect(held(id)).toMatchObject({ url: v2.url, hmacKey: v2.hmacKey });
  });
});
