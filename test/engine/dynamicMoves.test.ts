import { engineSuite } from "../support/engine/engineSuite";
import { EngineStack, opsByName, type EngineRun, type ProgramSpec, type ResourceSpec } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { nameOf } from "../support/engine/stateFile";
import { expectScannerAndOffsiteOnce } from "../support/emulatorStack";

/**
 * Replacements and moves of the dynamic resources through the Pulumi engine, on one stack: a task named `scanner`
 * attached to two workspaces, and a configuration named `offsite`, moved and replaced as users do (pulumi/pulumi
 * `step_generator.go`). After each step the service holds exactly the objects the state names, once each.
 */
jest.setTimeout(600_000);

const suite = engineSuite();
let stack: EngineStack;

beforeAll(() => {
  stack = suite.stack("inline", "dynamic-moves");
});

const ws = (name: string) => suite.emulator.runTask.workspace(name).id;
const tasksNamed = (name: string) => suite.emulator.runTask.tasks().filter((t) => t.name === name);
const offsite = { name: "offsite", interval: 3600, pathPrefix: "backups", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };

interface Layout {
  /** The task's and the configuration's resource names. */
  task?: string;
  config?: string;
  /** Options of both. */
  options?: Record<string, unknown>;
  /** Arguments of both, beyond the usual. */
  extra?: Record<string, unknown>;
  /** Arguments of the task alone, beyond the usual. */
  taskArgs?: Record<string, unknown>;
  /** Arguments of the configuration alone, beyond the usual. */
  configArgs?: Record<string, unknown>;
  /** Declared in a component `group`. */
  inGroup?: boolean;
}

/** The program: the task and its two associations, and the configuration, under the names and options of `layout`. */
function program({
  task = "scanner",
  config = "offsite",
  options = {},
  extra = {},
  taskArgs = {},
  configArgs = {},
  inGroup = false,
}: Layout = {}): ProgramSpec {
  const parent = inGroup ? { parent: "group" } : {};
  const resources: ResourceSpec[] = [
    ...(inGroup ? [{ type: "component", name: "group" }] : []),
    { type: "SnapshotAutoConfig", name: config, args: { ...offsite, ...extra, ...configArgs }, options: { ...options, ...parent } },
    {
      type: "RunTask",
      name: task,
      args: { name: "scanner", url: "https://hooks.example.com/scan", ...extra, ...taskArgs },
      options: { ...options, ...parent },
    },
    { type: "WorkspaceRunTask", name: "on-app", args: { workspaceId: ws("app"), taskId: { $ref: task }, enforcementLevel: "mandatory" } },
    { type: "WorkspaceRunTask", name: "on-web", args: { workspaceId: ws("web"), taskId: { $ref: task }, enforcementLevel: "advisory" } },
  ];
  return { resources };
}

async function up(spec: ProgramSpec, options: Record<string, unknown> = {}): Promise<EngineRun> {
  const run = await stack.program(spec).up(options);
  expectServiceMatchesState(suite.emulator, stack);
  return run;
}

const expectOnceEach = (task: string, config: string) => expectScannerAndOffsiteOnce(suite.emulator, stack, task, config);

test("moved to new names: refused without aliases, deleting nothing; with aliases nothing is made or deleted; into a component with an alias to the stack, the same", async () => {
  expect((await up(program())).changes).toEqual({ create: 5 });
  const moved = { task: "scanner-moved", config: "offsite-moved" };

  const refused = await up(program(moved));
  expect(refused.ok).toBe(false);
  expect(refused.output).toMatch(/already exists \(\S+\); a create never overwrites it\. .*Renamed or moved in the program.*`aliases`/);
  expectOnceEach("scanner", "offsite");

  suite.emulator.requests.reset();
  const aliased = await up(program({ ...moved, options: { aliases: [{ name: "scanner" }, { name: "offsite" }] } }));
  expect(opsByName(aliased)).toEqual({ "scanner-moved": "same", "offsite-moved": "same", "on-app": "same", "on-web": "same" });
  expect(suite.emulator.requests.writes()).toBe(0);
  expectOnceEach("scanner-moved", "offsite-moved");

  const grouped = await up(program({ ...moved, inGroup: true, options: { aliases: [{ parent: "root" }] } }));
  expect(opsByName(grouped)).toMatchObject({ group: "create", "scanner-moved": "same", "offsite-moved": "same" });
  expect(suite.emulator.requests.writes()).toBe(0);
  expectOnceEach("scanner-moved", "offsite-moved");
});

test("moved with adopt: true and no aliases: the new resources take the objects over, and the old resources' deletes leave them in place", async () => {
  const task = tasksNamed("scanner")[0].id;
  const adopted = await up(program({ task: "scanner-adopted", config: "offsite-adopted", extra: { adopt: true } }));
  expect(opsByName(adopted)).toMatchObject({
    "scanner-adopted": "create",
    "offsite-adopted": "create",
    "scanner-moved": "delete",
    "offsite-moved": "delete",
  });
  expect(adopted.output).toMatch(/run task task-\S+ is not deleted: another resource of this stack holds it/);
  expect(tasksNamed("scanner")[0].id).toBe(task);
  expectOnceEach("scanner-adopted", "offsite-adopted");

  // A refresh finds every object; the next up changes nothing.
  expect((await stack.refresh()).changes).not.toHaveProperty("delete");
  expect((await up(program({ task: "scanner-adopted", config: "offsite-adopted", extra: { adopt: true } }))).changes).toEqual({ same: 5 });
  expect((await up(program())).ok).toBe(false); // named back without aliases: refused, nothing deleted
  expectOnceEach("scanner-adopted", "offsite-adopted");
  expect(
    (await up(program({ options: { aliases: [{ name: "scanner-adopted" }, { name: "offsite-adopted" }] }, extra: { adopt: true } }))).changes,
  ).toEqual({ same: 5 });
  expectOnceEach("scanner", "offsite");
});

test("replaceOnChanges does not reach a dynamic resource, '*' included: the dynamic plugin reports no changed keys, so a change is an update", async () => {
  const base = program({ extra: { adopt: true } });
  const id = tasksNamed("scanner")[0].id;
  const withUrl = (url: string, replaceOnChanges: string[]) => ({
    resources: base.resources.map((r) => (r.name === "scanner" ? { ...r, args: { ...r.args, url }, options: { replaceOnChanges } } : r)),
  });
  const updated = await up(withUrl("https://hooks.example.com/b", ["url"]));
  expect(opsByName(updated)).toMatchObject({ scanner: "update" });
  expect(tasksNamed("scanner").map((t) => [t.id, t.url])).toEqual([[id, "https://hooks.example.com/b"]]);

  // "*" matches no key either (only the init errors of a partial failure, see sharedObjects.test.ts).
  const star = await up(withUrl("https://hooks.example.com/c", ["*"]));
  expect(opsByName(star)).toMatchObject({ scanner: "update", "on-app": "same", "on-web": "same" });
  expect(tasksNamed("scanner").map((t) => [t.id, t.url])).toEqual([[id, "https://hooks.example.com/c"]]);
  expectOnceEach("scanner", "offsite");
});

test("--replace: refused without deleteBeforeReplace (created first, it would be a duplicate); with it, deleted then written, associations and all", async () => {
  const spec = program({ taskArgs: { url: "https://hooks.example.com/c" } });
  const offsiteUrn = stack.state().resources.find((r) => nameOf(r.urn) === "offsite")!.urn;
  const scannerUrn = stack.state().resources.find((r) => nameOf(r.urn) === "scanner")!.urn;
  const refused = await up(spec, { replace: [offsiteUrn] });
  // The state shows the cause: this very resource holds the object, which its replacement would create again first.
  expect(refused.output).toMatch(
    /This very resource holds it in the stack's state: its replacement creates the new object before it deletes the old one, and both are one object\. Set the resource option `deleteBeforeReplace: true`/,
  );
  expect(refused.output).not.toMatch(/cannot be told|adopt: true/);
  expectOnceEach("scanner", "offsite");

  const deletingFirst = program({ taskArgs: { url: "https://hooks.example.com/c" }, options: { deleteBeforeReplace: true } });
  const preview = await stack.program(deletingFirst).preview({ replace: [offsiteUrn] });
  expect(opsByName(preview)).toMatchObject({ offsite: "replace", scanner: "same" });
  expect(preview.output).toMatch(/offsite\s+delete original/);
  suite.emulator.requests.reset();
  const replaced = await up(deletingFirst, { replace: [offsiteUrn] });
  expect(opsByName(replaced)).toMatchObject({ offsite: "replace", scanner: "same" });
  expect(suite.emulator.requests.byRoute()).toMatchObject({
    "DELETE /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
    "POST /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
  });
  expectOnceEach("scanner", "offsite");

  const before = tasksNamed("scanner")[0].id;
  const task = await up(deletingFirst, { replace: [scannerUrn] });
  expect(opsByName(task)).toMatchObject({ scanner: "replace", "on-app": "replace", "on-web": "replace", offsite: "same" });
  expect(tasksNamed("scanner")[0].id).not.toBe(before);
  expectOnceEach("scanner", "offsite");
});

test("--target changes the targeted resource alone", async () => {
  const spec = program({ taskArgs: { url: "https://hooks.example.com/d" }, configArgs: { retain: 4 } });
  const scannerUrn = stack.state().resources.find((r) => nameOf(r.urn) === "scanner")!.urn;
  const targeted = await up(spec, { target: [scannerUrn] });
  expect(opsByName(targeted)).toMatchObject({ scanner: "update" });
  expect(opsByName(targeted)).not.toHaveProperty("offsite", "update");
  expect([tasksNamed("scanner")[0].url, suite.emulator.snapshot.configs.get("offsite")!.config.retain]).toEqual(["https://hooks.example.com/d", 1]);
  expect(opsByName(await up(spec))).toMatchObject({ offsite: "update", scanner: "same" });
  expect(suite.emulator.snapshot.configs.get("offsite")!.config.retain).toBe(4);
});

test("a configuration without `name` renamed: with aliases, the same object, which keeps its name; without, made anew under the new name and the old deleted", async () => {
  const unnamed = (resource: string, aliases?: string) => ({
    resources: [
      {
        type: "SnapshotAutoConfig",
        name: resource,
        args: { interval: 3600, storageType: "local", pathPrefix: "/var/snapshots", localMaxSpace: 1_000_000 },
        options: aliases ? { aliases: [{ name: aliases }] } : {},
      },
    ],
  });
  await up(unnamed("nightly"));
  const aliased = await up(unnamed("nightly-renamed", "nightly"));
  expect(opsByName(aliased)).toMatchObject({ "nightly-renamed": "same" });
  expect([...suite.emulator.snapshot.configs.keys()]).toEqual(["nightly"]);
  const renamed = await up(unnamed("nightly-2"));
  expect(opsByName(renamed)).toEqual({ "nightly-2": "create", "nightly-renamed": "delete" });
  expect([...suite.emulator.snapshot.configs.keys()]).toEqual(["nightly-2"]);
});

describe("drift", () => {
  const scanner = (options: Record<string, unknown> = {}, global = { enabled: false }): ProgramSpec => ({
    resources: [{ type: "RunTask", name: "scanner", args: { url: "https://hooks.example.com/scan", enabled: true, global }, options }],
  });
  const task = () => suite.emulator.runTask.store.tasks.get(tasksNamed("scanner")[0].id)!;

  test("a task disabled outside: refresh shows it, the next preview shows the change back, and up re-enables it", async () => {
    await up(scanner());
    task().enabled = false;
    const refreshed = await stack.refresh();
    expect(refreshed.output).toMatch(/RunTask scanner updated .*\[diff: ~enabled\]/);
    const preview = await stack.program(scanner()).preview({ diff: true });
    expect(preview.output).toMatch(/~ enabled\s*: false => true/);
    expect(opsByName(await up(scanner()))).toEqual({ scanner: "update" });
    expect(task().enabled).toBe(true);
  });

  test("ignoreChanges keeps an outside change of global.enabled, whichever form names it: global.enabled, global.*, global[*], global", async () => {
    for (const path of ["global.enabled", "global.*", "global[*]", "global"]) {
      // The program keeps the value the service had; the change made outside is the opposite.
      const programs = task().global.enabled;
      const outside = (task().global.enabled = !programs);
      await stack.refresh();
      const ignoring = scanner({ ignoreChanges: [path] }, { enabled: programs });
      expect([path, opsByName(await stack.program(ignoring).preview())]).toEqual([path, { scanner: "same" }]);
      suite.emulator.requests.reset();
      expect(opsByName(await up(ignoring))).toEqual({ scanner: "same" });
      expect([path, suite.emulator.requests.writes(), task().global.enabled]).toEqual([path, 0, outside]);
    }
  });
});

test("destroy leaves the service empty", async () => {
  expect((await stack.destroy()).error).toBeUndefined();
  expect([suite.emulator.snapshot.configs.size, suite.emulator.runTask.tasks().length, suite.emulator.runTask.workspaceTasks().length]).toEqual([
    0, 0, 0,
  ]);
  expect(stack.state().resources).toEqual([]);
});
