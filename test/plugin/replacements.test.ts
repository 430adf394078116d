import { startEmulator, type Emulator } from "../../emulator";
import { createConsumerProject, NativeEngine, type ConsumerProject, type NativeResource } from "../../engine";
import { emulatorStackConfig, nativeResources, RUNTASK_TOKEN } from "../support/emulatorStack";

/**
 * Replacements, moves, drift and a replacement's name through both provider plugins, driven as the engine drives
 * them (engine/nativeEngine.ts follows pulumi/pulumi's step generator): every object here is named on the service,
 * so a replacement or a move that keeps the name must never end with the object deleted while the state claims it.
 */
type Props = Record<string, unknown>;

// Each scenario runs several engine commands, each starting the plugins afresh, as the CLI does.
jest.setTimeout(240_000);

let project: ConsumerProject;
let emulator: Emulator;
let engine: NativeEngine;

beforeAll(async () => {
  project = createConsumerProject({ project: "replacements-native" });
  emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    runTask: {
      tokens: { [RUNTASK_TOKEN]: { owner: true } },
      organizations: [
        { name: "acme", workspaces: [{ name: "app" }, { name: "web" }] },
        { name: "beta", workspaces: [] },
      ],
    },
  });
});

beforeEach(() => {
  engine = new NativeEngine({
    programDir: project.dir,
    config: emulatorStackConfig(emulator),
  });
});

afterEach(async () => {
  await engine.destroy();
});

afterAll(async () => {
  await emulator?.close();
  project?.remove();
});

const { urn, resource } = nativeResources("replacements-native");
const ws = (name: string) => emulator.runTask.workspace(name).id;
const ops = (steps: { name: string; op: string }[]) => Object.fromEntries(steps.map((s) => [s.name, s.op]));
const tasksNamed = (name: string) => emulator.runTask.tasks().filter((t) => t.name === name);
const offsite = { name: "offsite", interval: 3600, pathPrefix: "backups", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };

/**
 * A task named `scanner` attached to two workspaces, and a configuration named `offsite`: under the resource names
 * `scanner` and `offsite`, or, moved, `scanner-moved` and `offsite-moved` (with `aliases` to the old names, or not).
 */
function stack(how: "first" | "moved" | "moved with aliases", extra: Props = {}, taskOptions: Partial<NativeResource> = {}): NativeResource[] {
  const [task, config] = how === "first" ? ["scanner", "offsite"] : ["scanner-moved", "offsite-moved"];
  const aliased = (old: string) => (how === "moved with aliases" ? { aliases: [old] } : {});
  return [
    resource("snapshot:index:SnapshotAutoConfig", config, { ...offsite, ...extra }, aliased("offsite")),
    resource(
      "runtask:index:RunTask",
      task,
      { name: "scanner", url: "https://hooks.example.com/scan", ...extra },
      { ...aliased("scanner"), ...taskOptions },
    ),
    resource("runtask:index:WorkspaceRunTask", "on-app", { workspaceId: ws("app"), taskId: `@id:${task}`, enforcementLevel: "mandatory" }),
    resource("runtask:index:WorkspaceRunTask", "on-web", { workspaceId: ws("web"), taskId: `@id:${task}`, enforcementLevel: "advisory" }),
  ];
}

/** Exactly one task named scanner, with both its associations, and one configuration: those the engine holds. */
function expectOnceEach(taskResource: string, snapshotResource: string): void {
  const [task] = tasksNamed("scanner");
  expect(tasksNamed("scanner")).toHaveLength(1);
  expect(engine.held(urn("runtask:index:RunTask", taskResource))?.id).toBe(task.id);
  expect(emulator.runTask.workspaceTasks().filter((w) => w.taskId === task.id)).toHaveLength(2);
  for (const name of ["on-app", "on-web"]) {
    const held = engine.held(urn("runtask:index:WorkspaceRunTask", name))!;
    expect(emulator.runTask.store.workspaceTasks.has(held.id.split("/")[1])).toBe(true);
  }
  expect([...emulator.snapshot.configs.keys()]).toEqual(["offsite"]);
  expect(engine.held(urn("snapshot:index:SnapshotAutoConfig", snapshotResource))?.id).toBe("offsite");
  expect(engine.pendingDeletes()).toEqual([]);
}

describe("a resource moved to a new name, keeping the object's name", () => {
  test("without aliases the create is refused with each cause's fix and nothing is deleted; with aliases nothing is made or deleted", async () => {
    await engine.up(stack("first"));
    await expect(engine.up(stack("moved"))).rejects.toThrow(
      /already exists; a create never overwrites it\. Renamed or moved in the program.*`aliases`/,
    );
    expectOnceEach("scanner", "offsite");
    emulator.requests.reset();
    expect(Object.values(ops(await engine.up(stack("moved with aliases"))))).toEqual(Array(4).fill("same"));
    expect(emulator.requests.writes()).toBe(0);
    expectOnceEach("scanner-moved", "offsite-moved");
  });

  test("with adopt: true the new resources take the objects over, and the old resources' deletes leave them in place", async () => {
    await engine.up(stack("first"));
    const steps = await engine.up(stack("moved", { adopt: true }));
    expect(ops(steps)).toMatchObject({ "scanner-moved": "create", "offsite-moved": "create", scanner: "delete", offsite: "delete" });
    expectOnceEach("scanner-moved", "offsite-moved");
    expect(engine.pluginOutput).toMatch(/snapshot configuration offsite is left in place: another resource of this stack holds it/);
    expect((await engine.refresh()).map((s) => s.op)).not.toContain("gone");
    expect(Object.values(ops(await engine.up(stack("moved", { adopt: true }))))).toEqual(Array(4).fill("same"));
  });
});

describe("replacements that keep the object's name", () => {
  test("replaceOnChanges: [url] on a task with two associations: deleted before it is created, its associations with it; one task after", async () => {
    await engine.up(stack("first", {}, { replaceOnChanges: ["url"] }));
    const before = tasksNamed("scanner")[0].id;
    const moved = stack("first", {}, { replaceOnChanges: ["url"] });
    moved[1].inputs.url = "https://hooks.example.com/moved";
    const preview = await engine.preview(moved);
    expect(preview.find((s) => s.name === "scanner")).toMatchObject({
      op: "replace",
      deleteBeforeReplace: true,
      dependents: ["on-app", "on-web"],
      changes: [{ path: "url", old: "https://hooks.example.com/scan", new: "https://hooks.example.com/moved" }],
    });
    expect(ops(await engine.up(moved))).toEqual({ offsite: "same", scanner: "replace", "on-app": "replace", "on-web": "replace" });
    const [task] = tasksNamed("scanner");
    expect(task.id).not.toBe(before);
    expect(task.url).toBe("https://hooks.example.com/moved");
    expectOnceEach("scanner", "offsite");
    expect((await engine.refresh()).map((s) => s.op)).toEqual(["refresh", "refresh", "refresh", "refresh"]);
    expectOnceEach("scanner", "offsite");
  });

  test("--replace of a snapshot configuration: refused without deleteBeforeReplace; with it, deleted then written, and a refresh keeps it", async () => {
    const config = (extra: Partial<NativeResource> = {}) => [resource("snapshot:index:SnapshotAutoConfig", "offsite", offsite, extra)];
    await engine.up(config());
    await expect(engine.up(config(), [], { replace: ["offsite"] })).rejects.toThrow(
      /`pulumi up --replace`\? Set the resource option `deleteBeforeReplace: true`/,
    );
    expect(engine.held(config()[0].urn)?.id).toBe("offsite");
    expect(engine.pendingDeletes()).toEqual([]);
    expect(await engine.preview(config({ deleteBeforeReplace: true }), [], { replace: ["offsite"] })).toEqual([
      { name: "offsite", op: "replace", deleteBeforeReplace: true, dependents: [] },
    ]);
    emulator.requests.reset();
    expect(ops(await engine.up(config({ deleteBeforeReplace: true }), [], { replace: ["offsite"] }))).toEqual({ offsite: "replace" });
    expect(emulator.requests.byRoute()).toMatchObject({
      "DELETE /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
      "POST /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
    });
    expect([...emulator.snapshot.configs.keys()]).toEqual(["offsite"]);
    expect(ops(await engine.refresh())).toEqual({ offsite: "refresh" });
    expect(engine.held(config()[0].urn)?.id).toBe("offsite");
  });

  test("a task imported under another name than its resource keeps that name when a new organization replaces it", async () => {
    emulator.runTask.addTask("acme", { name: "legacy-name", url: "https://legacy.example/hook" });
    const task = (inputs: Props, extra: Partial<NativeResource> = {}) =>
      resource("runtask:index:RunTask", "scanner-res", { url: "https://legacy.example/hook", ...inputs }, extra);
    expect(ops(await engine.up([task({}, { importId: "acme/legacy-name" })]))).toEqual({ "scanner-res": "import" });
    const preview = await engine.preview([task({ organization: "beta" })]);
    expect(preview).toEqual([expect.objectContaining({ name: "scanner-res", op: "replace", deleteBeforeReplace: false })]);
    expect(preview[0].changes).toEqual([{ path: "organization", old: "acme", new: "beta" }]);
    await engine.up([task({ organization: "beta" })]);
    expect(emulator.runTask.tasks().map((t) => [t.organization, t.name])).toEqual([["beta", "legacy-name"]]);
  });
});

describe("drift", () => {
  const scanner = (extra: Partial<NativeResource> = {}, global: Props = { enabled: false }) => [
    resource("runtask:index:RunTask", "scanner", { url: "https://hooks.example.com/scan", enabled: true, global }, extra),
  ];
  const task = () => emulator.runTask.store.tasks.get(tasksNamed("scanner")[0].id)!;

  test("a task disabled outside: refresh shows true => false, the next preview false => true, and up re-enables it", async () => {
    await engine.up(scanner());
    task().enabled = false;
    expect(await engine.refresh()).toEqual([{ name: "scanner", op: "refresh", changes: [{ path: "enabled", old: true, new: false }] }]);
    expect(await engine.preview(scanner())).toEqual([
      { name: "scanner", op: "update", changed: ["enabled"], changes: [{ path: "enabled", old: false, new: true }] },
    ]);
    expect(ops(await engine.up(scanner()))).toEqual({ scanner: "update" });
    expect(task().enabled).toBe(true);
  });

  test("ignoreChanges keeps an outside change of global.enabled, whichever form names it: global.enabled, global.*, global[*], global", async () => {
    await engine.up(scanner());
    for (const path of ["global.enabled", "global.*", "global[*]", "global"]) {
      // The program keeps the value the service had; the change made outside is the opposite.
      const programs = task().global.enabled;
      const outside = (task().global.enabled = !programs);
      await engine.refresh();
      const ignoring = scanner({ ignoreChanges: [path] }, { enabled: programs });
      expect([path, ops(await engine.preview(ignoring))]).toEqual([path, { scanner: "same" }]);
      emulator.requests.reset();
      expect(ops(await engine.up(ignoring))).toEqual({ scanner: "same" });
      expect([path, emulator.requests.writes(), task().global.enabled]).toEqual([path, 0, outside]);
    }
  });
});
