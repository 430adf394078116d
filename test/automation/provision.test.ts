import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createConsumerProject, type ConsumerProject } from "../../toolchain/consumerProject";
import { startEmulator, type Emulator } from "../../emulator";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { isEncryptedSecret, nameOf, packageResources, readStackState } from "../support/engine/stateFile";
import { Switchboard } from "../support/switchboard";
import { HeldRequests, until } from "./support/heldRequests";
import { RecordedCli, type RecordedCall } from "./support/recordedCli";

/**
 * The Automation API helper through the real Pulumi CLI (the project's build), against the emulator, loaded from
 * the packed package installed in a consumer project as users get it. `pulumi` on PATH is cliRecorder.js, which
 * logs each call's command line, environment (names; of the tokens only whether they are set), working directory
 * and exit code, and runs the real CLI: what the helper makes the CLI do, with which secrets where, what the CLI
 * and the engine answer, and what is left behind, whatever the outcome. One stack per scenario, several steps on it.
 */
jest.setTimeout(300_000);

type Automation = typeof import("../../automation");
type StackOptions = import("../../automation").ProvisioningStackOptions;
type ProvisioningError = import("../../automation").ProvisioningError;

const RUNTASK_TOKEN = "canary-runtask-token-5d1e";
const SNAPSHOT_TOKEN = "canary-snapshot-token-93ab";
const HMAC_KEY = "canary-hmac-key-0c4f";
const SECRET_CONFIG = "canary-secret-config-7e21";
const PASSPHRASE = "canary-passphrase-44aa";
const ACCESS_TOKEN = "canary-access-token-b8d2";
const CANARIES = [RUNTASK_TOKEN, SNAPSHOT_TOKEN, HMAC_KEY, SECRET_CONFIG, PASSPHRASE, ACCESS_TOKEN];

const PROJECT = "snapshot-runtask-provisioning";
const RT = "pulumi-nodejs:dynamic/runtask:RunTask";
const TASKS_ROUTE = "/api/v2/organizations/:org/tasks";

let project: ConsumerProject;
let cli: RecordedCli;
let automation: Automation;
let emulator: Emulator;
let backend: string;
let backendUrl: string;
const calls = new Switchboard();

beforeAll(async () => {
  project = createConsumerProject();
  // Before the helper is loaded: its work folders and the Automation API's event logs go to the recorder's TMPDIR.
  cli = new RecordedCli();
  automation = createRequire(join(project.dir, "index.js"))("pulumi-snapshot-runtask/automation");
  emulator = await startEmulator({
    snapshot: { tokens: { [SNAPSHOT_TOKEN]: { sudo: true } }, takeSnapshots: false },
    runTask: { tokens: { [RUNTASK_TOKEN]: { owner: true } }, organizations: [{ name: "acme", workspaces: [{ name: "prod" }, { name: "staging" }] }] },
    interceptors: [calls.interceptor],
  });
  backend = cli.dir("state");
  backendUrl = pathToFileURL(backend).href;
});

afterAll(async () => {
  calls.reset();
  await emulator?.close();
  cli?.remove();
  project?.remove();
});

afterEach(() => {
  calls.reset();
  // Whatever the outcome, a call leaves no work folder, event log or stack selection behind.
  expect(cli.leftovers()).toEqual([]);
});

const workspace = (name: string) => emulator.runTask.workspace(name).id;

/** Options of one scenario's stack: its run task (named after the stack, as the organization's names are one space) attached to prod. */
function options(stackName: string, overrides: Partial<StackOptions> = {}): StackOptions {
  return {
    stackName,
    backendUrl,
    passphrase: PASSPHRASE,
    programDir: project.dir,
    credentials: {
      snapshot: { address: emulator.url, token: SNAPSHOT_TOKEN },
      runTask: { address: emulator.url, token: RUNTASK_TOKEN, organization: "acme" },
    },
    description: {
      runTasks: { scanner: { name: `${stackName}-scanner`, url: "https://hooks.example.com/scan", hmacKey: HMAC_KEY } },
      attachments: [{ task: "scanner", workspaceIds: [workspace("prod")], enforcementLevel: "mandatory" }],
    },
    ...overrides,
  };
}

/** Every string an error carries, its cause's included, to look for secrets in. */
function everythingIn(err: unknown, seen = new Set<unknown>()): string {
  if (err === null || typeof err !== "object" || seen.has(err)) return typeof err === "string" ? err : "";
  seen.add(err);
  const own = Object.getOwnPropertyNames(err).map((k) => (err as Record<string, unknown>)[k]);
  return [String(err), ...own.map((v) => (typeof v === "string" ? v : everythingIn(v, seen)))].join("\n");
}

/** The text of every file under `dir` (the backend's state and history, the CLI's home with its logs). */
function filesUnder(dir: string): string {
  if (!existsSync(dir)) return "";
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
}

function expectNoCanary(text: string): void {
  for (const canary of CANARIES) expect(text).not.toContain(canary);
}

async function failure(promise: Promise<unknown>): Promise<ProvisioningError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(automation.ProvisioningError);
  return err as ProvisioningError;
}

const commandLine = (c: RecordedCall) => c.args.join(" ");
const commandAndCode = (c: RecordedCall) => `${c.args.slice(0, c.args[0] === "version" || c.args[0] === "up" ? 1 : 2).join(" ")} ${c.code}`;
const stateOf = (stackName: string) => readStackState(backend, PROJECT, stackName);
/** The service holds exactly the objects the backend's stacks name, once each. */
const expectServiceMatchesBackend = () => {
  const dir = join(backend, ".pulumi/stacks", PROJECT);
  const stacks = readdirSync(dir).filter((f) => f.endsWith(".json"));
  expectServiceMatchesState(emulator, ...stacks.map((f) => ({ state: () => stateOf(f.slice(0, -".json".length)) })));
};
/** The secrets provider the stack's state records (its type, and for the passphrase its salt). */
const secretsProviderOf = (stackName: string) => JSON.parse(stateOf(stackName).text).checkpoint.latest.secrets_providers;
const stackFileExists = (stackName: string) => existsSync(join(backend, ".pulumi/stacks", PROJECT, `${stackName}.json`));
/** The stack's lock files in the backend: none once an update has ended, however it ended. */
const locks = () => {
  const dir = join(backend, ".pulumi/locks");
  return existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json")) : [];
};
const refuseTaskCreate = (taskName: string, detail: string) =>
  calls.answers.push((req, route) =>
    req.method === "POST" && route === TASKS_ROUTE && JSON.stringify(req.body).includes(`"${taskName}"`)
      ? { status: 422, body: { errors: [{ status: "422", title: "invalid attribute", detail }] } }
      : undefined,
  );
const holdTaskCreate = (taskName: string) => {
  const held = new HeldRequests((req, route) => req.method === "POST" && route === TASKS_ROUTE && JSON.stringify(req.body).includes(`"${taskName}"`));
  calls.answers.push(held.answer);
  return held;
};

describe("a stack's life: preview, provision, provision again, preview, open, destroy", () => {
  const stack = "platform";
  const o = () =>
    options(stack, {
      secretsProvider: "passphrase",
      config: { "app:apiKey": { value: SECRET_CONFIG, secret: true }, "snapshot:requestTimeout": { value: "60s" } },
      description: {
        ...options(stack).description,
        snapshots: {
          nightly: { name: `${stack}-nightly`, interval: "24h", storageType: "local", pathPrefix: "/var/snapshots", localMaxSpace: 1_000_000 },
        },
      },
    });
  // A CI job's backend in the process's environment: the CLI would prefer it to the project's, and must not see it.
  let elsewhere: string;
  beforeAll(() => {
    elsewhere = cli.dir("ambient-state");
    process.env.PULUMI_BACKEND_URL = pathToFileURL(elsewhere).href;
  });
  afterAll(() => delete process.env.PULUMI_BACKEND_URL);
  afterEach(() => {
    // Every CLI call used backendUrl, in its environment and in the project file, and nothing reached the other.
    for (const call of cli.calls().filter((c) => c.args[0] !== "version")) {
      expect(call.values.PULUMI_BACKEND_URL).toBe(backendUrl);
      expect(call.files["Pulumi.yaml"]).toContain(`url: ${backendUrl}`);
    }
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test("before the first provision: preview, destroy and opening say there is no stack, and create none", async () => {
    cli.reset();
    const cases: [string, () => Promise<unknown>][] = [
      ["preview of stack", () => automation.previewProvisioning(o())],
      ["destroy of stack", () => automation.destroyProvisioning({ ...o(), removeStack: true })],
      ["opening stack", () => automation.withProvisioningStack(o(), async () => undefined)],
    ];
    for (const [what, call] of cases) {
      const err = await failure(call());
      expect(err).toMatchObject({ kind: "stack-not-found", step: "select" });
      expect(err.message).toBe(
        `${what} "${stack}": the backend ${backendUrl} holds no stack "${stack}" (nothing was created). ` +
          "Check stackName, projectName and backendUrl; provision creates the stack",
      );
    }
    expect(cli.calls().map(commandAndCode)).toEqual(["version 0", "stack select 6", "version 0", "stack select 6", "version 0", "stack select 6"]);
    expect(stackFileExists(stack)).toBe(false);
  });

  test("provision creates the stack and everything in it: the CLI's calls, the tokens in the environment only, secret config on stdin, the outputs, the summary and the engine's events", async () => {
    cli.reset();
    const lines: string[] = [];
    const result = await automation.provision({
      ...o(),
      parallel: 4,
      message: "attach the scanner",
      onEvent: (e) => void lines.push(automation.describeEngineEvent(e) ?? ""),
    });
    const task = emulator.runTask.tasks().find((t) => t.name === `${stack}-scanner`)!;
    const association = emulator.runTask.workspaceTasks({ taskId: task.id })[0];

    // The engine's counts include the stack itself.
    expect(result.changes).toEqual({ create: 4 });
    expect(result.outputs.runTasks.scanner).toEqual({
      id: task.id,
      name: `${stack}-scanner`,
      organization: "acme",
      url: "https://hooks.example.com/scan",
      enabled: true,
    });
    expect(result.outputs.snapshots.nightly).toMatchObject({ name: `${stack}-nightly`, interval: 86400, storageType: "local" });
    expect(result.outputs.attachments[`scanner-on-${workspace("prod")}`]).toMatchObject({ id: association.id, taskId: task.id });
    expect(result.summary).toMatchObject({ result: "succeeded", message: "attach the scanner", resourceChanges: { create: 4 } });
    // The summary names the secret config entry, without its value.
    expect(result.summary.config["app:apiKey"]).toEqual({ secret: true });
    expectNoCanary(JSON.stringify(result));
    // The tokens reached the provider plugin: the emulator accepts these two only.
    expect(emulator.snapshot.configs.has(`${stack}-nightly`)).toBe(true);

    expect(lines.filter(Boolean).sort()).toEqual(
      [
        "+ create RunTask scanner",
        `  created RunTask scanner (${task.id})`,
        "+ create SnapshotAutoConfig nightly",
        `  created SnapshotAutoConfig nightly (${stack}-nightly)`,
        `+ create WorkspaceRunTask scanner-on-${workspace("prod")}`,
        `  created WorkspaceRunTask scanner-on-${workspace("prod")} (${association.id})`,
        expect.stringMatching(/^done in \d+s: 4 created$/),
      ].sort(),
    );

    expect(cli.calls().map(commandAndCode)).toEqual([
      "version 0",
      "stack select 6",
      "stack init 0",
      "config set-all 0",
      "config set 0",
      "up 0",
      "stack output 0",
      "stack output 0",
      "stack history 0",
    ]);
    expect(commandLine(cli.callsOf("stack init")[0])).toBe(`stack init ${stack} --secrets-provider passphrase --non-interactive`);
    expect(secretsProviderOf(stack)).toMatchObject({ type: "passphrase", state: { salt: expect.stringMatching(/^v1:/) } });
    expect(commandLine(cli.callsOf("config set-all")[0])).toBe(
      `config set-all --stack ${stack} --plaintext snapshot:address=${emulator.url} --plaintext runtask:address=${emulator.url} ` +
        "--plaintext runtask:organization=acme --plaintext snapshot:requestTimeout=60s --non-interactive",
    );
    // The secret config value went on the CLI's standard input; the stack's settings file holds it encrypted.
    expect(cli.callsOf("config set")[0].args).toEqual(["config", "set", "--stack", stack, "--secret", "--non-interactive", "--", "app:apiKey"]);
    const [up] = cli.callsOf("up");
    expect(commandLine(up)).toMatch(
      new RegExp(
        `^up --yes --skip-preview --message attach the scanner --parallel 4 --client=127\\.0\\.0\\.1:\\d+ --exec-kind auto\\.inline ` +
          `--event-log tcp://127\\.0\\.0\\.1:\\d+ --stack ${stack} --non-interactive$`,
      ),
    );
    expect(up.files[`Pulumi.${stack}.yaml`]).toMatch(/app:apiKey:\n\s+secure: v1:/);
    expect(commandLine(cli.callsOf("stack history")[0])).not.toContain("--show-secrets");
    for (const call of cli.calls()) {
      expectNoCanary(commandLine(call));
      for (const file of Object.values(call.files)) expectNoCanary(file);
      if (call.args[0] === "version") continue;
      expect(call.secrets).toMatchObject({ RUNTASK_TOKEN: true, SERVICE_TOKEN: true, PULUMI_CONFIG_PASSPHRASE: true });
      expect(call.values.PULUMI_FALLBACK_TO_STATE_SECRETS_MANAGER).toBe("true");
    }

    // What is kept: no secret in plain text in the backend's files or the CLI's home; the HMAC key encrypted.
    expectNoCanary(filesUnder(backend));
    expectNoCanary(filesUnder(cli.home));
    const scanner = packageResources(stateOf(stack)).find((r) => nameOf(r.urn) === "scanner")!;
    expect(isEncryptedSecret(scanner.inputs?.hmacKey)).toBe(true);
    expect(isEncryptedSecret(scanner.outputs?.hmacKey)).toBe(true);
    expectServiceMatchesBackend();
  });

  test("provision again, refreshing first: no change and no write; preview: no change, with its options on its command line; the secrets provider read from the state each time", async () => {
    cli.reset();
    emulator.requests.reset();
    // Each call works in a new folder, without the stack's settings file: the CLI would make a new salt every time.
    const secretsProvider = secretsProviderOf(stack);
    const again = await automation.provision({ ...o(), refresh: true });
    expect(again.changes).toEqual({ same: 4 });
    expect(commandLine(cli.callsOf("up")[0])).toMatch(/^up --yes --skip-preview --refresh --client=/);
    const { changes } = await automation.previewProvisioning({ ...o(), parallel: 2, refresh: true, message: "review" });
    expect(changes).toEqual({ same: 4 });
    expect(commandLine(cli.callsOf("preview")[0])).toMatch(/^preview --message review --refresh --parallel 2 --client=/);
    expect(emulator.requests.writes()).toBe(0);
    expect(cli.callsOf("stack init")).toEqual([]);
    expect(secretsProviderOf(stack)).toEqual(secretsProvider);
  });

  test("withProvisioningStack gives the stack, selected, with its config, to the caller's code; an error of that code leaves as it came", async () => {
    cli.reset();
    const [exported, history, apiKey] = await automation.withProvisioningStack(o(), async (s) => [
      await s.exportStack(),
      await s.history(),
      (await s.history(1, 1, true))[0].config["app:apiKey"],
    ]);
    expect(
      exported.deployment.resources.map((r: { type: string }) => r.type).filter((t: string) => t.startsWith("pulumi-nodejs:dynamic")),
    ).toHaveLength(3);
    expect(history.map((h) => h.message)).toEqual(["", "attach the scanner"]);
    // The update ran with the secret config value, whole: the CLI read it from its standard input.
    expect(apiKey).toEqual({ value: SECRET_CONFIG, secret: true });
    expect(cli.callsOf("stack export")[0].secrets.RUNTASK_TOKEN).toBe(true);

    const mine = new Error("mine");
    await expect(automation.withProvisioningStack(o(), async () => Promise.reject(mine))).rejects.toBe(mine);
  });

  test("destroy with removeStack deletes everything, then the stack", async () => {
    cli.reset();
    const { changes } = await automation.destroyProvisioning({ ...o(), removeStack: true });
    expect(changes).toEqual({ delete: 4 });
    expect(cli.callsOf("stack rm").map(commandLine)).toEqual([`stack rm --yes ${stack} --non-interactive`]);
    expect(stackFileExists(stack)).toBe(false);
    expect(emulator.runTask.tasks().filter((t) => t.name.startsWith(stack))).toEqual([]);
    expect(emulator.snapshot.configs.has(`${stack}-nightly`)).toBe(false);
    await expect(automation.withProvisioningStack(o(), async () => undefined)).rejects.toMatchObject({ kind: "stack-not-found" });
  });
});

describe("calls that fail", () => {
  const stack = "failing";

  test("on a CLI older than the helper needs (the recorder answers `pulumi version` with 3.150.0), before anything else runs", async () => {
    cli.reset();
    cli.answerVersion("3.150.0");
    try {
      const err = await failure(automation.provision(options(stack)));
      expect(err.message).toMatch(/the Pulumi CLI is version 3\.150\.0; provisioning needs 3\.181\.0 or later/);
    } finally {
      cli.answerVersion(undefined);
    }
    expect(cli.calls().map(commandAndCode)).toEqual(["version 0"]);
    expect(stackFileExists(stack)).toBe(false);
  });

  test("from a program folder where the package is not installed, before the CLI runs, with the fix", async () => {
    cli.reset();
    await expect(automation.provision(options(stack, { programDir: cli.dir("bare") }))).rejects.toThrow(
      /pulumi-snapshot-runtask is not installed in .*bare.*Install the package there/,
    );
    expect(cli.calls()).toEqual([]);
  });

  test("a resource the service refuses: which and why, once, every secret the output held replaced, in the error, its cause and the progress callbacks", async () => {
    cli.reset();
    // The service's message quotes secrets the provider does not know: an access token of the caller's and the passphrase.
    refuseTaskCreate(`${stack}-scanner`, `url is not reachable (seen with ${ACCESS_TOKEN} and ${PASSPHRASE})`);
    const seen: string[] = [];
    const o = options(stack, { envVars: { PULUMI_ACCESS_TOKEN: ACCESS_TOKEN } });
    const err = await failure(
      automation.provision({ ...o, onEvent: (e) => void seen.push(JSON.stringify(e)), onOutput: (text) => void seen.push(text) }),
    );
    const why =
      "run task service: POST /organizations/acme/tasks failed (HTTP 422): invalid attribute: url is not reachable (seen with [secret] and [secret])";
    expect(err).toMatchObject({ kind: "resources-failed", step: "up" });
    expect(err.failures).toEqual([
      { name: "scanner", kind: "RunTask", op: "create", urn: `urn:pulumi:${stack}::${PROJECT}::${RT}::scanner`, message: why },
    ]);
    expect(err.message).toBe(`provision of stack "${stack}" failed: 1 resource failed\n  create RunTask scanner: ${why}`);
    expect(everythingIn(err.cause)).toContain("**creating failed**");
    expectNoCanary(everythingIn(err));
    expect(seen.join("\n")).toContain("url is not reachable (seen with [secret] and [secret])");
    expectNoCanary(seen.join("\n"));
    expect(cli.callsOf("up")[0].secrets.PULUMI_ACCESS_TOKEN).toBe(true);
    // Nothing was made; the state records nothing of the package's.
    expect(packageResources(stateOf(stack))).toEqual([]);
    expectServiceMatchesBackend();
  });

  test("without the passphrase: at the config step where a secret is to be set, else at up; no secret anywhere; the backend given, whatever the environment's", async () => {
    cli.reset();
    const o = options(stack, { passphrase: undefined });
    const elsewhere = cli.dir("ci-state");
    process.env.PULUMI_BACKEND_URL = pathToFileURL(elsewhere).href;
    let atConfig: ProvisioningError;
    try {
      atConfig = await failure(automation.provision({ ...o, config: { "app:apiKey": { value: SECRET_CONFIG, secret: true } } }));
    } finally {
      delete process.env.PULUMI_BACKEND_URL;
    }
    expect(atConfig).toMatchObject({ kind: "failed", step: "config", stackName: stack, failures: [] });
    expect(atConfig.message).toBe(
      `provision of stack "${stack}" failed while setting the stack's config: constructing secrets manager of type "passphrase": ` +
        "constructing secrets manager: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables",
    );
    expect(cli.callsOf("up")).toEqual([]);

    const atUp = await failure(automation.provision(o));
    expect(atUp).toMatchObject({ kind: "failed", step: "up", failures: [] });
    expect(atUp.message).toBe(
      `provision of stack "${stack}" failed: getting stack configuration: get stack secrets manager: constructing secrets manager of type ` +
        '"passphrase": constructing secrets manager: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE ' +
        "environment variables",
    );
    expect((atUp.cause as Error).name).toBe("CommandError");
    for (const err of [atConfig, atUp]) expectNoCanary(everythingIn(err));
    for (const call of cli.calls()) {
      expectNoCanary(commandLine(call));
      if (call.args[0] !== "version") expect(call.values.PULUMI_BACKEND_URL).toBe(backendUrl);
    }
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test("with a wrong passphrase, on a stack whose state holds no secret yet: the CLI runs, and the step fails writing the state; that is the passphrase's failure, not the resource's", async () => {
    const err = await failure(automation.provision(options(stack, { passphrase: "not-the-passphrase" })));
    expect(err).toMatchObject({ kind: "failed", step: "up", failures: [] });
    expect(err.message).toBe(
      `provision of stack "${stack}" failed: pre-step event returned an error: failed to serialize snapshot: failed to encrypt: incorrect ` +
        "passphrase, please set PULUMI_CONFIG_PASSPHRASE to the correct passphrase or set PULUMI_CONFIG_PASSPHRASE_FILE to a file containing the passphrase",
    );
    expect(emulator.runTask.tasks().filter((t) => t.name.startsWith(stack))).toEqual([]);
  });

  test("then the same description succeeds; on a CLI before 3.206 (the recorder answers `pulumi version` with 3.190.0) the engine's events come through an event log file", async () => {
    cli.reset();
    cli.answerVersion("3.190.0");
    const lines: string[] = [];
    try {
      const result = await automation.provision({ ...options(stack), onEvent: (e) => void lines.push(automation.describeEngineEvent(e) ?? "") });
      expect(result.changes).toEqual({ create: 2, same: 1 });
    } finally {
      cli.answerVersion(undefined);
    }
    expect(commandLine(cli.callsOf("up")[0])).toMatch(new RegExp(`--event-log ${cli.tmp}/automation-logs-up-\\w+/eventlog\\.txt `));
    const task = emulator.runTask.tasks().find((t) => t.name === `${stack}-scanner`)!;
    const association = emulator.runTask.workspaceTasks({ taskId: task.id })[0];
    expect(lines.filter(Boolean).sort()).toEqual(
      [
        "+ create RunTask scanner",
        `  created RunTask scanner (${task.id})`,
        `+ create WorkspaceRunTask scanner-on-${workspace("prod")}`,
        `  created WorkspaceRunTask scanner-on-${workspace("prod")} (${association.id})`,
        expect.stringMatching(/^done in \d+s: 2 created, 1 unchanged$/),
      ].sort(),
    );
    expectServiceMatchesBackend();
  });
});

describe("calls that meet", () => {
  const stack = "shared";

  test("two provision calls of this process for one stack both succeed, one after the other", async () => {
    cli.reset();
    const notices: string[] = [];
    const [a, b] = await Promise.all([
      automation.provision(options(stack)),
      automation.provision({ ...options(stack), onNotice: (l) => notices.push(l) }),
    ]);
    expect(a.changes).toEqual({ create: 3 });
    expect(b.changes).toEqual({ same: 3 });
    const ups = cli.callsOf("up");
    expect(ups.map((u) => u.code)).toEqual([0, 0]);
    expect(Date.parse(ups[1].started)).toBeGreaterThanOrEqual(Date.parse(ups[0].ended));
    expect(cli.callsOf("stack init")).toHaveLength(1);
    expect(notices).toEqual([`stack "${stack}": waiting for another call on this stack in this process to finish`]);
  });

  test("an abort while waiting for this process's earlier call gives up the turn; the earlier call finishes", async () => {
    cli.reset();
    const controller = new AbortController();
    const first = automation.provision(options(stack));
    const second = automation.provision({ ...options(stack), signal: controller.signal, onNotice: () => controller.abort() });
    expect((await failure(second)).kind).toBe("cancelled");
    await expect(first).resolves.toMatchObject({ changes: { same: 3 } });
    expect(cli.callsOf("up")).toHaveLength(1);
  });

  test("an update run from another process holds the stack's lock: a call waits it out, with notices, or fails past concurrentUpdateWait, saying how to go on", async () => {
    cli.reset();
    // The other process adds a task, whose create the emulator holds: its update keeps the lock until released.
    const o = options(stack, {
      description: {
        ...options(stack).description,
        runTasks: { ...options(stack).description.runTasks, audit: { name: `${stack}-audit`, url: "https://hooks.example.com/audit" } },
      },
    });
    const held = holdTaskCreate(`${stack}-audit`);
    const request = join(cli.dir("elsewhere"), "options.json");
    writeFileSync(request, JSON.stringify(o));
    const other = spawn(process.execPath, [join(__dirname, "support/provisionElsewhere.js"), request], { cwd: project.dir, env: process.env });
    let otherOutput = "";
    other.stdout.on("data", (d: Buffer) => (otherOutput += d));
    other.stderr.on("data", (d: Buffer) => (otherOutput += d));
    const otherDone = new Promise<number | null>((resolve) => other.on("close", resolve));
    try {
      await until(() => held.arrived(), "the other process's create to reach the emulator");

      const began = Date.now();
      const late = await failure(automation.provision({ ...o, concurrentUpdateWait: 1500 }));
      expect(Date.now() - began).toBeLessThan(30_000); // bounded, where the default would wait 10 minutes
      expect(late.kind).toBe("concurrent-update");
      expect(late.message).toMatch(
        new RegExp(
          `^provision of stack "${stack}": another update of the stack holds its lock and was still running after \\d+ (ms|seconds?) of waiting`,
        ),
      );
      expect(late.message).toContain(`pulumi cancel --stack ${stack}`);
      // The real CLI said so, each time, before it changed anything.
      expect(cli.callsOf("up").length).toBeGreaterThanOrEqual(2);
      expect(cli.callsOf("up").every((u) => u.code !== 0)).toBe(true);

      cli.reset();
      setTimeout(() => held.release(), 2500);
      const notices: string[] = [];
      const waited = await automation.provision({ ...o, concurrentUpdateWait: "30s", onNotice: (l) => notices.push(l) });
      expect(waited.changes).toEqual({ same: 4 });
      expect(notices[0]).toMatch(
        new RegExp(
          `^stack "${stack}": another update of the stack is running; trying again in 1 second \\(waited \\d+ (ms|seconds?) of 30 seconds\\)$`,
        ),
      );
      const ups = cli.callsOf("up");
      expect(ups.length).toBeGreaterThanOrEqual(2);
      expect(ups.slice(0, -1).every((u) => u.code !== 0)).toBe(true);
      expect(ups.at(-1)!.code).toBe(0);
    } finally {
      held.release();
    }
    expect(await otherDone).toBe(0);
    expect(otherOutput).toContain('@@result {"ok":true,"changes":{"create":1,"same":3}}');
    expect(locks()).toEqual([]);
    expectServiceMatchesBackend();
  });

  test("a stack another party creates between the helper's select and its init (the recorder holds the helper's `stack init` until then) is selected", async () => {
    const raced = "raced";
    cli.reset();
    const hold = cli.hold("stack init");
    const result = automation.provision(options(raced));
    try {
      await until(hold.held, "the helper's stack init");
      // The other party: the real CLI, in a project folder and a home of its own, with the same backend and passphrase.
      const dir = cli.dir("other-party");
      writeFileSync(join(dir, "Pulumi.yaml"), `name: ${PROJECT}\nruntime: nodejs\n`);
      const init = spawnSync(cli.realCli, ["stack", "init", raced, "--non-interactive"], {
        cwd: dir,
        env: { ...process.env, PULUMI_HOME: cli.dir("other-party-home"), PULUMI_BACKEND_URL: backendUrl, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE },
        encoding: "utf8",
      });
      expect([init.status, init.stderr]).toEqual([0, `Created stack '${raced}'\n`]);
    } finally {
      hold.release();
    }
    await expect(result).resolves.toMatchObject({ changes: { create: 3 } });
    expect(cli.calls().map(commandAndCode).slice(0, 5)).toEqual([
      "version 0",
      "stack select 6",
      "stack init 1",
      "stack select 0",
      "config set-all 0",
    ]);
    expect(cli.callsOf("stack init")[0].args).toEqual(["stack", "init", raced, "--non-interactive"]);
  });
});

describe("cancelling", () => {
  const stack = "cancelled";

  test("an abort before the call starts runs nothing", async () => {
    cli.reset();
    const err = await failure(automation.provision({ ...options(stack), signal: AbortSignal.abort() }));
    expect(err.kind).toBe("cancelled");
    expect(cli.calls()).toEqual([]);
  });

  test("an abort while up runs interrupts the CLI (SIGINT), which finishes the step in flight, records it, releases the stack and stops; a call for another stack meanwhile did not wait; the next provision carries on", async () => {
    cli.reset();
    const held = holdTaskCreate(`${stack}-scanner`);
    const controller = new AbortController();
    let output = "";
    const running = failure(automation.provision({ ...options(stack), signal: controller.signal, onOutput: (text) => (output += text) }));
    let interruptedAt = Date.now();
    try {
      await until(() => held.arrived(), "the create of the task to reach the emulator");
      // Another stack's provision runs to its end while this one holds its own stack.
      const beside = await automation.provision(
        options("beside", {
          description: {
            snapshots: { daily: { name: "beside-daily", interval: "24h", storageType: "local", pathPrefix: "/var/snapshots", localMaxSpace: 1_000 } },
          },
        }),
      );
      expect(beside.changes).toEqual({ create: 2 });
      interruptedAt = Date.now();
      controller.abort();
      // The create in flight is answered once the CLI is cancelling: it waits for it.
      await until(() => output.includes("^C received; cancelling."), "the CLI to say it is cancelling");
    } finally {
      held.release();
    }
    const err = await running;
    expect(Date.now() - interruptedAt).toBeLessThan(30_000);
    expect(err).toMatchObject({ kind: "cancelled", step: "up" });
    expect(err.message).toBe(
      `provision of stack "${stack}" cancelled: the CLI was interrupted; it stopped after the steps in flight, which the state records`,
    );
    const [up] = cli.callsOf("up").filter((u) => u.args.includes(stack));
    expect(up.code).toBe(1);
    // The task whose create was in flight is recorded; the association, not begun, is not.
    expect(packageResources(stateOf(stack)).map((r) => nameOf(r.urn))).toEqual(["scanner"]);
    expectServiceMatchesBackend();
    expect(locks()).toEqual([]);

    // Released: a call that would not wait for a lock runs at once, and carries on from what the state records.
    const next = await automation.provision({ ...options(stack), concurrentUpdateWait: 0 });
    expect(next.changes).toEqual({ create: 1, same: 2 });
    expectServiceMatchesBackend();
  });
});
