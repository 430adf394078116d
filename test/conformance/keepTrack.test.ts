import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator, type TokenGrant } from "../../emulator";
import { createConsumerProject, dynamicProviderPlugin, Engine, type ConsumerProject, type ProgramSpec, type Step } from "../../engine";
import { Switchboard } from "../support/switchboard";

/**
 * Never forget an object, never leave a setting behind: through the real dynamic-provider plugin, driven as the
 * engine drives it, against servers that answer as the specs allow (the emulator's options).
 */
const FULL = "full-token";
const LIST_NOT_DISSOCIATE = "may-list-not-dissociate";
const LIST_NOT_DELETE_TASKS = "may-list-not-delete-tasks";
const TASKS_ONLY = "may-manage-tasks-not-workspaces";
const SNAPSHOT_TOKEN = "snapshot-token";
const TOKENS: Record<string, TokenGrant> = {
  [FULL]: { owner: true },
  [LIST_NOT_DISSOCIATE]: { manageRunTasks: true, manageWorkspaceRunTasks: true, deniedRoutes: ["DELETE /workspaces/:ws/tasks/:id"] },
  [LIST_NOT_DELETE_TASKS]: { manageRunTasks: true, manageWorkspaceRunTasks: true, deniedRoutes: ["DELETE /tasks/:id"] },
  [TASKS_ONLY]: { manageRunTasks: true },
};

let fixture: ConsumerProject;
let emulator: Emulator;
let engine: Engine;
let snapshotDir: string;
const calls = new Switchboard();

const config = (runTaskToken = FULL) => ({
  "snapshot:address": emulator.url,
  "snapshot:token": SNAPSHOT_TOKEN,
  "runtask:address": emulator.url,
  "runtask:token": runTaskToken,
  "runtask:organization": "acme",
});

beforeAll(async () => {
  fixture = createConsumerProject({ project: "keep-track", stack: "keep" });
  snapshotDir = mkdtempSync(join(tmpdir(), "keep-track-snapshots-"));
  emulator = await startEmulator({
    snapshot: { tokens: { [SNAPSHOT_TOKEN]: { sudo: true } }, takeSnapshots: false, postMerges: true },
    // A task's answers leave out the associations the token may not see, as the spec's 404 rule allows.
    runTask: { tokens: TOKENS, organizations: [{ name: "acme", workspaces: [{ name: "app-production" }] }], includeVisibleOnly: true },
    interceptors: [calls.interceptor],
  });
  engine = new Engine({ plugin: dynamicProviderPlugin(fixture.dir), stateFile: join(fixture.dir, "state.json"), config: config() });
});

afterEach(async () => {
  calls.reset();
  engine.setConfig(config());
  await engine.destroy();
});

afterAll(async () => {
  await emulator?.close();
  fixture?.remove();
  rmSync(snapshotDir, { recursive: true, force: true });
});

const program = (spec: ProgramSpec) => fixture.capture({ snapshots: [], runTasks: [], attachments: [], ...spec });
const names = () =>
  engine
    .state()
    .resources.map((r) => r.name)
    .sort();
const ops = (steps: Step[]) => Object.fromEntries(steps.map((s) => [s.name, s.op]));
const writesDuring = async (run: () => Promise<unknown>) => {
  emulator.requests.reset();
  await run();
  return emulator.requests.writes();
};

describe("a token that may list but not act: destroy fails and forgets nothing; a full token then destroys", () => {
  const attached = (): ProgramSpec => ({
    runTasks: [{ resource: "scanner", args: { url: "https://hooks.example.com/scan" } }],
    attachments: [
      { resource: "attach", task: "scanner", args: { workspaceId: emulator.runTask.workspace("app-production").id, enforcementLevel: "mandatory" } },
    ],
  });

  test("may list a workspace's run tasks but not dissociate: the association stays in the state and on the service", async () => {
    await engine.up(program(attached()));
    engine.setConfig(config(LIST_NOT_DISSOCIATE));
    await expect(engine.destroy()).rejects.toThrow(
      /the token may list the workspace's run tasks but not delete this association.*Manage Workspace Run Tasks/,
    );
    expect(names()).toEqual(["attach", "scanner"]);
    expect(emulator.runTask.workspaceTasks()).toHaveLength(1);
    engine.setConfig(config(FULL));
    await engine.destroy();
    expect(names()).toEqual([]);
    expect([emulator.runTask.tasks(), emulator.runTask.workspaceTasks()]).toEqual([[], []]);
  });

  test("may list an organization's run tasks but not delete them: the task stays in the state and on the service", async () => {
    await engine.up(program(attached()));
    engine.setConfig(config(LIST_NOT_DELETE_TASKS));
    await expect(engine.destroy()).rejects.toThrow(/the token may list the organization's run tasks but not delete this one.*Manage Run Tasks/);
    expect(names()).toEqual(["scanner"]);
    expect(emulator.runTask.tasks()).toHaveLength(1);
    engine.setConfig(config(FULL));
    await engine.destroy();
    expect(emulator.runTask.tasks()).toEqual([]);
  });
});

test("a token that may not see the workspace, on a service whose task include leaves out what it may not see: refresh and destroy of the association fail naming both ways out, and it stays", async () => {
  const workspaceId = emulator.runTask.workspace("app-production").id;
  await engine.up(
    program({
      runTasks: [{ resource: "scanner", args: { url: "https://hooks.example.com/scan" } }],
      attachments: [{ resource: "attach", task: "scanner", args: { workspaceId, enforcementLevel: "mandatory" } }],
    }),
  );
  engine.setConfig(config(TASKS_ONLY));
  const bothWaysOut = [
    `and the run task list of workspace ${workspaceId} answers 404: the token cannot see the workspace, or the workspace was deleted`,
    "Use a token that may see the workspace",
    "forget it with `pulumi state delete <URN>`",
  ];
  const refreshed = await engine.refresh().catch((e: Error) => e);
  for (const words of bothWaysOut) expect((refreshed as Error).message).toContain(words);
  expect(names()).toEqual(["attach", "scanner"]);
  const destroyed = await engine.destroy().catch((e: Error) => e);
  for (const words of bothWaysOut) expect((destroyed as Error).message).toContain(words);
  expect(names()).toContain("attach");
  expect(emulator.runTask.workspaceTasks()).toHaveLength(1);
});

test("an association made (204) whose id the list cannot give is recorded by its task (the partial-failure answer); the next up updates it, a refresh finds its id", async () => {
  const workspaceId = emulator.runTask.workspace("app-production").id;
  const spec = (enforcementLevel: string) =>
    program({
      runTasks: [{ resource: "scanner", args: { url: "https://hooks.example.com/scan" } }],
      attachments: [{ resource: "attach", task: "scanner", args: { workspaceId, enforcementLevel } }],
    });
  calls.answers = [
    (req, route) =>
      req.method === "GET" && route === "/api/v2/workspaces/:ws/tasks" ? { status: 503, body: { errors: [{ status: "503" }] } } : undefined,
  ];
  await expect(engine.up(spec("mandatory"))).rejects.toThrow(/was associated to workspace .* It is recorded by its task/);
  const taskId = engine.state().get("scanner")!.id;
  expect(engine.state().get("attach")).toMatchObject({
    id: `${workspaceId}/${taskId}`,
    initErrors: [expect.stringContaining("recorded by its task")],
  });
  calls.reset();
  expect(ops(await engine.up(spec("advisory")))).toEqual({ scanner: "same", attach: "update" });
  expect(emulator.runTask.workspaceTasks()).toMatchObject([{ taskId, enforcementLevel: "advisory" }]);
  await engine.refresh();
  expect(engine.state().get("attach")!.id).toBe(`${workspaceId}/${emulator.runTask.workspaceTasks()[0].id}`);
});

test("a bare 404 from the snapshot service: refresh and destroy fail and keep the state", async () => {
  await engine.up(
    program({ snapshots: [{ resource: "nightly", args: { interval: "1h", pathPrefix: snapshotDir, storageType: "local", localMaxSpace: 1000 } }] }),
  );
  calls.answers = [(req, route) => (route.startsWith("/v1/sys/storage/raft/snapshot-auto/config") ? { status: 404 } : undefined)];
  await expect(engine.refresh()).rejects.toThrow(
    /the answer carried no body, not the service's \{"errors": \[\]\}.*snapshot:address \/ SERVICE_ADDR/,
  );
  expect(names()).toEqual(["nightly"]);
  await expect(engine.destroy()).rejects.toThrow(/HTTP 404/);
  expect(names()).toEqual(["nightly"]);
  expect([...emulator.snapshot.configs.keys()]).toEqual(["nightly"]);
});

describe("a snapshot service whose POST merges", () => {
  const s3 = (extra: Record<string, unknown> = {}) => ({
    resource: "offsite",
    args: { name: "offsite", interval: 3600, pathPrefix: "backups", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r", ...extra },
  });

  test("switching cloudA-s3 to local leaves no cloudA key stored", async () => {
    await engine.up(
      program({
        snapshots: [
          s3({
            cloudAAccessKeyId: "AKIA0000",
            cloudASecretAccessKey: "s3cr3t-0000",
            cloudAS3Endpoint: "http://minio:9000",
            cloudAS3DisableTls: true,
          }),
        ],
      }),
    );
    const steps = await engine.up(
      program({
        snapshots: [
          { resource: "offsite", args: { name: "offsite", interval: 3600, pathPrefix: snapshotDir, storageType: "local", localMaxSpace: 1000 } },
        ],
      }),
    );
    expect(ops(steps)).toEqual({ offsite: "update" });
    const held = emulator.snapshot.configs.get("offsite")!.config;
    expect(Object.keys(held).filter((k) => k.startsWith("cloudA"))).toEqual([]);
    expect(held).toMatchObject({ storage_type: "local" });
  });

  const local = (resource = "offsite", extra: Record<string, unknown> = {}) => ({
    resource,
    args: { name: "offsite", interval: 3600, pathPrefix: snapshotDir, storageType: "local", localMaxSpace: 1000, ...extra },
  });
  /** A service that refuses the POSTs of local configurations. */
  const refusingLocal = () =>
    (calls.answers = [
      (req, route) =>
        req.method === "POST" &&
        route.startsWith("/v1/sys/storage/raft/snapshot-auto/config") &&
        (req.body as { storage_type?: string }).storage_type === "local"
          ? { status: 400, body: { errors: ["storage backend refused the configuration"] } }
          : undefined,
    ]);
  const original = () => program({ snapshots: [s3({ cloudAAccessKeyId: "AKIA0000", cloudASecretAccessKey: "s3cr3t-0000" })] });
  /** After the failure: the service holds what it held before, and a refresh and an up of the original program change nothing. */
  const unchanged = async (before: unknown) => {
    expect(emulator.snapshot.configs.get("offsite")?.config).toEqual(before);
    calls.reset();
    await engine.refresh();
    let steps: Step[] = [];
    expect(await writesDuring(async () => (steps = await engine.up(original())))).toBe(0);
    expect(ops(steps)).toEqual({ offsite: "same" });
  };

  test("a service that refuses the POST of a switch: the configuration it held is there afterwards; refresh and up of the original program write nothing", async () => {
    await engine.up(original());
    const before = structuredClone(emulator.snapshot.configs.get("offsite")!.config);
    refusingLocal();
    await expect(engine.up(program({ snapshots: [local()] }))).rejects.toThrow(
      /HTTP 400.*storage backend refused the configuration.*the previous configuration was written back/,
    );
    await unchanged(before);
  });

  test("a service that refuses the POST of an adopt (the resource moved to a new name): the configuration it held is there afterwards; refresh and up of the original program write nothing", async () => {
    await engine.up(original());
    const before = structuredClone(emulator.snapshot.configs.get("offsite")!.config);
    refusingLocal();
    emulator.requests.reset();
    await expect(engine.up(program({ snapshots: [local("offsite-moved", { adopt: true })] }))).rejects.toThrow(/HTTP 400/);
    expect(emulator.requests.entries.filter((e) => e.method === "DELETE")).toEqual([]);
    expect(names()).toEqual(["offsite"]);
    await unchanged(before);
  });

  test("removing cloudAS3Endpoint is one write, and then no diff, a refresh included", async () => {
    await engine.up(program({ snapshots: [s3({ cloudAS3Endpoint: "http://minio:9000" })] }));
    expect(await writesDuring(() => engine.up(program({ snapshots: [s3()] })))).toBe(1);
    await engine.refresh();
    let steps: Step[] = [];
    expect(await writesDuring(async () => (steps = await engine.up(program({ snapshots: [s3()] }))))).toBe(0);
    expect(ops(steps)).toEqual({ offsite: "same" });
  });
});

test("adopt of a global task with no global in the program: the preview says so, one write turns it off", async () => {
  const legacy = emulator.runTask.addTask("acme", {
    name: "legacy",
    url: "https://hooks.example.com/legacy",
    global: { enabled: true, stages: ["pre_plan"], enforcementLevel: "mandatory" },
  });
  const spec = { runTasks: [{ resource: "legacy", args: { url: "https://hooks.example.com/legacy", adopt: true } }] };
  const before = engine.pluginOutput.length;
  const planned = await engine.preview(program(spec));
  expect(ops(planned)).toEqual({ legacy: "create" });
  expect(engine.pluginOutput.slice(before)).toContain(
    `RunTask "legacy": adopt takes over ${legacy.id} in organization "acme"; the create changes global (`,
  );
  expect(await writesDuring(() => engine.up(program(spec)))).toBe(1);
  expect(emulator.runTask.store.tasks.get(legacy.id)!.global.enabled).toBe(false);
  expect(await writesDuring(() => engine.up(program(spec)))).toBe(0);
});

test("an address without a scheme stops the preview, before any resource is touched, naming its setting", async () => {
  const spec = { runTasks: [{ resource: "scanner", args: { url: "https://hooks.example.com/scan" } }] };
  engine.setConfig({ ...config(), "snapshot:address": emulator.url.replace("http://", "") });
  emulator.requests.reset();
  await expect(engine.preview(program(spec))).rejects.toThrow(
    /the provider's settings are wrong: snapshot:address: "127\.0\.0\.1:\d+" has no http:\/\/ or https:\/\/ scheme/,
  );
  await expect(engine.up(program(spec))).rejects.toThrow(/has no http:\/\/ or https:\/\/ scheme/);
  expect(emulator.requests.total()).toBe(0);
  expect(names()).toEqual([]);
});
