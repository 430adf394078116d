import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { providers } from "../../provider";
import { startDeployment } from "../../provider/takeover/heldObjects";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { newClientStats } from "../../provider/services/tuning";
import { configureProvider } from "../support/providerConfig";
import { checkedInputs } from "../support/checkedInputs";

/**
 * 200 resources of the three types (70 snapshot configurations, 65 run tasks, 65 associations) through create,
 * refresh, update and delete, with operations in flight 16 at a time and started as their dependencies allow,
 * as the engine runs them, while the emulator injects 20% faults (429s, 5xx, connections dropped before and
 * after the server commits) and limits each token to 30 requests per second on the run task API. Every
 * operation must end correctly and within its bound, with no duplicate and no orphan, and no request may be
 * sent again after a client error. The figures are printed at the end.
 */
const SNAPSHOTS = 70;
const TASKS = 65;
const PARALLELISM = 16;
/** The operation bound of this suite (the default is five minutes); waits are short so that the suite is quick. */
const BOUND_MS = 20_000;
const RATES = { rateLimited: 0.05, serverError: 0.07, dropBeforeCommit: 0.04, dropAfterCommit: 0.04 };

type Kind = keyof typeof providers;
type Props = Record<string, any>;
interface Resource {
  kind: Kind;
  id: string;
  outs: Props;
  inputs: Props;
}

let emulator: Emulator;
const stats = newClientStats();
const retryStats = stats.retries;
const createOnceStats = stats.creates;
const state = new Map<string, Resource>();
const figures = {
  operations: {} as Record<string, number>,
  requests: 0,
  longestOperationMs: 0,
  phaseMs: {} as Record<string, number>,
  clientErrors: {} as Record<string, number>,
  resentAfterClientError: 0,
  duplicates: 0,
  orphans: 0,
  leftAfterDestroy: 0,
  readsThatLostTheResource: 0,
};

beforeAll(async () => {
  emulator = await startEmulator({ snapshot: { takeSnapshots: false }, faults: { seed: 20261123, rates: RATES, rateLimitPerSecond: 30 } });
  configureProvider(
    {
      "snapshot:address": emulator.url,
      "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
      "runtask:address": emulator.url,
      "runtask:token": DEFAULT_RUNTASK_TOKEN,
      "runtask:organization": "emulator-org",
    },
    { retry: { maxRetries: 8, baseDelayMs: 20, maxDelayMs: 400, budgetMs: BOUND_MS }, stats },
  );
});

afterAll(async () => {
  await emulator.close();
  await closeSharedDispatchers();
});

/**
 * Runs one operation per key, at most `PARALLELISM` in flight; an operation starts once the operations of its
 * dependencies have ended, as the engine orders them. Each is timed and must stay within the bound. Requests
 * are checked afterwards: none is sent again once the service answered it with a client error.
 */
async function phase(
  name: string,
  keys: string[],
  op: (key: string) => Promise<void>,
  dependsOn: (key: string) => string | undefined = () => undefined,
) {
  emulator.requests.reset();
  const started = Date.now();
  const done = new Map<string, Promise<void>>();
  const settle = new Map<string, () => void>();
  for (const key of keys) done.set(key, new Promise<void>((resolve) => settle.set(key, resolve)));
  // Each key after its dependency: a worker that takes a key waits for the dependency while holding its slot, so
  // with dependencies further back in the queue every worker could end up waiting and none take them.
  const queue = dependenciesFirst(keys, dependsOn);
  await Promise.all(
    Array.from({ length: PARALLELISM }, async () => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        const dependency = dependsOn(key);
        if (dependency && done.has(dependency)) await done.get(dependency);
        const t0 = Date.now();
        try {
          await op(key);
        } finally {
          settle.get(key)!();
        }
        const ms = Date.now() - t0;
        figures.longestOperationMs = Math.max(figures.longestOperationMs, ms);
        expect(ms).toBeLessThan(BOUND_MS);
        figures.operations[name] = (figures.operations[name] ?? 0) + 1;
      }
    }),
  );
  figures.phaseMs[name] = Date.now() - started;
  figures.requests += emulator.requests.total();
  checkNoResendAfterClientError(name);
}

/** `keys` in their order, but each one whose dependency is among them moved after that dependency. */
function dependenciesFirst(keys: string[], dependsOn: (key: string) => string | undefined): string[] {
  const inKeys = new Set(keys);
  const placed = new Set<string>();
  const ordered: string[] = [];
  const place = (key: string) => {
    if (placed.has(key)) return;
    placed.add(key);
    const dependency = dependsOn(key);
    if (dependency !== undefined && inKeys.has(dependency)) place(dependency);
    ordered.push(key);
  };
  keys.forEach(place);
  return ordered;
}

/** A client error (4xx but 412 and 429) is final: the same request never follows it in the phase. */
function checkNoResendAfterClientError(name: string) {
  const final = new Set<string>();
  for (const e of emulator.requests.entries) {
    const key = `${e.method} ${e.path}`;
    if (final.has(key)) figures.resentAfterClientError++;
    if (e.status >= 400 && e.status < 500 && e.status !== 412 && e.status !== 429) {
      final.add(key);
      const label = `${name} ${e.method} ${e.status}`;
      figures.clientErrors[label] = (figures.clientErrors[label] ?? 0) + 1;
    }
  }
}

const checked = (kind: Kind, news: Props, olds: Props = {}) => checkedInputs(providers[kind], news, olds);

const snapshotArgs = (i: number, retain = 1) => ({
  name: `cfg-${i}`,
  interval: "1h",
  retain,
  pathPrefix: "p/",
  storageType: "cloudC-gcs",
  cloudCGcsBucket: `b${i}`,
});
const taskArgs = (i: number, description = "v1") => ({ name: `task-${i}`, url: `https://hooks.example.com/${i}`, description, hmacKey: `k-${i}` });
const indexOf = (key: string) => Number(key.slice(1));

/** Snapshot configurations and tasks interleaved, each association a few places after its task. */
function createOrder(): string[] {
  const keys: string[] = [];
  for (let i = 0; i < Math.max(SNAPSHOTS, TASKS) + 8; i++) {
    if (i < SNAPSHOTS) keys.push(`s${i}`);
    if (i < TASKS) keys.push(`t${i}`);
    if (i >= 8 && i - 8 < TASKS) keys.push(`a${i - 8}`);
  }
  return keys;
}

describe("200 resources under injected faults and the rate limit", () => {
  test("create", async () => {
    const workspaces = emulator.runTask.workspaces().map((w) => w.id);
    await phase(
      "create",
      createOrder(),
      async (key) => {
        const i = indexOf(key);
        const [kind, args]: [Kind, Props] =
          key[0] === "s"
            ? ["snapshotAutoConfig", snapshotArgs(i)]
            : key[0] === "t"
              ? ["runTask", taskArgs(i)]
              : [
                  "workspaceRunTask",
                  {
                    workspaceId: workspaces[i % workspaces.length],
                    taskId: state.get(`t${i}`)!.id,
                    enforcementLevel: "advisory",
                    stages: ["pre_plan", "post_plan"],
                  },
                ];
        const inputs = await checked(kind, args);
        const { id, outs } = await providers[kind].create(inputs);
        state.set(key, { kind, id, outs: outs!, inputs });
      },
      (key) => (key[0] === "a" ? `t${indexOf(key)}` : undefined),
    );

    const tasks = emulator.runTask.tasks();
    const assoc = emulator.runTask.workspaceTasks();
    figures.duplicates =
      tasks.length - new Set(tasks.map((t) => t.name)).size + (assoc.length - new Set(assoc.map((a) => `${a.workspaceId} ${a.taskId}`)).size);
    const known = new Set([...state.values()].map((r) => r.id));
    figures.orphans =
      [...tasks, ...assoc].filter((o) => !known.has(o.id)).length + [...emulator.snapshot.configs.keys()].filter((n) => !known.has(n)).length;
    expect([figures.duplicates, figures.orphans]).toEqual([0, 0]);
    expect(state.size).toBe(SNAPSHOTS + 2 * TASKS);
    expect(emulator.snapshot.configs.size).toBe(SNAPSHOTS);
    expect(tasks).toHaveLength(TASKS);
    expect(tasks.every((t) => t.hmacKey === `k-${t.name.slice(5)}` && t.description === "v1")).toBe(true);
    expect(assoc).toHaveLength(TASKS);
    const keyOf = new Map([...state.entries()].map(([key, r]) => [r.id, key]));
    expect(assoc.every((a) => a.taskId === state.get(`t${indexOf(keyOf.get(a.id)!)}`)!.id)).toBe(true);
  });

  test("refresh: a transient failure never reads as a deleted resource", async () => {
    await phase("read", [...state.keys()], async (key) => {
      const r = state.get(key)!;
      const read = await providers[r.kind].read(r.id, r.outs);
      if (read.id !== r.id) figures.readsThatLostTheResource++;
    });
    expect(figures.readsThatLostTheResource).toBe(0);
  });

  test("update", async () => {
    await phase("update", [...state.keys()], async (key) => {
      const r = state.get(key)!;
      const i = indexOf(key);
      const news =
        r.kind === "snapshotAutoConfig"
          ? snapshotArgs(i, 3)
          : r.kind === "runTask"
            ? taskArgs(i, "v2")
            : { ...r.inputs, enforcementLevel: "mandatory" };
      const inputs = await checked(r.kind, news, r.inputs);
      const { outs } = await providers[r.kind].update(r.id, r.outs, inputs);
      state.set(key, { ...r, outs: outs!, inputs });
    });
    expect([...emulator.snapshot.configs.values()].every((e) => e.config.retain === 3)).toBe(true);
    expect(emulator.runTask.tasks().every((t) => t.description === "v2")).toBe(true);
    expect(emulator.runTask.workspaceTasks().every((a) => a.enforcementLevel === "mandatory")).toBe(true);
  });

  test("delete, associations before their tasks", async () => {
    startDeployment(); // a destroy: a deployment of its own
    await phase(
      "delete",
      [...state.keys()],
      async (key) => {
        const r = state.get(key)!;
        await providers[r.kind].delete(r.id, r.outs);
      },
      (key) => (key[0] === "t" ? `a${indexOf(key)}` : undefined),
    );
    figures.leftAfterDestroy = emulator.snapshot.configs.size + emulator.runTask.tasks().length + emulator.runTask.workspaceTasks().length;
    expect(figures.leftAfterDestroy).toBe(0);
  });

  test("faults of every kind were injected and retried; nothing sent again after a client error", () => {
    const faults = emulator.faults!;
    const report = {
      faults: { ...faults.counts, ...faults.variants },
      retries: retryStats.retries,
      retriedOn: retryStats.byReason,
      lostCreates: createOnceStats,
      ...figures,
    };
    console.log(`fault suite: ${JSON.stringify(report)}`);
    expect(Object.values(figures.operations).reduce((a, b) => a + b, 0)).toBe((SNAPSHOTS + 2 * TASKS) * 4);
    for (const kind of ["rateLimited", "serverError", "dropBeforeCommit", "dropAfterCommit"] as const) expect(faults.counts[kind]).toBeGreaterThan(0);
    expect(createOnceStats.ambiguous).toBeGreaterThan(0);
    expect(Object.keys(retryStats.byReason).every((r) => ["412", "429", "500", "502", "503", "504", "transport"].includes(r))).toBe(true);
    expect(figures.resentAfterClientError).toBe(0);
    // The only client errors: a lookup finding a name free, and a delete finding its object gone (its first
    // try was carried out but the answer lost).
    for (const label of Object.keys(figures.clientErrors)) expect(label).toMatch(/^(create GET 404|delete DELETE 404)$/);
  });
});
