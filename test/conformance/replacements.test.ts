import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { createConsumerProject, dynamicProviderPlugin, Engine, type ConsumerProject, type ProgramSpec, type Step } from "../../engine";
import { emulatorStackConfig } from "../support/emulatorStack";

/**
 * Replacements, moves and drift through the dynamic provider plugin, as the engine runs them (engine/engine.ts
 * follows pulumi/pulumi's step generator): every object here is named on the service, so a replacement or a move
 * that keeps the name must never end with the object deleted while the state claims it.
 */
let fixture: ConsumerProject;
let emulator: Emulator;
// Each scenario runs several engine commands, each starting the plugin afresh, as the CLI does.
jest.setTimeout(240_000);
let n = 0;
let engine: Engine;

beforeAll(async () => {
  fixture = createConsumerProject({ project: "replacements-dynamic", stack: "replacements" });
  emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    runTask: { organizations: [{ name: "acme", workspaces: [{ name: "app" }, { name: "web" }] }] },
  });
});

afterEach(async () => {
  await engine?.destroy();
});

afterAll(async () => {
  await emulator?.close();
  fixture?.remove();
});

const newEngine = () =>
  (engine = new Engine({
    plugin: dynamicProviderPlugin(fixture.dir),
    stateFile: join(fixture.dir, `state-${++n}.json`),
    config: emulatorStackConfig(emulator),
  }));
const program = (spec: ProgramSpec) => fixture.capture({ snapshots: [], runTasks: [], attachments: [], ...spec });
const ops = (steps: Step[]) => Object.fromEntries(steps.map((s) => [s.name, s.op]));
const ws = (name: string) => emulator.runTask.workspace(name).id;
const tasksNamed = (name: string) => emulator.runTask.tasks().filter((t) => t.name === name);
const offsite = { name: "offsite", interval: 3600, pathPrefix: "backups", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };

/**
 * A task named `scanner`, attached to two workspaces, and a configuration named `offsite`: under the resource names
 * `scanner` and `offsite`, or, moved, `scanner-moved` and `offsite-moved` (with `aliases` to the old names, or not).
 */
const stack = (how: "first" | "moved" | "moved with aliases", extra: Record<string, unknown> = {}): ProgramSpec => {
  const [task, config] = how === "first" ? ["scanner", "offsite"] : ["scanner-moved", "offsite-moved"];
  const aliased = (old: string) => (how === "moved with aliases" ? { aliases: [{ name: old }] } : {});
  return {
    snapshots: [{ resource: config, args: { ...offsite, ...extra }, options: aliased("offsite") }],
    runTasks: [{ resource: task, args: { name: "scanner", url: "https://hooks.example.com/scan", ...extra }, options: aliased("scanner") }],
    attachments: [
      { resource: "on-app", task, args: { workspaceId: ws("app"), enforcementLevel: "mandatory" } },
      { resource: "on-web", task, args: { workspaceId: ws("web"), enforcementLevel: "advisory" } },
    ],
  };
};

/** The objects on the service and in the state: exactly one of each, the state's ids those of the service. */
function expectOnceEach(taskResource: string, snapshotResource: string): void {
  const state = engine.state();
  const [task] = tasksNamed("scanner");
  expect(tasksNamed("scanner")).toHaveLength(1);
  expect(state.get(taskResource)?.id).toBe(task.id);
  expect(emulator.runTask.workspaceTasks().filter((w) => w.taskId === task.id)).toHaveLength(2);
  expect(["on-app", "on-web"].map((r) => emulator.runTask.store.workspaceTasks.has(state.get(r)!.id))).toEqual([true, true]);
  expect([...emulator.snapshot.configs.keys()]).toEqual(["offsite"]);
  expect(state.get(snapshotResource)?.id).toBe("offsite");
  expect(state.resources.filter((r) => r.delete)).toEqual([]);
  expect(state.resources).toHaveLength(4);
}

describe("a resource moved to a new name, keeping the object's name", () => {
  test("without aliases the create is refused with each cause's fix; with the advice followed (aliases) nothing is made or deleted", async () => {
    newEngine();
    await engine.up(program(stack("first")));
    const moved = await engine.up(program(stack("moved"))).catch((e: Error) => e);
    expect((moved as Error).message).toMatch(/already exists; a create never overwrites it\. Renamed or moved in the program.*`aliases`/);
    // The failed up deleted nothing: the old resources are still the state's, their objects the service's.
    expectOnceEach("scanner", "offsite");

    emulator.requests.reset();
    const steps = await engine.up(program(stack("moved with aliases")));
    expect(ops(steps)).toMatchObject({ "scanner-moved": "same", "offsite-moved": "same", "on-app": "same", "on-web": "same" });
    expect(emulator.requests.writes()).toBe(0);
    expectOnceEach("scanner-moved", "offsite-moved");
    await engine.destroy();
  });

  test("with adopt: true the new resources take the objects over, and the old resources' deletes leave them in place", async () => {
    newEngine();
    await engine.up(program(stack("first")));
    const task = tasksNamed("scanner")[0].id;
    const steps = await engine.up(program(stack("moved", { adopt: true })));
    expect(ops(steps)).toMatchObject({ "scanner-moved": "create", "offsite-moved": "create", scanner: "delete", offsite: "delete" });
    expect(tasksNamed("scanner")[0].id).toBe(task);
    expectOnceEach("scanner-moved", "offsite-moved");
    expect(engine.pluginOutput).toMatch(/run task task-\S+ is left in place: another resource of this stack holds it/);
    // A refresh finds every object; the next up changes nothing.
    expect((await engine.refresh()).map((s) => s.op)).not.toContain("gone");
    expect(Object.values(ops(await engine.up(program(stack("moved", { adopt: true })))))).toEqual(Array(4).fill("same"));
    await engine.destroy();
    expect([emulator.runTask.tasks(), emulator.runTask.workspaceTasks(), [...emulator.snapshot.configs.keys()]]).toEqual([[], [], []]);
  });
});

describe("replacements that keep the object's name", () => {
  test("replaceOnChanges does not reach a dynamic provider: the dynamic plugin reports no changed keys, so the url change is an update", async () => {
    newEngine();
    const spec = (url: string): ProgramSpec => ({
      runTasks: [{ resource: "scanner", args: { url }, options: { replaceOnChanges: ["url"] } }],
    });
    await engine.up(program(spec("https://hooks.example.com/a")));
    const id = tasksNamed("scanner")[0].id;
    expect(ops(await engine.up(program(spec("https://hooks.example.com/b"))))).toEqual({ scanner: "update" });
    expect(tasksNamed("scanner").map((t) => [t.id, t.url])).toEqual([[id, "https://hooks.example.com/b"]]);
    await engine.destroy();
  });

  test("--replace of a snapshot configuration: refused without deleteBeforeReplace (created first, it would be a duplicate); with it, deleted then written", async () => {
    newEngine();
    const spec = (options: Record<string, unknown> = {}): ProgramSpec => ({ snapshots: [{ resource: "offsite", args: offsite, options }] });
    await engine.up(program(spec()));
    const refused = await engine.up(program(spec()), { replace: ["offsite"] }).catch((e: Error) => e);
    expect((refused as Error).message).toMatch(/`pulumi up --replace`\? Set the resource option `deleteBeforeReplace: true`/);
    expect([...emulator.snapshot.configs.keys()]).toEqual(["offsite"]);
    expect(engine.state().get("offsite")?.id).toBe("offsite");

    const withOption = program(spec({ deleteBeforeReplace: true }));
    expect(await engine.preview(withOption, { replace: ["offsite"] })).toEqual([
      { op: "replace", name: "offsite", detail: ["id"], changes: [], deleteBeforeReplace: true, dependents: [] },
    ]);
    emulator.requests.reset();
    const steps = await engine.up(withOption, { replace: ["offsite"] });
    expect(ops(steps)).toEqual({ offsite: "replace" });
    expect(emulator.requests.byRoute()).toMatchObject({
      "DELETE /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
      "POST /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
    });
    expect([...emulator.snapshot.configs.keys()]).toEqual(["offsite"]);
    expect(engine.state().get("offsite")?.id).toBe("offsite");
    expect(ops(await engine.refresh())).toEqual({ offsite: "refresh" });
    expect(engine.state().get("offsite")?.id).toBe("offsite");
    await engine.destroy();
  });
});

test("--replace of a task with two associations and deleteBeforeReplace: the associations go first and come back on the new task", async () => {
  newEngine();
  await engine.up(program(stack("first")));
  const before = tasksNamed("scanner")[0].id;
  const replacing = stack("first");
  replacing.runTasks![0].options = { deleteBeforeReplace: true };
  const preview = await engine.preview(program(replacing), { replace: ["scanner"] });
  expect(preview.find((s) => s.name === "scanner")).toMatchObject({ op: "replace", deleteBeforeReplace: true, dependents: ["on-app", "on-web"] });
  expect(ops(await engine.up(program(replacing), { replace: ["scanner"] }))).toEqual({
    offsite: "same",
    scanner: "replace",
    "on-app": "replace",
    "on-web": "replace",
  });
  expect(tasksNamed("scanner")[0].id).not.toBe(before);
  expectOnceEach("scanner", "offsite");
});

describe("drift", () => {
  const scanner = (options: Record<string, unknown> = {}, global = { enabled: false }): ProgramSpec => ({
    runTasks: [{ resource: "scanner", args: { url: "https://hooks.example.com/scan", enabled: true, global }, options }],
  });
  const task = () => emulator.runTask.store.tasks.get(tasksNamed("scanner")[0].id)!;

  test("a task disabled outside: refresh shows true => false, the next preview false => true, and up re-enables it", async () => {
    newEngine();
    await engine.up(program(scanner()));
    task().enabled = false;
    const refreshed = await engine.refresh();
    expect(refreshed).toEqual([{ op: "refresh", name: "scanner", detail: true, changes: [{ path: "enabled", old: true, new: false }] }]);
    expect(await engine.preview(program(scanner()))).toEqual([
      { op: "update", name: "scanner", changes: [{ path: "enabled", old: false, new: true }] },
    ]);
    expect(ops(await engine.up(program(scanner())))).toEqual({ scanner: "update" });
    expect(task().enabled).toBe(true);
    await engine.destroy();
  });

  test("ignoreChanges keeps an outside change of global.enabled, whichever form names it: global.enabled, global.*, global[*], global", async () => {
    newEngine();
    await engine.up(program(scanner()));
    for (const path of ["global.enabled", "global.*", "global[*]", "global"]) {
      // The program keeps the value the service had; the change made outside is the opposite.
      const programs = task().global.enabled;
      const outside = (task().global.enabled = !programs);
      await engine.refresh();
      const ignoring = program(scanner({ ignoreChanges: [path] }, { enabled: programs }));
      expect([path, ops(await engine.preview(ignoring))]).toEqual([path, { scanner: "same" }]);
      emulator.requests.reset();
      expect(ops(await engine.up(ignoring))).toEqual({ scanner: "same" });
      expect([path, emulator.requests.writes(), task().global.enabled]).toEqual([path, 0, outside]);
    }
  });
});
