import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator, type Emulator, type SnapshotEmulatorOptions } from "../../emulator";
import { emulatorStackConfig } from "../support/emulatorStack";
import { engineSuite, scenarioEmulator } from "../support/engine/engineSuite";
import { opsByName, type EngineStack, type ResourceSpec } from "../support/engine/engineStack";
import { nameOf, packageResources } from "../support/engine/stateFile";

/**
 * Services that read back otherwise than they were written, as the specs allow, through the Pulumi CLI, on both routes
 * (the dynamic resources and the provider plugins' resources, in one program):
 * - a snapshot service of each shape of credential reads (every credential shown, none, each one as `"****"`, the
 *   secrets hidden and the access key id shown): `up --refresh` after the create writes nothing; credentials removed
 *   outside Pulumi are written back wherever the service shows them;
 * - a run task service that renders an empty description as null: a program with `description: ""` writes nothing
 *   on `up --refresh`;
 * - a run task list that changes while it is paged: a program's `getRunTask` and `listRunTasks` fail, saying so,
 *   instead of answering "not found" or a part of the list.
 */
jest.setTimeout(600_000);

const suite = engineSuite({ emulator: scenarioEmulator() });
const emulators: Emulator[] = [];
afterAll(async () => {
  for (const emulator of emulators) await emulator.close();
});

/** A stack of the suite on `emulator`, Node's compile cache shared by its processes (each command starts faster). */
function stackOn(runtime: "inline" | "yaml", projectName: string, emulator: Emulator): EngineStack {
  return suite.stack(runtime, projectName, {
    config: emulatorStackConfig(emulator),
    env: { NODE_COMPILE_CACHE: join(suite.project.dir, ".node-compile-cache") },
  });
}

async function emulatorOf(options: Parameters<typeof startEmulator>[0]): Promise<Emulator> {
  const base = scenarioEmulator();
  const emulator = await startEmulator({
    ...base,
    ...options,
    snapshot: { ...base.snapshot, ...options?.snapshot },
    runTask: { ...base.runTask, ...options?.runTask },
  });
  emulators.push(emulator);
  return emulator;
}

const s3 = (name: string) => ({
  name,
  interval: 3600,
  pathPrefix: "backups",
  storageType: "cloudA-s3",
  cloudAS3Bucket: "snapshots",
  cloudAS3Region: "eu-west-1",
  cloudAAccessKeyId: `AKIA-${name}`,
  cloudASecretAccessKey: `secret-canary-${name}`,
  cloudASessionToken: `session-canary-${name}`,
});
const CONFIGS: ResourceSpec[] = [
  { type: "SnapshotAutoConfig", name: "dynamic-s3", args: s3("dynamic-s3") },
  {
    type: "SnapshotAutoConfig",
    name: "dynamic-gcs",
    args: {
      interval: 3600,
      pathPrefix: "backups/",
      storageType: "cloudC-gcs",
      cloudCGcsBucket: "snapshots",
      cloudCServiceAccountKey: '{"private_key":"pk-canary"}',
    },
  },
  { type: "snapshot:index:SnapshotAutoConfig", name: "plugin-s3", args: s3("plugin-s3") },
  {
    type: "snapshot:index:SnapshotAutoConfig",
    name: "plugin-blob",
    args: {
      interval: 3600,
      pathPrefix: "backups/",
      storageType: "cloudB-blob",
      cloudBContainerName: "snapshots",
      cloudBAccountName: "account",
      cloudBAccountKey: "account-key-canary",
    },
  },
];
const NAMES = CONFIGS.map((c) => c.name);
const CANARIES = ["secret-canary", "session-canary", "pk-canary", "account-key-canary"];
const CREDENTIAL_KEYS = /^cloud(A_access_key_id|A_secret_access_key|A_session_token|B_account_key|C_service_account_key)$/;

/** Per shape: what the state learns each configuration's service hides, and which configurations show a credential removed outside. */
const SHAPES: [SnapshotEmulatorOptions["echoCredentials"], Record<string, string[]>, string[]][] = [
  [true, { "dynamic-s3": [], "dynamic-gcs": [], "plugin-s3": [], "plugin-blob": [] }, NAMES],
  [
    false,
    {
      "dynamic-s3": ["cloudAAccessKeyId", "cloudASecretAccessKey", "cloudASessionToken"],
      "dynamic-gcs": ["cloudCServiceAccountKey"],
      "plugin-s3": ["cloudAAccessKeyId", "cloudASecretAccessKey", "cloudASessionToken"],
      "plugin-blob": ["cloudBAccountKey"],
    },
    [],
  ],
  ["masked", { "dynamic-s3": [], "dynamic-gcs": [], "plugin-s3": [], "plugin-blob": [] }, NAMES],
  [
    "identifiers",
    {
      "dynamic-s3": ["cloudASecretAccessKey", "cloudASessionToken"],
      "dynamic-gcs": ["cloudCServiceAccountKey"],
      "plugin-s3": ["cloudASecretAccessKey", "cloudASessionToken"],
      "plugin-blob": ["cloudBAccountKey"],
    },
    ["dynamic-s3", "plugin-s3"],
  ],
];

/** The service's configuration of each name, as another client's write would leave it with no credential. */
function removeCredentials(emulator: Emulator): void {
  for (const held of emulator.snapshot.configs.values()) {
    for (const key of Object.keys(held.config)) if (CREDENTIAL_KEYS.test(key)) delete held.config[key];
  }
}
const credentialsHeld = (emulator: Emulator, name: string) =>
  Object.keys(emulator.snapshot.configs.get(name)?.config ?? {}).filter((k) => CREDENTIAL_KEYS.test(k)).length;

describe.each(SHAPES)("a snapshot service with echoCredentials %j", (echo, hidden, showsRemoval) => {
  test("up --refresh after the create writes nothing, on both routes; credentials removed outside are written back where the service shows them", async () => {
    // The run task half renders an empty description as null: a program's `description: ""` is none there too.
    const emulator = await emulatorOf({ snapshot: { echoCredentials: echo }, runTask: { emptyDescriptionAsNull: true } });
    const tasks: ResourceSpec[] = [
      { type: "RunTask", name: "dynamic-task", args: { url: "https://hooks.example.com/scan", description: "" } },
      { type: "runtask:index:RunTask", name: "plugin-task", args: { url: "https://hooks.example.com/scan", description: "" } },
    ];
    const stack = stackOn("inline", `shape-${String(echo)}`, emulator);
    stack.program({ resources: [...CONFIGS, ...tasks] });
    const all = [...NAMES, "dynamic-task", "plugin-task"];

    const up = await stack.up();
    expect(up.error).toBeUndefined();
    expect(opsByName(up)).toEqual(Object.fromEntries(all.map((n) => [n, "create"])));
    // What the read after each create learned, in the state where a credential is set; no secret in plain text.
    const learned = Object.fromEntries(packageResources(stack.state()).map((r) => [nameOf(r.urn), r.outputs?.__hiddenCredentials]));
    expect(learned).toEqual({ ...hidden, "dynamic-task": undefined, "plugin-task": undefined });
    for (const canary of CANARIES) expect(stack.state().text).not.toContain(canary);

    emulator.requests.reset();
    const again = await stack.up({ refresh: true });
    expect(again.error).toBeUndefined();
    expect(opsByName(again)).toEqual(Object.fromEntries(all.map((n) => [n, "same"])));
    expect(emulator.requests.writes()).toBe(0);

    removeCredentials(emulator);
    emulator.requests.reset();
    const afterRemoval = await stack.up({ refresh: true });
    expect(afterRemoval.error).toBeUndefined();
    expect(opsByName(afterRemoval)).toEqual(Object.fromEntries(all.map((n) => [n, showsRemoval.includes(n) ? "update" : "same"])));
    expect(emulator.requests.writes()).toBe(showsRemoval.length);
    // Written back with every credential the program gives; the others stay removed, which no read of theirs can show.
    for (const name of NAMES) expect([name, credentialsHeld(emulator, name) > 0]).toEqual([name, showsRemoval.includes(name)]);
    if (showsRemoval.length > 0) {
      emulator.requests.reset();
      expect(opsByName(await stack.up({ refresh: true }))).toEqual(Object.fromEntries(all.map((n) => [n, "same"])));
      expect(emulator.requests.writes()).toBe(0);
    }
  });
});

describe("a run task list that changes while a program's function pages it (listChurn)", () => {
  let churning: Emulator;
  beforeAll(async () => {
    churning = await emulatorOf({ runTask: { listChurn: "remove" } });
    // 100 ahead of scanner and 150 behind it: every read of the list has later pages, and changes under each.
    for (let i = 0; i < 100; i++) churning.runTask.addTask("acme", { name: `other-${i}` });
    churning.runTask.addTask("acme", { name: "scanner" });
    for (let i = 0; i < 150; i++) churning.runTask.addTask("acme", { name: `later-${i}` });
  });
  const changing = 'the task list of organization "acme" changed while it was read (its pages disagree, 3 reads)';

  test("a YAML program's getRunTask (the plugin's Invoke) fails saying so, and records no output", async () => {
    const stack = stackOn("yaml", "churn-yaml", churning);
    stack.yamlProgram(`variables:
  scanner:
    fn::invoke:
      function: runtask:index:getRunTask
      arguments:
        name: scanner
outputs:
  scannerId: \${scanner.id}
`);
    const up = await stack.up();
    expect(up.ok).toBe(false);
    expect(up.output).toContain(`getRunTask: ${changing}`);
    expect(up.output).not.toContain("no run task named");
    expect(stack.state().resources.find((r) => r.type === "pulumi:pulumi:Stack")?.outputs ?? {}).toEqual({});
  });

  test("a Node.js program's getRunTask and listRunTasks (the SDK's) fail saying so, never a part of the list", async () => {
    const stack = stackOn("inline", "churn-node", churning);
    const file = join(stack.programDir, "index.js");
    writeFileSync(
      file,
      `const { getRunTask, listRunTasks } = require("pulumi-snapshot-runtask");
module.exports = async () => {
  const failures = [];
  for (const call of [() => getRunTask({ name: "scanner" }), () => listRunTasks()]) {
    try {
      await call();
    } catch (err) {
      failures.push({ code: err.code, message: err.message });
    }
  }
  return { failures };
};
`,
    );
    const up = await stack.programModule(file).up();
    expect(up.error).toBeUndefined();
    expect(up.outputs?.failures.value).toEqual([
      {
        code: "conflict",
        message: `getRunTask: ${changing}: what it leaves out proves nothing, so it is not taken as complete; run the command again`,
      },
      {
        code: "conflict",
        message: `listRunTasks: ${changing}: what it leaves out proves nothing, so it is not taken as complete; run the command again`,
      },
    ]);
  });
});
