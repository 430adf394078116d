import { engineSuite } from "../support/engine/engineSuite";
import { EngineStack, opsByName } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { nameOf } from "../support/engine/stateFile";

/**
 * A YAML program on the provider plugins through the Pulumi engine: its life (create, a no-op up with no write, an
 * update, a refresh with drift, `--target`, destroy), and `pulumi import` of objects made outside Pulumi by every id
 * form users have (docs/reference.md, "Import ids"): after each import the program that declares them is `same`, and
 * the service holds exactly the objects the state names.
 */
jest.setTimeout(600_000);

const suite = engineSuite();
let stack: EngineStack;

beforeAll(() => {
  stack = suite.stack("yaml", "plugin-yaml");
});

const ws = (name: string) => suite.emulator.runTask.workspace(name).id;

/** The program: a task attached to a workspace, a configuration; `imported` adds what the imports bring in. */
function program(options: { url?: string; retain?: number; imported?: boolean } = {}): void {
  const { url = "https://hooks.example.com/scan", retain = 2, imported = false } = options;
  stack.yamlProgram(`resources:
  scanner:
    type: runtask:index:RunTask
    properties:
      url: ${url}
  on-app:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${ws("app")}
      taskId: \${scanner.id}
      enforcementLevel: advisory
  nightly:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      interval: 3600
      retain: ${retain}
      storageType: local
      pathPrefix: /var/snapshots
      localMaxSpace: 1000000
${
  imported
    ? `  legacy:
    type: runtask:index:RunTask
    properties:
      name: legacy-task
      url: https://legacy.example.com/hook
  legacy-by-name:
    type: runtask:index:RunTask
    properties:
      name: legacy-named
      url: https://legacy.example.com/named
  legacy-on-web:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${ws("web")}
      taskId: \${legacy.id}
      enforcementLevel: mandatory
  legacy-named-on-web:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${ws("web")}
      taskId: \${legacy-by-name.id}
      enforcementLevel: advisory
  legacy-named-on-app:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${ws("app")}
      taskId: \${legacy-by-name.id}
      enforcementLevel: advisory
  legacy-config:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      name: legacy-config
      interval: 86400
      storageType: local
      pathPrefix: /var/legacy
      localMaxSpace: 5000
`
    : ""
}`);
}

test("create, a no-op up with no write, an update, a refresh with drift, and --target", async () => {
  program();
  const preview = await stack.preview();
  expect(opsByName(preview)).toEqual({ scanner: "create", "on-app": "create", nightly: "create" });
  expect(suite.emulator.requests.writes()).toBe(0);
  expect((await stack.up()).changes).toEqual({ create: 4 });
  expectServiceMatchesState(suite.emulator, stack);

  suite.emulator.requests.reset();
  expect((await stack.up()).changes).toEqual({ same: 4 });
  expect(suite.emulator.requests.writes()).toBe(0);

  program({ url: "https://hooks.example.com/scan-v2" });
  suite.emulator.requests.reset();
  expect(opsByName(await stack.up())).toEqual({ scanner: "update", "on-app": "same", nightly: "same" });
  expect(suite.emulator.requests.writes()).toBe(1);

  suite.emulator.snapshot.configs.get("nightly")!.config.retain = 9;
  const refreshed = await stack.refresh();
  expect(refreshed.output).toMatch(/SnapshotAutoConfig nightly updated .*\[diff: ~retain\]/);
  expect(stack.state().resources.find((r) => nameOf(r.urn) === "nightly")?.outputs?.retain).toBe(9);

  // Two changes in the program; --target makes one of them.
  program({ url: "https://hooks.example.com/scan-v3", retain: 3 });
  const nightlyUrn = stack.state().resources.find((r) => nameOf(r.urn) === "nightly")!.urn;
  expect(opsByName(await stack.up({ target: [nightlyUrn] }))).toMatchObject({ nightly: "update" });
  expect([suite.emulator.snapshot.configs.get("nightly")!.config.retain, suite.emulator.runTask.tasks()[0].url]).toEqual([
    3,
    "https://hooks.example.com/scan-v2",
  ]);
  expect(opsByName(await stack.up())).toMatchObject({ scanner: "update", nightly: "same" });
  expectServiceMatchesState(suite.emulator, stack);
});

test("pulumi import of every id form users have; then the program that declares them changes nothing", async () => {
  // Made outside Pulumi.
  const legacy = suite.emulator.runTask.addTask("acme", { name: "legacy-task", url: "https://legacy.example.com/hook" });
  const named = suite.emulator.runTask.addTask("acme", { name: "legacy-named", url: "https://legacy.example.com/named" });
  const onWeb = suite.emulator.runTask.addWorkspaceTask(ws("web"), legacy.id, { enforcementLevel: "mandatory" });
  suite.emulator.runTask.addWorkspaceTask(ws("web"), named.id, { enforcementLevel: "advisory" });
  suite.emulator.runTask.addWorkspaceTask(ws("app"), named.id, { enforcementLevel: "advisory" });
  const made = await fetch(`${suite.emulator.url}/v1/sys/storage/raft/snapshot-auto/config/legacy-config`, {
    method: "POST",
    headers: { "X-Service-Token": "emulator-snapshot-token", "content-type": "application/json" },
    body: JSON.stringify({ interval: 86400, path_prefix: "/var/legacy", storage_type: "local", local_max_space: 5000 }),
  });
  expect(made.ok).toBe(true);

  const imports: [string, string, string, string][] = [
    ["runtask:index:RunTask", "legacy", legacy.id, "a task by its task- id"],
    ["runtask:index:RunTask", "legacy-by-name", "acme/legacy-named", "a task by <organization>/<task-name>"],
    ["runtask:index:WorkspaceRunTask", "legacy-on-web", `${ws("web")}/${onWeb.id}`, "an association by <workspace-id>/<wstask-id>"],
    ["runtask:index:WorkspaceRunTask", "legacy-named-on-web", `${ws("web")}/legacy-named`, "an association by <workspace-id>/<task-name>"],
    ["runtask:index:WorkspaceRunTask", "legacy-named-on-app", `${ws("app")}/${named.id}`, "an association by <workspace-id>/<task-id>"],
    ["snapshot:index:SnapshotAutoConfig", "legacy-config", "legacy-config", "a configuration by its name"],
  ];
  program({ url: "https://hooks.example.com/scan-v3", retain: 3 });
  for (const [type, name, id, form] of imports) {
    suite.emulator.requests.reset();
    const imported = await stack.import({ type, name, id });
    expect([form, imported.error]).toEqual([form, undefined]);
    expect([form, opsByName(imported)[name]]).toEqual([form, "import"]);
    // An import reads; it writes nothing.
    expect([form, suite.emulator.requests.writes()]).toEqual([form, 0]);
  }
  const ids = Object.fromEntries(stack.state().resources.map((r) => [nameOf(r.urn), r.id]));
  const association = (w: string, task: string) => suite.emulator.runTask.workspaceTasks({ workspaceId: ws(w), taskId: task })[0].id;
  expect(ids).toMatchObject({
    legacy: legacy.id,
    "legacy-by-name": named.id,
    "legacy-on-web": `${ws("web")}/${onWeb.id}`,
    "legacy-named-on-web": `${ws("web")}/${association("web", named.id)}`,
    "legacy-named-on-app": `${ws("app")}/${association("app", named.id)}`,
    "legacy-config": "legacy-config",
  });
  expectServiceMatchesState(suite.emulator, stack);

  program({ url: "https://hooks.example.com/scan-v3", retain: 3, imported: true });
  suite.emulator.requests.reset();
  const up = await stack.up();
  expect(up.error).toBeUndefined();
  expect(up.changes).toEqual({ same: 10 });
  expect(suite.emulator.requests.writes()).toBe(0);
  expectServiceMatchesState(suite.emulator, stack);
});

test("destroy leaves the service empty", async () => {
  expect((await stack.destroy()).error).toBeUndefined();
  expect([suite.emulator.snapshot.configs.size, suite.emulator.runTask.tasks().length, suite.emulator.runTask.workspaceTasks().length]).toEqual([
    0, 0, 0,
  ]);
});
