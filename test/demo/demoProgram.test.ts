import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator, type Emulator } from "../../emulator";
import { DEFAULT_ORGANIZATION, DEFAULT_RUNTASK_TOKEN } from "../../emulator/runtask/service";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { copyProject, projectMain, REPO } from "../../demo/stage";
import { demoStackConfig } from "../../demo/stackConfig";
import { createConsumerProject, dynamicProviderPlugin, Engine, SECRET_SIG, type ConsumerProject, type Registration, type Step } from "../../engine";

/**
 * The demo's provisioning path without a Pulumi CLI: the root project's program (the one `npm run demo` runs),
 * copied into a consumer project with the packed package installed, captured under mocks, and driven through
 * the real dynamic-provider plugin by the engine driver (engine/), against the emulator, in the
 * demo's order: preview, up, a snapshot, a second up that changes nothing, destroy.
 *
 * Under mocks the program runs before the driver creates anything, while in a real `up` its apply of the
 * snapshot status runs after the configuration exists. So the first up uses the program as evaluated for a
 * preview (which skips the status), and the second up, once the configuration exists, the program as evaluated
 * for an update; the test asserts both register the same resources with the same inputs.
 */

const HMAC = "canary-demo-hmac-key-3c9e";
const STATUS_ROUTE = "GET /v1/sys/storage/raft/snapshot-auto/status/:name";

let fixture: ConsumerProject;
let emulator: Emulator;
let engine: Engine;
let snapshots: string;
let program: string;
let captureEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  fixture = createConsumerProject();
  program = copyProject(fixture.dir);
  snapshots = mkdtempSync(join(tmpdir(), "demo-snapshots-"));
  emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  const config = demoStackConfig({
    credentials: {
      snapshot: { address: emulator.url, token: DEFAULT_SNAPSHOT_TOKEN },
      runTask: { address: emulator.url, token: DEFAULT_RUNTASK_TOKEN, organization: DEFAULT_ORGANIZATION },
    },
    workspaceId: emulator.runTask.workspace("app-production").id,
    snapshotPath: snapshots,
    hmacKey: HMAC,
  });
  const plain = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v.value]));
  const secretKeys = Object.entries(config)
    .filter(([, v]) => v.secret)
    .map(([k]) => k);
  // The program reads its stack config as the language host hands it over.
  captureEnv = { PULUMI_CONFIG: JSON.stringify(plain), PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(secretKeys) };
  engine = new Engine({ plugin: dynamicProviderPlugin(fixture.dir), stateFile: join(fixture.dir, "demo-state.json"), config: plain });
});

afterAll(async () => {
  await emulator?.close();
  fixture?.remove();
  if (snapshots) rmSync(snapshots, { recursive: true, force: true });
});

// Asynchronous: the program calls the emulator, which runs in this process.
const capture = (preview: boolean): Promise<Registration[]> => fixture.captureAsync({}, { main: projectMain(), preview, env: captureEnv });
const ops = (steps: Step[]) => Object.fromEntries(steps.map((s) => [s.name, s.op]));
const inputsOf = (regs: Registration[]) => Object.fromEntries(regs.map((r) => [r.name, r.inputs]));

let previewProgram: Registration[];

test("the root project's program is the built demo program; the packed package has what the demo uses", () => {
  expect(projectMain()).toBe("dist/demo/program.js");
  expect(existsSync(program)).toBe(true);
  const installed = join(fixture.dir, "node_modules/pulumi-snapshot-runtask");
  const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
  expect(existsSync(join(installed, pkg.bin["pulumi-snapshot-runtask-emulator"]))).toBe(true);
  expect(existsSync(join(installed, pkg.exports["./automation"].default))).toBe(true);
  // The demo and the engine driver are repository tooling, not part of the package.
  expect(existsSync(join(installed, "dist/demo"))).toBe(false);
  expect(existsSync(join(installed, "dist/engine"))).toBe(false);
  // Nor is the incremental build's bookkeeping.
  expect(existsSync(join(REPO, "dist/.tsbuildinfo"))).toBe(true);
  expect(existsSync(join(installed, "dist/.tsbuildinfo"))).toBe(false);
  // The demo runs from dist/ and needs the driver there.
  expect(existsSync(join(REPO, "dist/engine/engine.js"))).toBe(true);
});

test("preview plans the three resources and writes nothing", async () => {
  previewProgram = await capture(true);
  const byName = Object.fromEntries(previewProgram.map((r) => [r.name, r]));
  expect(byName["demo-snapshots"].type).toBe("pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig");
  expect(byName["demo-policy-scan"].type).toBe("pulumi-nodejs:dynamic/runtask:RunTask");
  expect(byName["demo-policy-scan-on-workspace"].type).toBe("pulumi-nodejs:dynamic/runtask:WorkspaceRunTask");
  // The HMAC key comes from secret config and stays a secret on its way to the engine.
  expect(byName["demo-policy-scan"].inputs.hmacKey).toEqual({ [SECRET_SIG]: expect.any(String), value: HMAC });
  for (const r of previewProgram) expect(r.inputs.__provider).toContain('require("pulumi-snapshot-runtask/shim/');

  emulator.requests.reset();
  const steps = await engine.preview(previewProgram);
  expect(ops(steps)).toEqual({ "demo-snapshots": "create", "demo-policy-scan": "create", "demo-policy-scan-on-workspace": "create" });
  expect(emulator.requests.writes()).toBe(0);
});

test("up creates the snapshot configuration, the run task with its key and global settings, and the attachment", async () => {
  const steps = await engine.up(previewProgram);
  expect(ops(steps)).toEqual({ "demo-snapshots": "create", "demo-policy-scan": "create", "demo-policy-scan-on-workspace": "create" });

  const config = emulator.snapshot.configs.get("demo-snapshots")?.config;
  expect(config).toMatchObject({ interval: 5, retain: 3, storage_type: "local", path_prefix: snapshots });
  const [task] = [...emulator.runTask.store.tasks.values()];
  expect(task).toMatchObject({
    name: "demo-policy-scan",
    organization: DEFAULT_ORGANIZATION,
    hmacKey: HMAC,
    global: { enabled: true, stages: ["pre_plan"], enforcementLevel: "advisory" },
  });
  const [association] = [...emulator.runTask.store.workspaceTasks.values()];
  expect(association).toMatchObject({
    taskId: task.id,
    workspaceId: emulator.runTask.workspace("app-production").id,
    enforcementLevel: "mandatory",
    stages: ["post_plan"],
  });

  const state = engine.state();
  expect(state.get("demo-policy-scan")?.secretOutputs).toContain("hmacKey");
  expect(state.get("demo-snapshots")?.outputs.interval).toBe(5);
});

test("after a real snapshot, the program reads its status, and a second up changes nothing", async () => {
  const status = await emulator.snapshot.snapshotNow("demo-snapshots");
  expect(status?.last_snapshot_error).toBe("");
  expect(existsSync(fileURLToPath(status!.last_snapshot_url))).toBe(true);

  emulator.requests.reset();
  const updateProgram = await capture(false);
  expect(emulator.requests.byRoute()[STATUS_ROUTE]).toBe(1);
  expect(inputsOf(updateProgram)).toEqual(inputsOf(previewProgram));

  emulator.requests.reset();
  const steps = await engine.up(updateProgram);
  expect(ops(steps)).toEqual({ "demo-snapshots": "same", "demo-policy-scan": "same", "demo-policy-scan-on-workspace": "same" });
  expect(emulator.requests.writes()).toBe(0);
});

test("destroy removes everything, and no secret showed anywhere", async () => {
  const steps = await engine.destroy();
  expect(steps.map((s) => s.op)).toEqual(["delete", "delete", "delete"]);
  expect(emulator.snapshot.configs.size).toBe(0);
  expect(emulator.runTask.store.tasks.size).toBe(0);
  expect(emulator.runTask.store.workspaceTasks.size).toBe(0);
  for (const secret of [HMAC, DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN]) {
    expect(engine.pluginOutput).not.toContain(secret);
    for (const e of engine.errors) expect(e).not.toContain(secret);
  }
});
