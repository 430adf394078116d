import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { engineSuite, scenarioEmulator } from "../support/engine/engineSuite";
import { EngineStack, opsByName, type EngineRun, type ProgramSpec, type ResourceSpec } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { isEncryptedSecret, nameOf } from "../support/engine/stateFile";
import { emulatorStackConfig, RUNTASK_TOKEN, expectScannerAndOffsiteOnce } from "../support/emulatorStack";
import { Switchboard } from "../support/switchboard";

/**
 * Replacements, moves and partial failures of the provider plugins' resources through the Pulumi engine: a
 * TypeScript program of `pulumi.CustomResource`s (`runtask:index:RunTask`, ...) with explicit `ProviderResource`s,
 * run inline. A task named `scanner` attached to two workspaces, and a configuration named `offsite`, moved and
 * replaced as users do. After each step the service holds exactly the objects the state names, once each.
 */
jest.setTimeout(600_000);

const calls = new Switchboard();
// The spec's letter: an associate answered 204 with no body, whose id only the workspace's list gives (the partial failures).
const suite = engineSuite({ calls, emulator: { ...scenarioEmulator(["app", "web"], [{ name: "beta", workspaces: [] }]), letterOfSpec: true } });
let stack: EngineStack;

beforeAll(() => {
  stack = suite.stack("inline", "plugin-moves");
});

const ws = (name: string) => suite.emulator.runTask.workspace(name).id;
const tasksNamed = (name: string) => suite.emulator.runTask.tasks().filter((t) => t.name === name);
const offsite = { name: "offsite", interval: 3600, pathPrefix: "backups", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };
const explicitRunTask = () => ({
  type: "pulumi:providers:runtask",
  name: "runtask-acme",
  args: { address: suite.emulator.url, token: RUNTASK_TOKEN, organization: "acme" },
});
const explicitSnapshot = () => ({
  type: "pulumi:providers:snapshot",
  name: "snapshot-main",
  args: { address: suite.emulator.url, token: DEFAULT_SNAPSHOT_TOKEN },
});

interface Layout {
  task?: string;
  config?: string;
  /** Options of the task and the configuration. */
  options?: Record<string, unknown>;
  taskOptions?: Record<string, unknown>;
  configOptions?: Record<string, unknown>;
  taskArgs?: Record<string, unknown>;
  configArgs?: Record<string, unknown>;
  /** Each resource on an explicit provider of its package. */
  explicit?: boolean;
  inGroup?: boolean;
}

function program({
  task = "scanner",
  config = "offsite",
  options = {},
  taskOptions = {},
  configOptions = {},
  taskArgs = {},
  configArgs = {},
  explicit = false,
  inGroup = false,
}: Layout = {}): ProgramSpec {
  const parent = inGroup ? { parent: "group" } : {};
  const runtask = explicit ? { provider: "runtask-acme" } : {};
  const snapshot = explicit ? { provider: "snapshot-main" } : {};
  const resources: ResourceSpec[] = [
    ...(explicit ? [explicitRunTask(), explicitSnapshot()] : []),
    ...(inGroup ? [{ type: "component", name: "group" }] : []),
    {
      type: "snapshot:index:SnapshotAutoConfig",
      name: config,
      args: { ...offsite, ...configArgs },
      options: { ...options, ...configOptions, ...parent, ...snapshot },
    },
    {
      type: "runtask:index:RunTask",
      name: task,
      args: { name: "scanner", url: "https://hooks.example.com/scan", ...taskArgs },
      options: { ...options, ...taskOptions, ...parent, ...runtask },
    },
    {
      type: "runtask:index:WorkspaceRunTask",
      name: "on-app",
      args: { workspaceId: ws("app"), taskId: { $ref: task }, enforcementLevel: "mandatory" },
      options: runtask,
    },
    {
      type: "runtask:index:WorkspaceRunTask",
      name: "on-web",
      args: { workspaceId: ws("web"), taskId: { $ref: task }, enforcementLevel: "advisory" },
      options: runtask,
    },
  ];
  return { resources };
}

async function up(spec: ProgramSpec, options: Record<string, unknown> = {}): Promise<EngineRun> {
  const run = await stack.program(spec).up(options);
  expectServiceMatchesState(suite.emulator, stack);
  return run;
}

const urnOf = (name: string) => stack.state().resources.find((r) => nameOf(r.urn) === name)!.urn;

const expectOnceEach = (task: string, config: string) => expectScannerAndOffsiteOnce(suite.emulator, stack, task, config);

test("moves: refused without aliases, deleting nothing; with aliases nothing is made or deleted; to explicit providers and into a component, the same", async () => {
  expect((await up(program())).changes).toEqual({ create: 5 });
  const moved = { task: "scanner-moved", config: "offsite-moved" };

  const refused = await up(program(moved));
  expect(refused.ok).toBe(false);
  expect(refused.output).toMatch(/already exists \(\S+\); a create never overwrites it\. .*Renamed or moved in the program.*`aliases`/);
  expectOnceEach("scanner", "offsite");

  suite.emulator.requests.reset();
  const aliased = await up(program({ ...moved, options: { aliases: [{ name: "scanner" }, { name: "offsite" }] } }));
  expect(opsByName(aliased)).toEqual({ "scanner-moved": "same", "offsite-moved": "same", "on-app": "same", "on-web": "same" });
  expectOnceEach("scanner-moved", "offsite-moved");

  // A resource's provider is not part of its URN: a move to an explicit provider is no move at all.
  const explicit = await up(program({ ...moved, explicit: true }));
  expect(opsByName(explicit)).toMatchObject({ "scanner-moved": "same", "offsite-moved": "same", "on-app": "same", "on-web": "same" });
  expect(stack.state().resources.find((r) => nameOf(r.urn) === "scanner-moved")?.provider).toMatch(/::runtask-acme::/);

  const grouped = await up(program({ ...moved, explicit: true, inGroup: true, options: { aliases: [{ parent: "root" }] } }));
  expect(opsByName(grouped)).toMatchObject({ group: "create", "scanner-moved": "same", "offsite-moved": "same" });
  expect(suite.emulator.requests.writes()).toBe(0);
  expectOnceEach("scanner-moved", "offsite-moved");

  // Back to the default providers and the stack, as at first, aliased by the URNs they had.
  const back = await up(program({ taskOptions: { aliases: [urnOf("scanner-moved")] }, configOptions: { aliases: [urnOf("offsite-moved")] } }));
  expect(opsByName(back)).toMatchObject({ scanner: "same", offsite: "same", group: "delete" });
  expectOnceEach("scanner", "offsite");
});

test("replaceOnChanges: [url] on a task with two associations: deleted before it is created, its associations with it; one task after", async () => {
  const before = tasksNamed("scanner")[0].id;
  const replacing = (url: string) => {
    const spec = program({ taskArgs: { url } });
    spec.resources.find((r) => r.name === "scanner")!.options = { replaceOnChanges: ["url"] };
    return spec;
  };
  const preview = await stack.program(replacing("https://hooks.example.com/moved")).preview({ diff: true });
  expect(opsByName(preview)).toMatchObject({ scanner: "replace", "on-app": "replace", "on-web": "replace", offsite: "same" });
  expect(preview.output).toMatch(/~ url: "https:\/\/hooks.example.com\/scan" => "https:\/\/hooks.example.com\/moved"/);
  const replaced = await up(replacing("https://hooks.example.com/moved"));
  expect(opsByName(replaced)).toEqual({ offsite: "same", scanner: "replace", "on-app": "replace", "on-web": "replace" });
  // Its name kept, the old task goes first (the Diff's deleteBeforeReplace), its associations before it.
  const order = replaced.steps.map((s) => `${s.op} ${nameOf(s.urn)}`);
  expect(order.indexOf("delete-replaced scanner")).toBeLessThan(order.indexOf("create-replacement scanner"));
  expect(order.indexOf("delete-replaced on-app")).toBeLessThan(order.indexOf("delete-replaced scanner"));
  const [task] = tasksNamed("scanner");
  expect([task.id === before, task.url]).toEqual([false, "https://hooks.example.com/moved"]);
  expectOnceEach("scanner", "offsite");
  expect((await stack.refresh()).changes).toEqual({ same: 5 });
  expectOnceEach("scanner", "offsite");
  await up(program({ taskArgs: { url: "https://hooks.example.com/moved" } }));
});

test("--replace of a configuration: refused without deleteBeforeReplace; with it, deleted then written, and a refresh keeps it", async () => {
  const spec = program({ taskArgs: { url: "https://hooks.example.com/moved" } });
  const refused = await up(spec, { replace: [urnOf("offsite")] });
  // The state shows the cause: this very resource holds the object, which its replacement would create again first.
  expect(refused.output).toMatch(
    /This very resource holds it in the stack's state: its replacement creates the new object before it deletes the old one, and both are one object\. Set the resource option `deleteBeforeReplace: true`/,
  );
  expect(refused.output).not.toMatch(/cannot be told|adopt: true/);
  expectOnceEach("scanner", "offsite");
  const deletingFirst = program({ taskArgs: { url: "https://hooks.example.com/moved" }, options: { deleteBeforeReplace: true } });
  suite.emulator.requests.reset();
  expect(opsByName(await up(deletingFirst, { replace: [urnOf("offsite")] }))).toMatchObject({ offsite: "replace", scanner: "same" });
  expect(suite.emulator.requests.byRoute()).toMatchObject({
    "DELETE /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
    "POST /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
  });
  expect((await stack.refresh()).changes).toEqual({ same: 5 });
  expectOnceEach("scanner", "offsite");
});

test("a task imported under another name than its resource keeps that name when a new organization replaces it", async () => {
  suite.emulator.runTask.addTask("acme", { name: "legacy-name", url: "https://legacy.example/hook" });
  const task = (args: Record<string, unknown>, options: Record<string, unknown> = {}) => ({
    resources: [
      ...program({ taskArgs: { url: "https://hooks.example.com/moved" } }).resources,
      { type: "runtask:index:RunTask", name: "legacy", args: { url: "https://legacy.example/hook", ...args }, options },
    ],
  });
  const imported = await up(task({}, { import: "acme/legacy-name" }));
  expect(opsByName(imported)).toMatchObject({ legacy: "import" });
  expect(stack.state().resources.find((r) => nameOf(r.urn) === "legacy")?.id).toBe(tasksNamed("legacy-name")[0].id);
  const preview = await stack.program(task({ organization: "beta" })).preview({ diff: true });
  expect(opsByName(preview)).toMatchObject({ legacy: "replace" });
  expect(preview.output).toMatch(/~ organization\s*: "acme" => "beta"/);
  await up(task({ organization: "beta" }));
  expect(
    suite.emulator.runTask
      .tasks()
      .filter((t) => t.name === "legacy-name")
      .map((t) => t.organization),
  ).toEqual(["beta"]);
  await up(program({ taskArgs: { url: "https://hooks.example.com/moved" } }));
  expectOnceEach("scanner", "offsite");
});

test("partial failures: a storage-type switch whose POST and write-back fail is recorded as it was, its secret kept; the next up writes it", async () => {
  const key = "canary-secret-access-key-51d0";
  const nightly = (args: Record<string, unknown>) => ({
    resources: [{ type: "snapshot:index:SnapshotAutoConfig", name: "nightly", args, secretArgs: ["cloudASecretAccessKey"] }],
  });
  const s3 = nightly({
    interval: 3600,
    pathPrefix: "backups",
    storageType: "cloudA-s3",
    cloudAS3Bucket: "b",
    cloudAS3Region: "r",
    cloudASecretAccessKey: key,
  });
  const local = nightly({ interval: 3600, pathPrefix: "/tmp/p", storageType: "local", localMaxSpace: 10 });
  const partial = suite.stack("inline", "plugin-partial", {
    config: { ...emulatorStackConfig(suite.emulator), "snapshot:maxRetries": "1", "runtask:maxRetries": "1" },
  });
  try {
    expect((await partial.program(s3).up()).error).toBeUndefined();
    calls.answers.push((req) => (req.method === "POST" ? { status: 400, body: { errors: ["storage backend refused it"] } } : undefined));
    const failed = await partial.program(local).up();
    expect(failed.output).toContain("writing it back failed too");
    expect(suite.emulator.snapshot.configs.has("nightly")).toBe(false);
    const held = partial.state().resources.find((r) => nameOf(r.urn) === "nightly")!;
    expect(held.initErrors?.[0]).toContain("the next `pulumi up` writes it again");
    // Recorded as it was, the credential still a secret.
    expect(held.outputs).toMatchObject({ storageType: "cloudA-s3" });
    expect(isEncryptedSecret(held.outputs?.cloudASecretAccessKey)).toBe(true);
    expect(partial.state().text).not.toContain(key);
    calls.reset();

    expect(opsByName(await partial.program(s3).up())).toEqual({ nightly: "update" });
    expect(suite.emulator.snapshot.configs.get("nightly")?.config).toMatchObject({ storage_type: "cloudA-s3", cloudA_secret_access_key: key });
    expect(partial.state().resources.find((r) => nameOf(r.urn) === "nightly")?.initErrors).toBeUndefined();
    expect((await partial.program(s3).up()).changes).toEqual({ same: 2 });
    expect((await partial.destroy()).error).toBeUndefined();
    expect(suite.emulator.snapshot.configs.has("nightly")).toBe(false);
  } finally {
    partial.remove();
  }
});

test("partial failures: an association made (204) whose id the list cannot give is recorded by its task; the next up updates it and a refresh finds its id", async () => {
  const spec = (enforcementLevel: string) => {
    const base = program({ taskArgs: { url: "https://hooks.example.com/moved" } });
    base.resources.find((r) => r.name === "on-app")!.args!.enforcementLevel = enforcementLevel;
    return base;
  };
  const taskId = tasksNamed("scanner")[0].id;
  suite.emulator.runTask.store.workspaceTasks.delete(suite.emulator.runTask.workspaceTasks().find((a) => a.workspaceId === ws("app"))!.id);
  await stack.refresh();
  // The list the create reads before its associate call answers; those after it fail.
  let associated = false;
  calls.answers.push((req, route) => void (associated ||= req.method === "POST" && route === "/api/v2/workspaces/:ws/tasks"));
  calls.answers.push((req, route) =>
    associated && req.method === "GET" && route === "/api/v2/workspaces/:ws/tasks"
      ? { status: 503, body: { errors: [{ status: "503" }] } }
      : undefined,
  );
  const failed = await up(spec("mandatory"));
  expect(failed.ok).toBe(false);
  const recorded = stack.state().resources.find((r) => nameOf(r.urn) === "on-app")!;
  expect(recorded).toMatchObject({ id: `${ws("app")}/${taskId}`, initErrors: [expect.stringContaining("It is recorded by its task")] });
  calls.reset();

  // Not refused "already attached": the next up updates the association it recorded.
  expect(opsByName(await up(spec("advisory")))).toMatchObject({ scanner: "same", "on-app": "update" });
  expect(suite.emulator.runTask.workspaceTasks().find((a) => a.workspaceId === ws("app"))).toMatchObject({ taskId, enforcementLevel: "advisory" });
  await stack.refresh();
  const found = suite.emulator.runTask.workspaceTasks().find((a) => a.workspaceId === ws("app"))!;
  expect(stack.state().resources.find((r) => nameOf(r.urn) === "on-app")?.id).toBe(`${ws("app")}/${found.id}`);
  await up(spec("mandatory"));
  expectOnceEach("scanner", "offsite");
});

describe("drift", () => {
  const scanner = (options: Record<string, unknown> = {}, global: Record<string, unknown> = { enabled: false }): ProgramSpec => ({
    resources: [
      { type: "runtask:index:RunTask", name: "drifting", args: { url: "https://hooks.example.com/drift", enabled: true, global }, options },
    ],
  });
  const task = () => suite.emulator.runTask.store.tasks.get(tasksNamed("drifting")[0].id)!;
  let drifting: EngineStack;

  beforeAll(() => {
    drifting = suite.stack("inline", "plugin-drift");
  });

  afterAll(async () => {
    await drifting.destroy();
    drifting.remove();
  });

  test("a task disabled outside: refresh shows it as the service's value, the next preview the change back, and up re-enables it", async () => {
    await drifting.program(scanner()).up();
    task().enabled = false;
    const refreshed = await drifting.refresh();
    expect(refreshed.output).toMatch(/RunTask drifting updated .*\[diff: ~enabled\]/);
    const preview = await drifting.program(scanner()).preview({ diff: true });
    expect(preview.output).toMatch(/~ enabled\s*: false => true/);
    expect(opsByName(await drifting.program(scanner()).up())).toEqual({ drifting: "update" });
    expect(task().enabled).toBe(true);
  });

  test("ignoreChanges keeps an outside change of global.enabled, whichever form names it: global.enabled, global.*, global[*], global", async () => {
    for (const path of ["global.enabled", "global.*", "global[*]", "global"]) {
      // The program keeps the value the service had; the change made outside is the opposite.
      const programs = task().global.enabled;
      const outside = (task().global.enabled = !programs);
      await drifting.refresh();
      const ignoring = scanner({ ignoreChanges: [path] }, { enabled: programs });
      expect([path, opsByName(await drifting.program(ignoring).preview())]).toEqual([path, { drifting: "same" }]);
      suite.emulator.requests.reset();
      expect(opsByName(await drifting.program(ignoring).up())).toEqual({ drifting: "same" });
      expect([path, suite.emulator.requests.writes(), task().global.enabled]).toEqual([path, 0, outside]);
    }
  });
});

test("destroy leaves the service empty", async () => {
  expect((await stack.destroy()).error).toBeUndefined();
  expect(stack.state().resources).toEqual([]);
  expect(suite.emulator.runTask.workspaceTasks()).toEqual([]);
  expect(suite.emulator.snapshot.configs.size).toBe(0);
});
