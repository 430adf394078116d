import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { providers } from "../../provider";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { retryStats, setRetryDefaults, type RetrySettings } from "../../provider/http/retry";
import { configureProvider } from "../support/providerConfig";

/**
 * Many resources of every type through create, update and delete, at the engine's parallelism, while the
 * emulator injects 20% faults (429s, 5xx, connections dropped before and after the server commits) and
 * limits each token to 30 requests per second. Every operation must end correctly, with no duplicate and no
 * orphan left, within its bound.
 */
const SNAPSHOTS = 70;
const TASKS = 65;
const PARALLELISM = 16;
const BUDGET_MS = 60_000;

type Props = Record<string, any>;
let emulator: Emulator;
let previous: RetrySettings;
const durations: number[] = [];
let operations = 0;

beforeAll(async () => {
  previous = setRetryDefaults({ maxRetries: 8, baseDelayMs: 20, maxDelayMs: 400, budgetMs: BUDGET_MS });
  emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    faults: { seed: 20261123, rates: { rateLimited: 0.05, serverError: 0.07, dropBeforeCommit: 0.04, dropAfterCommit: 0.04 }, rateLimitPerSecond: 30 },
  });
  configureProvider({
    "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
    "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "emulator-org",
  });
  retryStats.retries = 0;
  retryStats.byReason = {};
});

afterAll(async () => {
  setRetryDefaults(previous);
  await emulator.close();
  await closeSharedDispatchers();
});

/** Runs the operations with at most `PARALLELISM` in flight, as the engine does, timing each. */
async function inParallel<T>(items: T[], op: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: PARALLELISM }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        const started = Date.now();
        await op(item);
        durations.push(Date.now() - started);
        operations++;
      }
    }),
  );
}

async function checked(kind: keyof typeof providers, news: Props, olds: Props = {}): Promise<Props> {
  const r = await providers[kind].check(olds, news);
  expect(r.failures).toEqual([]);
  return r.inputs as Props;
}

const snapshotArgs = (i: number, retain = 1) => ({ name: `cfg-${i}`, interval: "1h", retain, pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: `b${i}` });
const taskArgs = (i: number, description = "v1") => ({ name: `task-${i}`, url: `https://hooks.example.com/${i}`, description, hmacKey: `k-${i}` });
const workspaces = () => [...emulator.runTask.store.workspaces.values()].map((w) => w.id);

const state = new Map<string, { kind: keyof typeof providers; id: string; outs: Props; inputs: Props }>();

describe("200 resources under injected faults and the rate limit", () => {
  test("create", async () => {
    const first = [
      ...Array.from({ length: SNAPSHOTS }, (_, i) => ({ key: `s${i}`, kind: "snapshotAutoConfig" as const, args: snapshotArgs(i) })),
      ...Array.from({ length: TASKS }, (_, i) => ({ key: `t${i}`, kind: "runTask" as const, args: taskArgs(i) })),
    ];
    await inParallel(first, async ({ key, kind, args }) => {
      const inputs = await checked(kind, args);
      const { id, outs } = await providers[kind].create(inputs);
      state.set(key, { kind, id, outs: outs!, inputs });
    });
    const ws = workspaces();
    await inParallel(Array.from({ length: TASKS }, (_, i) => i), async (i) => {
      const inputs = await checked("workspaceRunTask", { workspaceId: ws[i % ws.length], taskId: state.get(`t${i}`)!.id, enforcementLevel: "advisory" });
      const { id, outs } = await providers.workspaceRunTask.create(inputs);
      state.set(`a${i}`, { kind: "workspaceRunTask", id, outs: outs!, inputs });
    });

    expect(emulator.snapshot.configs.size).toBe(SNAPSHOTS);
    const tasks = [...emulator.runTask.store.tasks.values()];
    expect(tasks).toHaveLength(TASKS);
    expect(new Set(tasks.map((t) => t.name)).size).toBe(TASKS);
    expect(tasks.every((t) => t.hmacKey === `k-${t.name.slice(5)}`)).toBe(true);
    const assoc = [...emulator.runTask.store.workspaceTasks.values()];
    expect(assoc).toHaveLength(TASKS);
    expect(new Set(assoc.map((a) => a.taskId)).size).toBe(TASKS);
    expect(new Set(assoc.map((a) => a.id))).toEqual(new Set(Array.from({ length: TASKS }, (_, i) => state.get(`a${i}`)!.id)));
  });

  test("update", async () => {
    await inParallel([...state.entries()], async ([key, r]) => {
      const i = Number(key.slice(1));
      const news =
        r.kind === "snapshotAutoConfig" ? snapshotArgs(i, 3) : r.kind === "runTask" ? taskArgs(i, "v2") : { ...r.inputs, enforcementLevel: "mandatory" };
      const inputs = await checked(r.kind, news, r.inputs);
      const { outs } = await providers[r.kind].update(r.id, r.outs, inputs);
      state.set(key, { ...r, outs: outs!, inputs });
    });
    expect([...emulator.snapshot.configs.values()].every((e) => e.config.retain === 3)).toBe(true);
    expect([...emulator.runTask.store.tasks.values()].every((t) => t.description === "v2")).toBe(true);
    expect([...emulator.runTask.store.workspaceTasks.values()].every((a) => a.enforcementLevel === "mandatory")).toBe(true);
  });

  test("delete", async () => {
    const attachments = [...state.values()].filter((r) => r.kind === "workspaceRunTask");
    await inParallel(attachments, (r) => providers.workspaceRunTask.delete(r.id, r.outs));
    await inParallel([...state.values()].filter((r) => r.kind !== "workspaceRunTask"), (r) => providers[r.kind].delete(r.id, r.outs));
    expect(emulator.snapshot.configs.size).toBe(0);
    expect(emulator.runTask.store.tasks.size).toBe(0);
    expect(emulator.runTask.store.workspaceTasks.size).toBe(0);
  });

  test("faults were injected and retried; nothing retried after a client error; every operation within its bound", () => {
    const faults = emulator.faults!.counts;
    const figures = { operations, faults, retries: retryStats.retries, retriedOn: retryStats.byReason, longestOperationMs: Math.max(...durations), requests: emulator.requests.total() };
    console.log(`fault suite: ${JSON.stringify(figures)}`);
    expect(operations).toBe((SNAPSHOTS + 2 * TASKS) * 3);
    for (const kind of ["rateLimited", "serverError", "dropBeforeCommit", "dropAfterCommit"] as const) expect(faults[kind]).toBeGreaterThan(0);
    expect(Object.keys(retryStats.byReason).every((r) => ["412", "429", "500", "502", "503", "504", "transport"].includes(r))).toBe(true);
    expect(Math.max(...durations)).toBeLessThan(BUDGET_MS);
  });
});
