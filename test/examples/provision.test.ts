import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { DEFAULT_RUNTASK_TOKEN } from "../../emulator/runtask/service";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import type { ConsumerProject } from "../../toolchain/consumerProject";
import { REPO } from "../support/demoCommand";
import { EngineStack, engineProject, type EngineRun } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { isEncryptedSecret, nameOf, type StackState, type StateResource } from "../support/engine/stateFile";
import { stageExample } from "../support/exampleProject";

/**
 * Every example's program provisions, not only type-checks: each runs through the Pulumi engine, inline (its
 * TypeScript transpiled as the Node.js language host would), in a consumer project with the packed package
 * installed, its stack config set from the emulator as its README sets it: preview, up, a second up that changes
 * nothing, destroy. The automation-api example is run through its program (program.ts, the same description);
 * its index.ts drives the CLI through the Automation API, which test/automation/example.test.ts runs.
 */

/** A stack's config, each value with whether it is a secret. */
type StackConfig = Record<string, { value: string; secret?: boolean }>;
type StackOutputs = Record<string, { value: unknown; secret: boolean }>;

jest.setTimeout(300_000);

const ORG = "acme";
/** The workspaces of examples/automation-api/workspaces.json, seeded so that its program runs unchanged. */
const WORKSPACES = [
  { id: "ws-1A2b3C4d5E6f7G8h", name: "app-production" },
  { id: "ws-9Z8y7X6w5V4u3T2s", name: "network" },
];
const [WS1, WS2] = WORKSPACES.map((w) => w.id);
const HMAC = "canary-example-hmac-key-71f4";

const snapshotConfig = (e: Emulator): StackConfig => ({
  "snapshot:address": { value: e.url },
  "snapshot:token": { value: DEFAULT_SNAPSHOT_TOKEN, secret: true },
});
const runTaskConfig = (e: Emulator): StackConfig => ({
  "runtask:address": { value: e.url },
  "runtask:token": { value: DEFAULT_RUNTASK_TOKEN, secret: true },
  "runtask:organization": { value: ORG },
});

interface Example {
  name: string;
  /** The program file; default index.ts. */
  main?: string;
  /** Resources the program declares. */
  resources: number;
  config(e: Emulator, scratch: string): StackConfig;
  /** Environment of the program and the provider plugin (a CI's secrets). */
  env?(e: Emulator): Record<string, string>;
  /** Objects that exist before the stack does. */
  seed?(e: Emulator): Promise<void>;
  afterUp(e: Emulator, outputs: StackOutputs, state: StackState): void;
  afterDestroy(e: Emulator): void;
}

const tasksNamed = (e: Emulator, name: string) => [...e.runTask.store.tasks.values()].filter((t) => t.name === name);
const nothingLeft = (e: Emulator) => {
  expect([...e.snapshot.configs.keys()]).toEqual([]);
  expect(e.runTask.store.tasks.size).toBe(0);
  expect(e.runTask.store.workspaceTasks.size).toBe(0);
};

const EXAMPLES: Example[] = [
  {
    name: "local-snapshots",
    resources: 2,
    config: (e, scratch) => ({ ...snapshotConfig(e), "local-snapshots:directory": { value: scratch } }),
    afterUp(e, outputs) {
      expect(e.snapshot.configs.get("hourly")?.config).toMatchObject({ interval: 3600, retain: 24, storage_type: "local", file_prefix: "hourly" });
      expect(e.snapshot.configs.get("daily")?.config).toMatchObject({ interval: 86400, retain: 7, storage_type: "local", file_prefix: "daily" });
      expect(outputs.intervals).toEqual({ value: { hourly: 3600, daily: 86400 }, secret: false });
      expect(outputs.lastHourlySnapshot).toEqual({ value: "none yet", secret: false });
    },
    afterDestroy: nothingLeft,
  },
  {
    name: "cloud-snapshots",
    resources: 2,
    config: (e) => ({
      ...snapshotConfig(e),
      "cloud-snapshots:s3Bucket": { value: "snapshots-cluster-a" },
      "cloud-snapshots:s3Region": { value: "eu-west-1" },
      "cloud-snapshots:s3AccessKeyId": { value: "canary-example-access-key-id", secret: true },
      "cloud-snapshots:s3SecretAccessKey": { value: "canary-example-secret-access-key", secret: true },
      "cloud-snapshots:s3KmsKey": { value: "alias/snapshots" },
      "cloud-snapshots:gcsBucket": { value: "snapshots-cluster-a" },
      "cloud-snapshots:gcsServiceAccountKey": { value: '{"type":"service_account","private_key":"canary-example-gcs-key"}', secret: true },
    }),
    afterUp(e, outputs, state) {
      expect(e.snapshot.configs.get("offsite-s3")?.config).toMatchObject({
        storage_type: "cloudA-s3",
        cloudA_s3_bucket: "snapshots-cluster-a",
        cloudA_s3_kms_key: "alias/snapshots",
      });
      expect(e.snapshot.configs.get("offsite-gcs")?.config).toMatchObject({
        storage_type: "cloudC-gcs",
        cloudC_gcs_bucket: "snapshots-cluster-a",
        path_prefix: "cluster-a/",
      });
      expect(outputs.configurations).toEqual({ value: ["offsite-s3", "offsite-gcs"], secret: false });
      expect(outputs.s3AccessKeyId).toEqual({ value: "canary-example-access-key-id", secret: true });
      const s3 = resourceNamed(state, "offsite-s3").outputs!;
      expect([isEncryptedSecret(s3.cloudAAccessKeyId), isEncryptedSecret(s3.cloudASecretAccessKey)]).toEqual([true, true]);
    },
    afterDestroy: nothingLeft,
  },
  {
    name: "run-task-many-workspaces",
    resources: 3,
    config: (e) => ({
      ...runTaskConfig(e),
      "run-task-many-workspaces:taskUrl": { value: "https://cost.example.com/run-task" },
      "run-task-many-workspaces:hmacKey": { value: HMAC, secret: true },
      "run-task-many-workspaces:workspaceIds": { value: JSON.stringify([WS1, WS2]) },
      "run-task-many-workspaces:enforcementLevel": { value: "mandatory" },
    }),
    afterUp(e, outputs) {
      const [task] = tasksNamed(e, "cost-check");
      expect(task).toMatchObject({ organization: ORG, url: "https://cost.example.com/run-task", hmacKey: HMAC });
      const attached = [...e.runTask.store.workspaceTasks.values()];
      // The engine creates them in parallel: in no set order.
      expect(attached.map((a) => [a.workspaceId, a.taskId, a.enforcementLevel, a.stages]).sort()).toEqual([
        [WS1, task.id, "mandatory", ["post_plan"]],
        [WS2, task.id, "mandatory", ["post_plan"]],
      ]);
      expect(outputs.taskId).toEqual({ value: task.id, secret: false });
      expect(outputs.attachedTo).toEqual({ value: [WS1, WS2], secret: false });
    },
    afterDestroy: nothingLeft,
  },
  {
    name: "adopt-existing",
    resources: 3,
    config: (e) => ({
      ...snapshotConfig(e),
      ...runTaskConfig(e),
      "adopt-existing:scanUrl": { value: "https://scanner.example.com/run-task" },
      "adopt-existing:workspaceId": { value: WS1 },
    }),
    async seed(e) {
      // Made outside Pulumi: a configuration (through the API), a task and its association.
      const res = await fetch(`${e.url}/v1/sys/storage/raft/snapshot-auto/config/nightly`, {
        method: "POST",
        headers: { "X-Service-Token": DEFAULT_SNAPSHOT_TOKEN, "content-type": "application/json" },
        body: JSON.stringify({ interval: 3600, retain: 2, path_prefix: "/old/snapshots", storage_type: "local", local_max_space: 1000 }),
      });
      expect(res.status).toBe(204);
      const task = e.runTask.addTask(ORG, { name: "security-scan", url: "https://old-scanner.example.com/hook" });
      e.runTask.addWorkspaceTask(WS1, task.id, { enforcementLevel: "advisory" });
    },
    afterUp(e, outputs, state) {
      // Taken over, not created again: the same objects, with the program's settings.
      expect(e.snapshot.configs.size).toBe(1);
      expect(e.snapshot.configs.get("nightly")?.config).toMatchObject({
        interval: 86400,
        retain: 7,
        path_prefix: "/var/lib/storage-service/snapshots",
      });
      const [task] = tasksNamed(e, "security-scan");
      expect(e.runTask.store.tasks.size).toBe(1);
      expect(task).toMatchObject({ url: "https://scanner.example.com/run-task", description: "Security scan of every plan" });
      expect(resourceNamed(state, "security-scan").id).toBe(task.id);
      const [association] = [...e.runTask.store.workspaceTasks.values()];
      expect(e.runTask.store.workspaceTasks.size).toBe(1);
      expect(association).toMatchObject({ workspaceId: WS1, taskId: task.id, enforcementLevel: "mandatory", stages: ["post_plan"] });
      expect(resourceNamed(state, "security-scan-production").id).toBe(association.id);
      expect(outputs.nightly).toEqual({ value: "nightly", secret: false });
      expect(outputs.allConfigurations).toEqual({ value: ["nightly"], secret: false });
      expect(outputs.allRunTasks).toEqual({ value: [`security-scan (${task.id})`], secret: false });
    },
    afterDestroy(e) {
      // retainOnDelete: the stack lets go of them, and they stay as they were before Pulumi managed them.
      expect([...e.snapshot.configs.keys()]).toEqual(["nightly"]);
      expect(tasksNamed(e, "security-scan")).toHaveLength(1);
      expect(e.runTask.store.workspaceTasks.size).toBe(1);
    },
  },
  {
    name: "gitops",
    resources: 4,
    // As the workflow's offline check sets it: the reviewed config, the credentials from the environment.
    config: () => ({
      "platform-gitops:policyCheckUrl": { value: "https://policy.example.com/run-task" },
      "platform-gitops:workspaces": {
        value: JSON.stringify([
          { id: WS1, enforcementLevel: "mandatory" },
          { id: WS2, enforcementLevel: "advisory" },
        ]),
      },
    }),
    env: (e) => ({
      SERVICE_ADDR: e.url,
      SERVICE_TOKEN: DEFAULT_SNAPSHOT_TOKEN,
      RUNTASK_ADDR: e.url,
      RUNTASK_TOKEN: DEFAULT_RUNTASK_TOKEN,
      RUNTASK_ORGANIZATION: ORG,
      POLICY_CHECK_HMAC_KEY: HMAC,
    }),
    afterUp(e, outputs, state) {
      expect(e.snapshot.configs.get("platform-daily")?.config).toMatchObject({ interval: 86400, retain: 14 });
      const [task] = tasksNamed(e, "policy-check");
      expect(task).toMatchObject({ organization: ORG, hmacKey: HMAC });
      expect([...e.runTask.store.workspaceTasks.values()].map((a) => [a.workspaceId, a.enforcementLevel, a.stages]).sort()).toEqual([
        [WS1, "mandatory", ["pre_plan", "post_plan"]],
        [WS2, "advisory", ["pre_plan", "post_plan"]],
      ]);
      expect(outputs.policyCheckTaskId).toEqual({ value: task.id, secret: false });
      expect(isEncryptedSecret(resourceNamed(state, "policy-check").outputs?.hmacKey)).toBe(true);
    },
    afterDestroy: nothingLeft,
  },
  {
    name: "automation-api",
    main: "program.ts",
    resources: 7,
    config: (e) => ({ ...snapshotConfig(e), ...runTaskConfig(e) }),
    env: () => ({ POLICY_CHECK_HMAC_KEY: HMAC }),
    afterUp(e, outputs) {
      expect([...e.snapshot.configs.keys()]).toEqual(["platform-daily"]);
      const [policy] = tasksNamed(e, "policy-check");
      const [cost] = tasksNamed(e, "cost-estimate");
      expect(policy.hmacKey).toBe(HMAC);
      const attached = [...e.runTask.store.workspaceTasks.values()].map((a) => `${a.taskId} ${a.workspaceId} ${a.enforcementLevel}`).sort();
      expect(attached).toEqual(
        [`${policy.id} ${WS1} mandatory`, `${policy.id} ${WS2} mandatory`, `${cost.id} ${WS1} advisory`, `${cost.id} ${WS2} advisory`].sort(),
      );
      // The program's outputs, typed as ProvisionedOutputs.
      expect(outputs.runTasks.value).toMatchObject({ "policy-check": { id: policy.id, organization: ORG }, "cost-estimate": { id: cost.id } });
      expect(outputs.snapshots.value).toMatchObject({ "platform-daily": { name: "platform-daily", interval: 86400 } });
      expect(Object.keys(outputs.attachments.value as object)).toHaveLength(4);
    },
    afterDestroy: nothingLeft,
  },
];

const resourceNamed = (state: StackState, name: string): StateResource => state.resources.find((r) => nameOf(r.urn) === name)!;
/** The project name an example's Pulumi.yaml gives: its config keys' namespace. */
const projectNameOf = (name: string) => /^name:\s*(\S+)/m.exec(readFileSync(join(REPO, "examples", name, "Pulumi.yaml"), "utf8"))![1];
const plain = (config: StackConfig) => Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v.value]));
const secretKeys = (config: StackConfig) =>
  Object.entries(config)
    .filter(([, v]) => v.secret)
    .map(([k]) => k);
/** The steps of the example's own resources (not the stack's, not the providers'). */
const ops = (run: EngineRun) => run.steps.filter((s) => !s.urn.includes("::pulumi:")).map((s) => s.op);

let project: ConsumerProject;

beforeAll(() => {
  project = engineProject();
});

afterAll(() => project?.remove());

test("every example is covered", () => {
  // Programs in other languages run on the provider plugins: test/plugin/examples.test.ts and test/plugin-sdks/ cover them.
  const typeScriptExamples = readdirSync(join(REPO, "examples")).filter(
    (name) => !["yaml-gitops", "yaml-explicit-providers", "python", "go"].includes(name),
  );
  expect(EXAMPLES.map((e) => e.name).sort()).toEqual(typeScriptExamples.sort());
});

describe.each(EXAMPLES)("examples/$name", (example) => {
  let emulator: Emulator;
  let stack: EngineStack;
  let scratch: string;

  beforeAll(async () => {
    const programDir = stageExample(project, example.name);
    emulator = await startEmulator({ snapshot: { takeSnapshots: false }, runTask: { organizations: [{ name: ORG, workspaces: WORKSPACES }] } });
    scratch = mkdtempSync(join(tmpdir(), "example-snapshots-"));
    const config = example.config(emulator, scratch);
    stack = EngineStack.inline({
      project,
      projectName: projectNameOf(example.name),
      config: plain(config),
      secretKeys: secretKeys(config),
      env: example.env?.(emulator) ?? {},
    });
    stack.programModule(join(project.dir, programDir, (example.main ?? "index.ts").replace(/\.ts$/, ".js")));
    await example.seed?.(emulator);
  });

  afterAll(async () => {
    stack?.remove();
    await emulator?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test("preview plans a create of every resource and writes nothing", async () => {
    emulator.requests.reset();
    const preview = await stack.preview();
    expect(preview.error).toBeUndefined();
    expect(ops(preview)).toEqual(Array(example.resources).fill("create"));
    expect(emulator.requests.writes()).toBe(0);
  });

  test("up provisions them at the services; the stack outputs are the real ones", async () => {
    const up = await stack.up();
    expect(up.error).toBeUndefined();
    expect(ops(up)).toEqual(Array(example.resources).fill("create"));
    for (const r of stack.state().resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))) {
      expect(r.outputs?.__provider).toContain('require("pulumi-snapshot-runtask/shim/');
    }
    example.afterUp(emulator, up.outputs!, stack.state());
  });

  test("a second up changes nothing and writes nothing", async () => {
    emulator.requests.reset();
    const up = await stack.up();
    expect(ops(up)).toEqual(Array(example.resources).fill("same"));
    expect(emulator.requests.writes()).toBe(0);
    if (example.name !== "adopt-existing") expectServiceMatchesState(emulator, stack);
  });

  test("destroy takes the stack down", async () => {
    const destroyed = await stack.destroy();
    expect(destroyed.error).toBeUndefined();
    expect(ops(destroyed)).toHaveLength(example.resources);
    expect(stack.state().resources).toEqual([]);
    example.afterDestroy(emulator);
  });
});

describe("examples/local-snapshots: the README's offline tour", () => {
  test("with hourlyInterval set short, the emulator writes a snapshot file into directory, and the next up's output names it", async () => {
    const programDir = stageExample(project, "local-snapshots");
    const emulator = await startEmulator();
    const scratch = mkdtempSync(join(tmpdir(), "example-tour-"));
    const config: StackConfig = {
      ...snapshotConfig(emulator),
      "local-snapshots:directory": { value: scratch },
      "local-snapshots:hourlyInterval": { value: "2s" },
    };
    const stack = EngineStack.inline({
      project,
      projectName: "local-snapshots",
      stack: "tour",
      config: plain(config),
      secretKeys: secretKeys(config),
    });
    stack.programModule(join(project.dir, programDir, "index.js"));
    try {
      expect((await stack.up()).error).toBeUndefined();
      const hourlyFiles = () => readdirSync(scratch).filter((f) => /^hourly-\d+\.snap$/.test(f));
      for (const deadline = Date.now() + 20_000; hourlyFiles().length === 0 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 200));
      expect(hourlyFiles()[0]).toBeDefined();

      const again = await stack.up();
      expect(ops(again)).toEqual(["same", "same"]);
      expect(String(again.outputs?.lastHourlySnapshot.value)).toMatch(new RegExp(`^file://${scratch}/hourly-\\d+\\.snap$`));
      expect((await stack.destroy()).error).toBeUndefined();
    } finally {
      stack.remove();
      await emulator.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 180_000);
});
