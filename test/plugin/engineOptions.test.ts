import { startEmulator, type Emulator, type EmulatorTask } from "../../emulator";
import {
  createConsumerProject,
  knownAtUp,
  NativeEngine,
  secret,
  startNativeProviderPlugin,
  type ConsumerProject,
  type NativeResource,
} from "../../engine";
import { Switchboard } from "../support/switchboard";

/**
 * What the real engine sends, through both provider plugins as the engine driver sends it (engine/nativeEngine.ts,
 * which follows pulumi/pulumi's step generator, provider registry and plugin host): `ignoreChanges`, explicit
 * providers whose settings are unknown in a preview, `customTimeouts`, Cancel in the middle of an `up`, and the
 * `import` option.
 */
type Props = Record<string, unknown>;

const TOKEN = "full-token";
const ACME_ONLY = "acme-token";
const BETA_ONLY = "beta-token";
const SNAPSHOT_TOKEN = "snapshot-token";

let project: ConsumerProject;
let emulator: Emulator;
const calls = new Switchboard();

beforeAll(async () => {
  project = createConsumerProject({ project: "engine-options" });
  emulator = await startEmulator({
    snapshot: { tokens: { [SNAPSHOT_TOKEN]: { sudo: true } }, takeSnapshots: false },
    runTask: {
      tokens: {
        [TOKEN]: { owner: true },
        [ACME_ONLY]: { organizations: ["acme"], owner: true },
        [BETA_ONLY]: { organizations: ["beta"], owner: true },
      },
      organizations: [
        { name: "acme", workspaces: [{ name: "app" }] },
        { name: "beta", workspaces: [{ name: "web" }] },
      ],
    },
    interceptors: [calls.interceptor],
  });
});

afterEach(() => {
  calls.reset();
});

afterAll(async () => {
  await emulator?.close();
  project?.remove();
});

const config = (extra: Record<string, string> = {}) => ({
  "runtask:address": emulator.url,
  "runtask:token": TOKEN,
  "runtask:organization": "acme",
  "runtask:maxRetries": "5",
  "snapshot:address": emulator.url,
  "snapshot:token": SNAPSHOT_TOKEN,
  ...extra,
});
const engineFor = (extra: Record<string, string> = {}) => new NativeEngine({ programDir: project.dir, config: config(extra) });
const urn = (token: string, name: string) => `urn:pulumi:dev::engine-options::${token}::${name}`;
const task = (name: string, inputs: Props, extra: Partial<NativeResource> = {}): NativeResource => ({
  urn: urn("runtask:index:RunTask", name),
  token: "runtask:index:RunTask",
  name,
  inputs: { name, url: "https://hooks.example.com/scan", ...inputs },
  dependencies: [],
  ...extra,
});
const snapshot = (name: string, inputs: Props, extra: Partial<NativeResource> = {}): NativeResource => ({
  urn: urn("snapshot:index:SnapshotAutoConfig", name),
  token: "snapshot:index:SnapshotAutoConfig",
  name,
  inputs: { interval: 3600, pathPrefix: "/tmp/engine-options", storageType: "local", localMaxSpace: 1000, ...inputs },
  dependencies: [],
  ...extra,
});
const ops = (steps: { name: string; op: string }[]) => Object.fromEntries(steps.map((s) => [s.name, s.op]));
const writes = async (run: () => Promise<unknown>) => {
  emulator.requests.reset();
  await run();
  return emulator.requests.writes();
};
const taskNamed = (name: string): EmulatorTask => emulator.runTask.tasks().find((t) => t.name === name)!;

describe("ignoreChanges, after a change made outside the program", () => {
  test("preview shows no change and up writes nothing: the service keeps its value; without it, up would put the program's back", async () => {
    const engine = engineFor();
    const program = [task("ignoring", { enabled: true }), snapshot("retained", { retain: 3 })];
    await engine.up(program);
    emulator.runTask.store.tasks.get(taskNamed("ignoring").id)!.enabled = false;
    emulator.snapshot.configs.get("retained")!.config.retain = 5;
    await engine.refresh();

    const withIgnore = [
      task("ignoring", { enabled: true }, { ignoreChanges: ["enabled"] }),
      snapshot("retained", { retain: 3 }, { ignoreChanges: ["retain"] }),
    ];
    expect(ops(await engine.preview(withIgnore))).toEqual({ ignoring: "same", retained: "same" });
    expect(await writes(() => engine.up(withIgnore))).toBe(0);
    expect([taskNamed("ignoring").enabled, emulator.snapshot.configs.get("retained")!.config.retain]).toEqual([false, 5]);

    // Another change is made, and the ignored value stays the service's.
    const moved = [task("ignoring", { enabled: true, url: "https://hooks.example.com/moved" }, { ignoreChanges: ["enabled"] })];
    expect(ops(await engine.up([...moved, withIgnore[1]]))).toEqual({ ignoring: "update", retained: "same" });
    expect(taskNamed("ignoring")).toMatchObject({ url: "https://hooks.example.com/moved", enabled: false });

    // The control: without ignoreChanges the same program is an update that undoes the change made outside.
    expect(ops(await engine.preview([task("ignoring", { enabled: true, url: "https://hooks.example.com/moved" }), program[1]]))).toEqual({
      ignoring: "update",
      retained: "update",
    });
    await engine.destroy();
  });
});

describe("explicit providers", () => {
  test("settings unknown in the preview: it passes, showing creates and sending nothing; up creates against the address given", async () => {
    const engine = engineFor();
    const providers = [
      { name: "acme", package: "runtask" as const, inputs: { address: knownAtUp(emulator.url), token: ACME_ONLY, organization: "acme" } },
    ];
    const program = [task("computed", {}, { provider: "acme" })];
    emulator.requests.reset();
    expect(ops(await engine.preview(program, providers))).toEqual({ computed: "create" });
    expect(emulator.requests.total()).toBe(0);
    expect(ops(await engine.up(program, providers))).toEqual({ computed: "create" });
    expect(taskNamed("computed").organization).toBe("acme");
    await engine.destroy(providers);
  });

  test("the snapshot package's too: unknown in the preview, nothing sent; configured and used at up", async () => {
    const engine = engineFor({ "snapshot:token": "" });
    const providers = [{ name: "vault", package: "snapshot" as const, inputs: { address: knownAtUp(emulator.url), token: SNAPSHOT_TOKEN } }];
    const program = [snapshot("computed-snapshot", {}, { provider: "vault" })];
    emulator.requests.reset();
    expect(ops(await engine.preview(program, providers))).toEqual({ "computed-snapshot": "create" });
    expect(emulator.requests.total()).toBe(0);
    expect(ops(await engine.up(program, providers))).toEqual({ "computed-snapshot": "create" });
    expect(emulator.snapshot.configs.has("computed-snapshot")).toBe(true);
    await engine.destroy(providers);
  });

  test("two organizations, each with a provider of its own and a token that sees only it", async () => {
    const engine = engineFor({ "runtask:token": "" });
    const providers = [
      { name: "acme", package: "runtask" as const, inputs: { address: emulator.url, token: ACME_ONLY, organization: "acme" } },
      { name: "beta", package: "runtask" as const, inputs: { address: emulator.url, token: BETA_ONLY, organization: "beta" } },
    ];
    const program = [task("in-acme", {}, { provider: "acme" }), task("in-beta", {}, { provider: "beta" })];
    await engine.up(program, providers);
    expect([taskNamed("in-acme").organization, taskNamed("in-beta").organization]).toEqual(["acme", "beta"]);
    expect(ops(await engine.preview(program, providers))).toEqual({ "in-acme": "same", "in-beta": "same" });
    await engine.destroy(providers);
    expect(emulator.runTask.tasks().filter((t) => t.name.startsWith("in-"))).toEqual([]);
  });
});

describe.each([
  ["runtask", () => task("slow", {}, { customTimeouts: { create: 2 } }), "POST /api/v2/organizations/:org/tasks"],
  ["snapshot", () => snapshot("slow", {}, { customTimeouts: { create: 2 } }), "GET /v1/sys/storage/raft/snapshot-auto/config/:name"],
])("customTimeouts through the %s plugin", (_, resource, route) => {
  test("create: 2s against a server that does not answer fails after about 2 s, naming the timeout", async () => {
    calls.answers = [calls.hang(route)];
    const started = Date.now();
    await expect(engineFor().up([resource()])).rejects.toThrow(
      /operation time bound of 2s \(customTimeouts\.create\) reached|time bound of 2s \(customTimeouts\.create\)/,
    );
    const elapsed = Date.now() - started;
    // The plugins' start and stop take a few hundred milliseconds around the bound.
    expect(elapsed).toBeGreaterThan(1_900);
    expect(elapsed).toBeLessThan(5_000);
  });
});

describe.each([
  ["runtask", () => task("cancelled", {}), /^(POST|GET) \/api\/v2\//],
  ["snapshot", () => snapshot("cancelled", {}), /^(GET|POST) \/v1\//],
])("Cancel in the middle of an up, through the %s plugin", (_, resource, routes) => {
  test("against a server that answers 503: the plugin stops within 1 s, nothing is recorded, and the next up converges", async () => {
    calls.answers = [(req, key) => (routes.test(`${req.method} ${key}`) ? { status: 503, body: { errors: ["unavailable"] } } : undefined)];
    const engine = engineFor({ "runtask:maxRetries": "50", "snapshot:maxRetries": "50" });
    const up = engine.up([resource()]).then(
      () => undefined,
      (err: Error) => ({ err, at: Date.now() }),
    );
    await new Promise((r) => setTimeout(r, 1_500));
    const cancelledAt = Date.now();
    await engine.cancel();
    const outcome = await up;
    expect(outcome?.err.message).toMatch(/cancelled: the engine asked the provider to stop/);
    // The up ends (its plugins stopped) within a second of the Cancel, rather than after minutes of retries.
    expect(outcome!.at - cancelledAt).toBeLessThan(1_000);
    expect(engine.held(resource().urn)).toBeUndefined();

    calls.reset();
    expect(ops(await engine.up([resource()]))).toEqual({ cancelled: "create" });
    expect(ops(await engine.up([resource()]))).toEqual({ cancelled: "same" });
    await engine.destroy();
  });
});

describe("the import option", () => {
  test("a SnapshotAutoConfig whose program gives no name: imported, then no replacement, the state holding the configuration's name", async () => {
    await fetch(`${emulator.url}/v1/sys/storage/raft/snapshot-auto/config/nightly`, {
      method: "POST",
      headers: { "x-service-token": SNAPSHOT_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ interval: 3600, path_prefix: "/tmp/engine-options", storage_type: "local", local_max_space: 1000 }),
    });
    const engine = engineFor();
    const program = [snapshot("nightly-config", {}, { importId: "nightly" })];
    expect(ops(await engine.preview(program))).toEqual({ "nightly-config": "import" });
    expect(await writes(async () => expect(ops(await engine.up(program))).toEqual({ "nightly-config": "import" }))).toBe(0);
    expect(engine.held(program[0].urn)).toMatchObject({ id: "nightly", inputs: { name: "nightly" } });
    expect(ops(await engine.up(program))).toEqual({ "nightly-config": "same" });
    await engine.destroy();
  });

  test("a RunTask by <organization>/<task-name>: the state holds its task- id; a change of the program is applied in the same up", async () => {
    const existing = emulator.runTask.addTask("acme", { name: "legacy", url: "https://hooks.example.com/legacy" });
    const engine = engineFor();
    const program = [task("legacy", { url: "https://hooks.example.com/legacy", enabled: false }, { importId: "acme/legacy" })];
    expect(ops(await engine.up(program))).toEqual({ legacy: "import" });
    expect(engine.held(program[0].urn)?.id).toBe(existing.id);
    expect(emulator.runTask.store.tasks.get(existing.id)!.enabled).toBe(false);
    await engine.destroy();
  });

  test("an import the program would replace is refused, as the engine refuses it", async () => {
    await fetch(`${emulator.url}/v1/sys/storage/raft/snapshot-auto/config/weekly`, {
      method: "POST",
      headers: { "x-service-token": SNAPSHOT_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ interval: 3600, path_prefix: "/tmp/engine-options", storage_type: "local", local_max_space: 1000 }),
    });
    const program = [snapshot("weekly", { name: "weekly-v2" }, { importId: "weekly" })];
    await expect(engineFor().up(program)).rejects.toThrow(/previously-imported resources that still specify an ID may not be replaced/);
  });
});

test("a secret argument makes a function's result secret", async () => {
  const engine = engineFor();
  await engine.up([task("secretly", {})]);
  const plugin = await startNativeProviderPlugin(project.dir, "runtask", { RUNTASK_TOKEN: undefined });
  try {
    await plugin.client.configure({ address: emulator.url, token: secret(TOKEN), organization: "acme" });
    const plainResult = await plugin.client.invoke("runtask:index:getRunTask", { name: "secretly" });
    expect(plainResult.name).toBe("secretly");
    const secretResult = await plugin.client.invoke("runtask:index:getRunTask", { name: secret("secretly") });
    expect(secretResult.name).toEqual(secret("secretly"));
  } finally {
    await plugin.stop();
  }
  await engine.destroy();
});
