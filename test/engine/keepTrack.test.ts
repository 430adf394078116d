import { join } from "node:path";
import { type TokenGrant } from "../../emulator";
import { engineSuite } from "../support/engine/engineSuite";
import { EngineStack, type EngineRun, type ResourceSpec } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { isEncryptedSecret, nameOf, packageResources, typeOf } from "../support/engine/stateFile";
import { Switchboard } from "../support/switchboard";

/**
 * Never forget an object, never leave a setting behind: dynamic resources in inline TypeScript programs, through the
 * Pulumi CLI, against servers that answer as the specs allow (the emulator's options and the test's answers). After
 * each step the service holds exactly the objects the state file names, once each.
 *
 * A token changed with `pulumi config set` reaches a `destroy` or a `refresh` only through the program: the engine
 * serves them with the default provider's settings recorded at the last `up` (the whole stack config, for the dynamic
 * provider), so the steps below that change the token run with `--run-program`.
 */
jest.setTimeout(300_000);

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

const calls = new Switchboard();
const suite = engineSuite({
  calls,
  forgetBetweenTests: true,
  emulator: {
    // The spec's letter: an associate answered 204 with no body, whose id only the workspace's list gives.
    letterOfSpec: true,
    snapshot: { tokens: { [SNAPSHOT_TOKEN]: { sudo: true } }, takeSnapshots: false, postMerges: true },
    // A task's answers leave out the associations the token may not see, as the spec's 404 rule allows.
    runTask: { tokens: TOKENS, organizations: [{ name: "acme", workspaces: [{ name: "app-production" }] }], includeVisibleOnly: true },
  },
});
let workspaceId: string;

beforeAll(() => {
  workspaceId = suite.emulator.runTask.workspace("app-production").id;
});

const config = () => ({
  "snapshot:address": suite.emulator.url,
  "snapshot:token": SNAPSHOT_TOKEN,
  "runtask:address": suite.emulator.url,
  "runtask:token": FULL,
  "runtask:organization": "acme",
  // A failed request is not tried again: the answers below are the service's for good.
  "runtask:maxRetries": "0",
  "snapshot:maxRetries": "0",
});
const stackOf = (projectName: string, settings: Record<string, string> = config()) =>
  suite.stack("inline", projectName, {
    config: settings,
    // Node's compile cache for the program's and the dynamic provider's processes: each command starts faster.
    env: { NODE_COMPILE_CACHE: join(suite.project.dir, ".node-compile-cache") },
  });

/** Sets one setting of the stack's config, as `pulumi config set` does between two commands. */
async function setConfig(stack: EngineStack, key: string, value: string, secret = false): Promise<void> {
  const set = await stack.cli(["config", "set", secret ? "--secret" : "--plaintext", key, value]);
  expect(set.stderr).toBe("");
  expect(set.code).toBe(0);
}

const ops = (run: EngineRun) => Object.fromEntries(run.steps.filter((s) => !/^pulumi:/.test(typeOf(s.urn))).map((s) => [nameOf(s.urn), s.op]));
const names = (stack: EngineStack) =>
  packageResources(stack.state())
    .map((r) => nameOf(r.urn))
    .sort();
const stateOf = (stack: EngineStack, name: string) => packageResources(stack.state()).find((r) => nameOf(r.urn) === name);
/**
 * What the state records of a resource's object: its id, inputs and outputs, each secret as "[secret]" (the engine
 * encrypts a secret afresh whenever it writes the state).
 */
const recorded = (stack: EngineStack, name: string) => {
  const r = stateOf(stack, name);
  const masked = (props: Record<string, unknown> = {}) =>
    Object.fromEntries(Object.entries(props).map(([k, v]) => [k, isEncryptedSecret(v) ? "[secret]" : v]));
  return r && { id: r.id, inputs: masked(r.inputs), outputs: masked(r.outputs) };
};
const writesDuring = async <T>(run: () => Promise<T>): Promise<[number, T]> => {
  suite.emulator.requests.reset();
  const result = await run();
  return [suite.emulator.requests.writes(), result];
};

const attached = (enforcementLevel = "mandatory"): ResourceSpec[] => [
  { type: "RunTask", name: "scanner", args: { url: "https://hooks.example.com/scan" } },
  { type: "WorkspaceRunTask", name: "attach", args: { workspaceId, taskId: { $ref: "scanner" }, enforcementLevel } },
];

test("tokens that may not act, on a service whose task answers leave out what the token may not see: each destroy or refresh that cannot prove an object gone fails, naming the permission or both ways out, and forgets nothing; a full token then destroys", async () => {
  const stack = stackOf("tokens");
  stack.program({ resources: attached() });
  expect((await stack.up()).error).toBeUndefined();
  expectServiceMatchesState(suite.emulator, stack);

  // A token that may not see the workspace: its list answers 404, and the task's answers leave the association out.
  await setConfig(stack, "runtask:token", TASKS_ONLY, true);
  const bothWaysOut = [
    `and the run task list of workspace ${workspaceId} answers 404: the token cannot see the workspace, or the workspace was deleted`,
    "Use a token that may see the workspace",
    "forget it with `pulumi state delete <URN>`",
  ];
  // Without the program, the engine serves a refresh with the settings the default provider recorded at the last up.
  expect((await stack.refresh()).error).toBeUndefined();
  const before = recorded(stack, "attach");
  const refreshed = await stack.refresh({ runProgram: true });
  expect(refreshed.ok).toBe(false);
  for (const words of bothWaysOut) expect(refreshed.output).toContain(words);
  expect(recorded(stack, "attach")).toEqual(before);
  const unseen = await stack.destroy({ runProgram: true });
  expect(unseen.ok).toBe(false);
  for (const words of bothWaysOut) expect(unseen.output).toContain(words);
  expect(names(stack)).toEqual(["attach", "scanner"]);
  expect(suite.emulator.runTask.workspaceTasks()).toHaveLength(1);
  expectServiceMatchesState(suite.emulator, stack);

  await setConfig(stack, "runtask:token", LIST_NOT_DISSOCIATE, true);
  const dissociate = await stack.destroy({ runProgram: true });
  expect(dissociate.ok).toBe(false);
  expect(dissociate.output).toMatch(/the token may list the workspace's run tasks but not delete this association.*Manage Workspace Run Tasks/);
  expect(names(stack)).toEqual(["attach", "scanner"]);
  expect(suite.emulator.runTask.workspaceTasks()).toHaveLength(1);
  expectServiceMatchesState(suite.emulator, stack);

  await setConfig(stack, "runtask:token", LIST_NOT_DELETE_TASKS, true);
  const deleteTask = await stack.destroy({ runProgram: true });
  expect(deleteTask.ok).toBe(false);
  expect(deleteTask.output).toMatch(/the token may list the organization's run tasks but not delete this one.*Manage Run Tasks/);
  // The association went; the task stays, in the state and on the service.
  expect(names(stack)).toEqual(["scanner"]);
  expect([suite.emulator.runTask.tasks().length, suite.emulator.runTask.workspaceTasks().length]).toEqual([1, 0]);
  expectServiceMatchesState(suite.emulator, stack);

  await setConfig(stack, "runtask:token", FULL, true);
  const destroyed = await stack.destroy({ runProgram: true });
  expect(destroyed.error).toBeUndefined();
  expect(names(stack)).toEqual([]);
  expect([suite.emulator.runTask.tasks().length, suite.emulator.runTask.workspaceTasks().length]).toEqual([0, 0]);
  stack.remove();
});

test("an association made (204) whose id the list cannot give is recorded by its task (the partial-failure answer); the next up updates it, a refresh finds its id", async () => {
  const stack = stackOf("association-unlisted");
  // The list the create reads before its associate call answers; those after it fail.
  let associated = false;
  calls.answers.push((req, route) => void (associated ||= req.method === "POST" && route === "/api/v2/workspaces/:ws/tasks"));
  calls.answers.push((req, route) =>
    associated && req.method === "GET" && route === "/api/v2/workspaces/:ws/tasks"
      ? { status: 503, body: { errors: [{ status: "503" }] } }
      : undefined,
  );
  stack.program({ resources: attached("mandatory") });
  const made = await stack.up();
  expect(made.ok).toBe(false);
  expect(made.output).toMatch(/was associated to workspace .* It is recorded by its task/);
  const taskId = stateOf(stack, "scanner")!.id;
  expect(stateOf(stack, "attach")).toMatchObject({ id: `${workspaceId}/${taskId}`, initErrors: [expect.stringContaining("recorded by its task")] });
  expect(suite.emulator.runTask.workspaceTasks()).toMatchObject([{ taskId, enforcementLevel: "mandatory" }]);
  expectServiceMatchesState(suite.emulator, stack);

  calls.reset();
  stack.program({ resources: attached("advisory") });
  const updated = await stack.up();
  expect(updated.error).toBeUndefined();
  expect(ops(updated)).toEqual({ scanner: "same", attach: "update" });
  expect(suite.emulator.runTask.workspaceTasks()).toMatchObject([{ taskId, enforcementLevel: "advisory" }]);
  expect(stateOf(stack, "attach")!.initErrors).toBeUndefined();
  expectServiceMatchesState(suite.emulator, stack);

  const refreshed = await stack.refresh();
  expect(refreshed.error).toBeUndefined();
  expect(stateOf(stack, "attach")!.id).toBe(`${workspaceId}/${suite.emulator.runTask.workspaceTasks()[0].id}`);
  expectServiceMatchesState(suite.emulator, stack);
  stack.remove();
});

test("a bare 404 from the snapshot service: refresh and destroy fail, naming the address setting, and keep the state", async () => {
  const stack = stackOf("bare-404");
  stack.program({
    resources: [
      {
        type: "SnapshotAutoConfig",
        name: "nightly",
        args: { interval: "1h", pathPrefix: "/var/snapshots", storageType: "local", localMaxSpace: 1000 },
      },
    ],
  });
  expect((await stack.up()).error).toBeUndefined();
  const before = recorded(stack, "nightly");

  calls.answers.push((_req, route) => (route.startsWith("/v1/sys/storage/raft/snapshot-auto/config") ? { status: 404 } : undefined));
  const refreshed = await stack.refresh();
  expect(refreshed.ok).toBe(false);
  expect(refreshed.output).toMatch(/the answer carried no body, not the service's \{"errors": \[\]\}.*snapshot:address \/ SERVICE_ADDR/);
  expect(recorded(stack, "nightly")).toEqual(before);
  const destroyed = await stack.destroy();
  expect(destroyed.ok).toBe(false);
  expect(destroyed.output).toMatch(/HTTP 404/);
  expect(recorded(stack, "nightly")).toEqual(before);
  expect([...suite.emulator.snapshot.configs.keys()]).toEqual(["nightly"]);
  expectServiceMatchesState(suite.emulator, stack);
  stack.remove();
});

describe("a snapshot service whose POST merges", () => {
  const s3 = (extra: Record<string, unknown> = {}): ResourceSpec => ({
    type: "SnapshotAutoConfig",
    name: "offsite",
    args: { name: "offsite", interval: 3600, pathPrefix: "backups", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r", ...extra },
  });
  const credentials = { cloudAAccessKeyId: "AKIA0000", cloudASecretAccessKey: "s3cr3t-0000" };
  const local = (name = "offsite", extra: Record<string, unknown> = {}): ResourceSpec => ({
    type: "SnapshotAutoConfig",
    name,
    args: { name: "offsite", interval: 3600, pathPrefix: "/var/snapshots", storageType: "local", localMaxSpace: 1000, ...extra },
  });
  const held = () => suite.emulator.snapshot.configs.get("offsite")?.config;

  test("removing cloudAS3Endpoint is one write, and then no diff, a refresh included; switching cloudA-s3 to local leaves no cloudA key stored", async () => {
    const stack = stackOf("merging-clears");
    stack.program({ resources: [s3({ ...credentials, cloudAS3Endpoint: "http://minio:9000", cloudAS3DisableTls: true })] });
    expect((await stack.up()).error).toBeUndefined();
    expect(held()).toMatchObject({ cloudA_s3_endpoint: "http://minio:9000" });

    stack.program({ resources: [s3({ ...credentials, cloudAS3DisableTls: true })] });
    const [written, removed] = await writesDuring(() => stack.up());
    expect(ops(removed)).toEqual({ offsite: "update" });
    expect(written).toBe(1);
    expect(held()?.cloudA_s3_endpoint ?? "").toBe("");
    expect((await stack.refresh()).error).toBeUndefined();
    const [rewritten, again] = await writesDuring(() => stack.up());
    expect([rewritten, ops(again)]).toEqual([0, { offsite: "same" }]);
    expectServiceMatchesState(suite.emulator, stack);

    stack.program({ resources: [local()] });
    const switched = await stack.up();
    expect(switched.error).toBeUndefined();
    expect(ops(switched)).toEqual({ offsite: "update" });
    expect(Object.keys(held()!).filter((k) => k.startsWith("cloudA"))).toEqual([]);
    expect(held()).toMatchObject({ storage_type: "local" });
    expectServiceMatchesState(suite.emulator, stack);
    stack.remove();
  });

  test("a service that refuses the POST of a switch, then of an adopt by a resource moved to a new name: the configuration it held is there after each; refresh and up of the original program write nothing", async () => {
    const stack = stackOf("merging-refused");
    const original = [s3(credentials)];
    stack.program({ resources: original });
    expect((await stack.up()).error).toBeUndefined();
    const before = structuredClone(held());
    const recordedBefore = recorded(stack, "offsite");
    /** The service refuses the POSTs of local configurations. */
    const refusingLocal = () =>
      calls.answers.push((req, route) =>
        req.method === "POST" &&
        route.startsWith("/v1/sys/storage/raft/snapshot-auto/config") &&
        (req.body as { storage_type?: string }).storage_type === "local"
          ? { status: 400, body: { errors: ["storage backend refused the configuration"] } }
          : undefined,
      );
    /** The service holds what it held before, and the state what it recorded before. */
    const unchanged = () => {
      expect(held()).toEqual(before);
      expect(recorded(stack, "offsite")).toEqual(recordedBefore);
      expectServiceMatchesState(suite.emulator, stack);
    };

    refusingLocal();
    stack.program({ resources: [local()] });
    const switched = await stack.up();
    expect(switched.ok).toBe(false);
    expect(switched.output).toMatch(/HTTP 400.*storage backend refused the configuration.*the previous configuration was written back/);
    unchanged();
    // A refresh and an up of the original program change nothing.
    calls.reset();
    expect((await stack.refresh()).error).toBeUndefined();
    unchanged();
    stack.program({ resources: original });
    const [written, up] = await writesDuring(() => stack.up());
    expect([written, ops(up)]).toEqual([0, { offsite: "same" }]);

    refusingLocal();
    stack.program({ resources: [local("offsite-moved", { adopt: true })] });
    suite.emulator.requests.reset();
    const moved = await stack.up();
    expect(moved.ok).toBe(false);
    expect(moved.output).toMatch(/HTTP 400.*storage backend refused the configuration/);
    // The engine stopped at the create: the old resource's delete never came, and the adopt deleted nothing.
    expect(ops(moved)).toEqual({ "offsite-moved": "create" });
    expect(suite.emulator.requests.entries.filter((e) => e.method === "DELETE")).toEqual([]);
    expect(names(stack)).toEqual(["offsite"]);
    unchanged();
    stack.remove();
  });
});

test("adopt of a global task with no global in the program: the preview says so in the CLI's output, one write turns it off", async () => {
  const stack = stackOf("adopt-global");
  const legacy = suite.emulator.runTask.addTask("acme", {
    name: "legacy",
    url: "https://hooks.example.com/legacy",
    global: { enabled: true, stages: ["pre_plan"], enforcementLevel: "mandatory" },
  });
  stack.program({ resources: [{ type: "RunTask", name: "legacy", args: { url: "https://hooks.example.com/legacy", adopt: true } }] });
  const [previewWrites, planned] = await writesDuring(() => stack.preview());
  expect(planned.error).toBeUndefined();
  expect([previewWrites, ops(planned)]).toEqual([0, { legacy: "create" }]);
  expect(planned.output).toContain(`RunTask "legacy": adopt takes over ${legacy.id} in organization "acme"; the create changes global (`);

  const [adoptWrites, adopted] = await writesDuring(() => stack.up());
  expect(adopted.error).toBeUndefined();
  expect(adoptWrites).toBe(1);
  expect(suite.emulator.runTask.store.tasks.get(legacy.id)!.global.enabled).toBe(false);
  expect(stateOf(stack, "legacy")!.id).toBe(legacy.id);
  expectServiceMatchesState(suite.emulator, stack);
  const [againWrites, again] = await writesDuring(() => stack.up());
  expect([againWrites, again.changes]).toEqual([0, { same: 2 }]);
  stack.remove();
});

test("an address without a scheme stops the preview, before any resource is touched, naming its setting, on its service's resources alone", async () => {
  const stack = stackOf("no-scheme", { ...config(), "runtask:address": suite.emulator.url.replace("http://", "") });
  stack.program({
    resources: [
      {
        type: "SnapshotAutoConfig",
        name: "nightly",
        args: { interval: "1h", pathPrefix: "/var/snapshots", storageType: "local", localMaxSpace: 1000 },
      },
      { type: "RunTask", name: "scanner", args: { url: "https://hooks.example.com/scan" } },
    ],
  });
  suite.emulator.requests.reset();
  const previewed = await stack.preview();
  expect(previewed.ok).toBe(false);
  const errors = previewed.diagnostics.filter((d) => d.severity === "error" && d.urn);
  expect(errors.map((d) => d.urn?.slice(d.urn.lastIndexOf("::") + 2))).toEqual(["scanner"]);
  expect(errors[0].message).toMatch(/the provider's settings are wrong: runtask:address: "127\.0\.0\.1:\d+" has no http:\/\/ or https:\/\/ scheme/);
  expect(suite.emulator.requests.total()).toBe(0);
  expect(names(stack)).toEqual([]);
  expectServiceMatchesState(suite.emulator, stack);
  stack.remove();
});
