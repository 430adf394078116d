import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  describeEngineEvent,
  destroyProvisioning,
  previewProvisioning,
  provision,
  ProvisioningError,
  withProvisioningStack,
  type ProvisioningStackOptions,
} from "../../automation";
import { RecordingPulumi, type RecordedCall } from "./support/recordingPulumi";

/**
 * The Automation API helper against a stand-in `pulumi` on PATH that records every command line, environment and
 * working directory, and answers as the CLI does (test/automation/support/recordingPulumiCli.js): what the helper
 * makes the CLI do, with which secrets where, and what it leaves behind, whatever the outcome.
 */

const RUNTASK_TOKEN = "canary-runtask-token-5d1e";
const SNAPSHOT_TOKEN = "canary-snapshot-token-93ab";
const HMAC_KEY = "canary-hmac-key-0c4f";
const SECRET_CONFIG = "canary-secret-config-7e21";
const PASSPHRASE = "canary-passphrase-44aa";
const CANARIES = [RUNTASK_TOKEN, SNAPSHOT_TOKEN, HMAC_KEY, SECRET_CONFIG, PASSPHRASE];

const PROJECT = "snapshot-runtask-provisioning";
const RT = "pulumi-nodejs:dynamic/runtask:RunTask";
const WRT = "pulumi-nodejs:dynamic/runtask:WorkspaceRunTask";
const RESOURCES = [
  { type: RT, name: "scanner" },
  { type: WRT, name: "scanner-on-ws-prod" },
];

let cli: RecordingPulumi;
let backendUrl: string;
let programDir: string;
let stackCounter = 0;

beforeAll(() => {
  cli = new RecordingPulumi();
  backendUrl = pathToFileURL(cli.dir("state")).href;
  // The provider plugin loads the package by name from the program directory; the helper checks it is there.
  programDir = cli.dir("program");
  cli.dir("program", "node_modules", "pulumi-snapshot-runtask");
  writeFileSync(join(programDir, "node_modules", "pulumi-snapshot-runtask", "package.json"), "{}");
});

afterAll(() => cli?.remove());

afterEach(() => {
  // Whatever the outcome, a call leaves no work directory, event log or stack selection behind.
  expect(cli.leftovers()).toEqual([]);
});

/** Options for a stack of its own. */
function options(overrides: Partial<ProvisioningStackOptions> = {}): ProvisioningStackOptions {
  return {
    stackName: `platform-${++stackCounter}`,
    backendUrl,
    passphrase: PASSPHRASE,
    programDir,
    credentials: {
      snapshot: { address: "https://snapshots.example.com:8200", token: SNAPSHOT_TOKEN },
      runTask: { address: "https://runs.example.com", token: RUNTASK_TOKEN, organization: "acme" },
    },
    description: {
      runTasks: { scanner: { url: "https://hooks.example.com/scan", hmacKey: HMAC_KEY } },
      attachments: [{ task: "scanner", workspaceIds: ["ws-prod"], enforcementLevel: "mandatory" }],
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

async function failure(promise: Promise<unknown>): Promise<ProvisioningError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProvisioningError);
  return err as ProvisioningError;
}

const commandLine = (c: RecordedCall) => c.args.join(" ");

describe("a provision that succeeds", () => {
  test("selects, creates, sets the config, runs up, and reads the outputs and the summary", async () => {
    cli.reset({ resources: RESOURCES, outputs: { runTasks: { value: { scanner: { id: "task-1" } }, secret: false } } });
    const lines: string[] = [];
    const result = await provision({ ...options(), onEvent: (e) => void lines.push(describeEngineEvent(e) ?? "") });
    expect(result.changes).toEqual({ create: 2 });
    expect(result.outputs.runTasks).toEqual({ scanner: { id: "task-1" } });
    expect(result.summary.result).toBe("succeeded");
    expect(lines).toContain("  created RunTask scanner (scanner-id)");
    expect(cli.calls().map((c) => c.args.slice(0, 2).join(" "))).toEqual([
      "version",
      "stack select",
      "stack init",
      "config set-all",
      "up --yes",
      "stack output",
      "stack output",
      "stack history",
    ]);
  });

  test("tokens reach the CLI and the provider plugin in the environment only; addresses are plain config", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options();
    await provision(o);
    const [up] = cli.callsOf("up");
    expect(up.env).toMatchObject({ RUNTASK_TOKEN, SERVICE_TOKEN: SNAPSHOT_TOKEN, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE });
    for (const call of cli.calls()) {
      for (const canary of CANARIES) expect(commandLine(call)).not.toContain(canary);
      for (const file of Object.values(call.files)) for (const canary of CANARIES) expect(file).not.toContain(canary);
    }
    expect(commandLine(cli.callsOf("config set-all")[0])).toBe(
      `config set-all --stack ${o.stackName} --plaintext snapshot:address=https://snapshots.example.com:8200 ` +
        "--plaintext runtask:address=https://runs.example.com --plaintext runtask:organization=acme --non-interactive",
    );
    expect(JSON.stringify(cli.stack(backendUrl, PROJECT, o.stackName))).not.toMatch(new RegExp(CANARIES.join("|")));
  });

  test("a secret config value goes to the CLI on its standard input, and is kept encrypted", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options({ config: { "app:apiKey": { value: SECRET_CONFIG, secret: true }, "snapshot:requestTimeout": { value: "60s" } } });
    await provision(o);
    const [set] = cli.callsOf("config set --stack");
    expect(set.args).toEqual(["config", "set", "--stack", o.stackName, "--secret", "--non-interactive", "--", "app:apiKey"]);
    expect(set.stdin).toBe(SECRET_CONFIG);
    expect(set.env.PULUMI_CONFIG_PASSPHRASE).toBe(PASSPHRASE);
    expect(commandLine(cli.callsOf("config set-all")[0])).toContain("--plaintext snapshot:requestTimeout=60s");
    const [up] = cli.callsOf("up");
    expect(up.files[`Pulumi.${o.stackName}.yaml`]).toMatch(/app:apiKey:\n\s+secure: v1:/);
    for (const call of cli.calls()) expect(commandLine(call)).not.toContain(SECRET_CONFIG);
  });

  test("every CLI call that touches the backend uses backendUrl, whatever PULUMI_BACKEND_URL the process has", async () => {
    cli.reset({ resources: RESOURCES });
    const elsewhere = pathToFileURL(cli.dir("ambient-state")).href;
    process.env.PULUMI_BACKEND_URL = elsewhere;
    try {
      const o = options();
      await provision(o);
      await previewProvisioning(o);
      await destroyProvisioning({ ...o, removeStack: true });
    } finally {
      delete process.env.PULUMI_BACKEND_URL;
    }
    const calls = cli.calls().filter((c) => c.args[0] !== "version");
    expect(calls.length).toBeGreaterThan(10);
    for (const call of calls) {
      expect(call.env.PULUMI_BACKEND_URL).toBe(backendUrl);
      expect(call.files["Pulumi.yaml"]).toContain(`url: ${backendUrl}`);
    }
    expect(cli.allStacks().filter((s) => s.startsWith(elsewhere))).toEqual([]);
  });

  test("the secrets provider given holds on every run: set at creation, then read back from the stack's state", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options({ passphrase: undefined, secretsProvider: "awskms://alias/pulumi-state" });
    await provision(o);
    await provision({ ...o, config: { "app:apiKey": { value: SECRET_CONFIG, secret: true } } });
    await previewProvisioning(o);
    expect(cli.callsOf("stack init").map(commandLine)).toEqual([
      `stack init ${o.stackName} --secrets-provider awskms://alias/pulumi-state --non-interactive`,
    ]);
    for (const call of cli.calls().filter((c) => c.args[0] !== "version")) {
      expect(call.env.PULUMI_FALLBACK_TO_STATE_SECRETS_MANAGER).toBe("true");
    }
    expect(cli.stack(backendUrl, PROJECT, o.stackName)?.secretsManager).toEqual({ type: "cloud", url: "awskms://alias/pulumi-state" });
  });

  test("parallel, message and refresh reach up and preview", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options();
    await provision({ ...o, parallel: 4, message: "attach the scanner", refresh: true });
    await previewProvisioning({ ...o, parallel: 2, refresh: true, message: "review" });
    const [up] = cli.callsOf("up");
    expect(commandLine(up)).toMatch(/^up --yes --skip-preview --message attach the scanner --refresh --parallel 4 /);
    const [preview] = cli.callsOf("preview");
    expect(commandLine(preview)).toMatch(/^preview --message review --refresh --parallel 2 /);
    expect(cli.stack(backendUrl, PROJECT, o.stackName)?.history[0].message).toBe("attach the scanner");
  });

  test("engine events arrive through the event log file of CLIs before 3.206 as through the event stream after", async () => {
    for (const version of ["3.190.0", "3.210.0"]) {
      cli.reset({ version, resources: RESOURCES });
      const lines: string[] = [];
      const o = options();
      await provision({ ...o, onEvent: (e) => void lines.push(describeEngineEvent(e) ?? "") });
      expect(commandLine(cli.callsOf("up")[0])).toMatch(
        version === "3.190.0" ? /--event-log \/.*eventlog\.txt/ : /--event-log tcp:\/\/127\.0\.0\.1:\d+/,
      );
      expect(lines.filter(Boolean)).toEqual([
        "+ create RunTask scanner",
        "  created RunTask scanner (scanner-id)",
        "+ create WorkspaceRunTask scanner-on-ws-prod",
        "  created WorkspaceRunTask scanner-on-ws-prod (scanner-on-ws-prod-id)",
        "done in 0s: 2 created",
      ]);
    }
  });

  test("destroy with removeStack deletes the resources, then the stack", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options();
    await provision(o);
    const { changes } = await destroyProvisioning({ ...o, removeStack: true });
    expect(changes).toEqual({ delete: 2 });
    expect(cli.callsOf("stack rm").map(commandLine)).toEqual([`stack rm --yes ${o.stackName} --non-interactive`]);
    expect(cli.stack(backendUrl, PROJECT, o.stackName)).toBeUndefined();
  });
});

describe("a provision that fails", () => {
  test("at its config step (a stack without its passphrase): no secret in the error, the stack or any command line", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options({ config: { "app:apiKey": { value: SECRET_CONFIG, secret: true } } });
    await provision(o);
    cli.reset({ resources: RESOURCES });
    const elsewhere = pathToFileURL(cli.dir("ci-state")).href;
    process.env.PULUMI_BACKEND_URL = elsewhere;
    let err: ProvisioningError;
    try {
      err = await failure(provision({ ...o, passphrase: undefined }));
    } finally {
      delete process.env.PULUMI_BACKEND_URL;
    }
    expect(err).toMatchObject({ kind: "failed", step: "config", stackName: o.stackName });
    expect(err.message).toBe(
      `provision of stack "${o.stackName}" failed while setting the stack's config: ` +
        "passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables",
    );
    for (const canary of CANARIES) expect(everythingIn(err)).not.toContain(canary);
    for (const call of cli.calls()) {
      for (const canary of CANARIES) expect(commandLine(call)).not.toContain(canary);
      if (call.args[0] !== "version") expect(call.env.PULUMI_BACKEND_URL).toBe(backendUrl);
    }
    expect(cli.callsOf("up")).toEqual([]);
    expect(JSON.stringify(cli.stack(backendUrl, PROJECT, o.stackName))).not.toMatch(new RegExp(CANARIES.join("|")));
    expect(cli.allStacks().filter((s) => s.startsWith(elsewhere))).toEqual([]);
  });

  test("at up, when the passphrase is missing: what the CLI said, the CLI's error kept as the cause", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options();
    await provision(o);
    const err = await failure(provision({ ...o, passphrase: undefined }));
    expect(err).toMatchObject({ kind: "failed", step: "up", failures: [] });
    expect(err.message).toBe(
      `provision of stack "${o.stackName}" failed: getting secrets manager: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or ` +
        "PULUMI_CONFIG_PASSPHRASE_FILE environment variables",
    );
    expect((err.cause as Error).name).toBe("CommandError");
    for (const canary of CANARIES) expect(everythingIn(err)).not.toContain(canary);
  });

  test("of resources: which failed and why, once, with the CLI's output kept as the cause", async () => {
    const why = 'run task service: POST /api/v2/organizations/acme/tasks failed (HTTP 422): "url" is not reachable (at /data/attributes/url)';
    cli.reset({ resources: RESOURCES, failures: [{ name: "scanner", message: why }] });
    const o = options();
    const err = await failure(provision(o));
    expect(err).toMatchObject({ kind: "resources-failed", step: "up" });
    expect(err.failures).toEqual([
      { name: "scanner", kind: "RunTask", op: "create", urn: `urn:pulumi:${o.stackName}::${PROJECT}::${RT}::scanner`, message: why },
    ]);
    expect(err.message).toBe(`provision of stack "${o.stackName}" failed: 1 resource failed\n  create RunTask scanner: ${why}`);
    expect(everythingIn(err.cause)).toContain("**creating failed**");
  });

  test("a secret that the CLI's output holds is replaced in the error, its cause, and the progress callbacks", async () => {
    cli.reset({ resources: RESOURCES, failures: [{ name: "scanner", message: `refused token ${RUNTASK_TOKEN} and key ${HMAC_KEY}` }] });
    const seen: string[] = [];
    const err = await failure(
      provision({ ...options(), onEvent: (e) => void seen.push(JSON.stringify(e)), onOutput: (text) => void seen.push(text) }),
    );
    expect(err.failures[0].message).toBe("refused token [secret] and key [secret]");
    for (const canary of CANARIES) expect(everythingIn(err)).not.toContain(canary);
    // What the progress callbacks were given, too.
    expect(seen.join("\n")).toContain("refused token [secret] and key [secret]");
    for (const canary of CANARIES) expect(seen.join("\n")).not.toContain(canary);
  });

  test("on a CLI older than the helper needs, before it touches the stack", async () => {
    cli.reset({ version: "3.150.0" });
    const err = await failure(provision(options()));
    expect(err.message).toMatch(/the Pulumi CLI is version 3\.150\.0; provisioning needs 3\.181\.0 or later/);
    expect(cli.calls().map((c) => c.args[0])).toEqual(["version"]);
  });
});

describe("runs that meet", () => {
  test("two provision calls for one stack at once both succeed, one after the other", async () => {
    cli.reset({ resources: RESOURCES, runMs: 600 });
    const o = options();
    const notices: string[] = [];
    const [a, b] = await Promise.all([provision(o), provision({ ...o, onNotice: (l) => notices.push(l) })]);
    expect(a.changes).toEqual({ create: 2 });
    expect(b.changes).toEqual({ same: 2 });
    const ups = cli.callsOf("up");
    expect(ups).toHaveLength(2);
    expect(ups.every((u) => u.code === 0)).toBe(true);
    expect(Date.parse(ups[1].started)).toBeGreaterThanOrEqual(Date.parse(ups[0].ended));
    expect(cli.callsOf("stack init")).toHaveLength(1);
    expect(notices).toEqual([`stack "${o.stackName}": waiting for another call on this stack in this process to finish`]);
  });

  test("calls for different stacks do not wait for each other", async () => {
    cli.reset({ resources: RESOURCES, runMs: 4000 });
    const [a, b] = [options(), options()];
    await Promise.all([provision(a), provision(b)]);
    const [first, second] = cli.callsOf("up").sort((x, y) => Date.parse(x.started) - Date.parse(y.started));
    expect(Date.parse(second.started)).toBeLessThan(Date.parse(first.ended));
  });

  test("an update run elsewhere is waited out, with notices, and the call then succeeds", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options();
    await provision(o);
    cli.reset({ resources: RESOURCES });
    const release = cli.holdLock(backendUrl, PROJECT, o.stackName);
    setTimeout(release, 2500);
    const notices: string[] = [];
    const result = await provision({ ...o, concurrentUpdateWait: "30s", onNotice: (l) => notices.push(l) });
    expect(result.changes).toEqual({ same: 2 });
    const ups = cli.callsOf("up");
    expect(ups.length).toBeGreaterThanOrEqual(2);
    expect(ups.slice(0, -1).every((u) => u.code === 255)).toBe(true);
    expect(ups.at(-1)!.code).toBe(0);
    expect(notices[0]).toMatch(
      new RegExp(`^stack "${o.stackName}": another update of the stack is running; trying again in 1 second \\(waited \\d+ ms of 30 seconds\\)$`),
    );
  });

  test("an update run elsewhere that outlasts concurrentUpdateWait fails the call, saying how to go on", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options();
    await provision(o);
    const release = cli.holdLock(backendUrl, PROJECT, o.stackName);
    try {
      const began = Date.now();
      const err = await failure(provision({ ...o, concurrentUpdateWait: 1500 }));
      expect(Date.now() - began).toBeLessThan(30_000); // bounded, where the default would wait 10 minutes
      expect(err.kind).toBe("concurrent-update");
      expect(err.message).toMatch(/another update of the stack holds its lock and was still running after \d+ (ms|seconds?) of waiting/);
      expect(err.message).toContain(`pulumi cancel --stack ${o.stackName}`);
    } finally {
      release();
    }
  });

  test("a stack created by a racing call between select and init is selected", async () => {
    cli.reset({ resources: RESOURCES, createdElsewhereBeforeInit: true });
    const o = options();
    const result = await provision(o);
    expect(result.changes).toEqual({ create: 2 });
    expect(
      cli
        .calls()
        .map((c) => `${c.args.slice(0, 2).join(" ")} ${c.code}`)
        .slice(0, 5),
    ).toEqual(["version 0", "stack select 255", "stack init 255", "stack select 0", "config set-all 0"]);
  });
});

describe("cancellation", () => {
  test("an abort while up runs interrupts the CLI, which stops and releases the stack", async () => {
    cli.reset({ resources: RESOURCES, runMs: 50_000 });
    const o = options();
    const controller = new AbortController();
    const began = Date.now();
    const running = provision({ ...o, signal: controller.signal });
    while (!cli.lockHeld(backendUrl, PROJECT, o.stackName)) await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    const err = await failure(running);
    expect(Date.now() - began).toBeLessThan(40_000); // well before the update's 50 s
    expect(err).toMatchObject({ kind: "cancelled", step: "up" });
    expect(err.message).toBe(
      `provision of stack "${o.stackName}" cancelled: the CLI was interrupted; it stopped after the steps in flight, which the state records`,
    );
    const [up] = cli.callsOf("up");
    expect(up.code).toBe(255);
    expect(cli.lockHeld(backendUrl, PROJECT, o.stackName)).toBe(false);
  });

  test("an abort before the call starts runs nothing", async () => {
    cli.reset();
    const err = await failure(provision({ ...options(), signal: AbortSignal.abort() }));
    expect(err.kind).toBe("cancelled");
    expect(cli.calls()).toEqual([]);
  });

  test("an abort while waiting for this process's earlier call gives up the turn; the earlier call finishes", async () => {
    cli.reset({ resources: RESOURCES, runMs: 1500 });
    const o = options();
    const controller = new AbortController();
    const first = provision(o);
    const second = provision({ ...o, signal: controller.signal, onNotice: () => controller.abort() });
    const err = await failure(second);
    expect(err.kind).toBe("cancelled");
    await expect(first).resolves.toMatchObject({ changes: { create: 2 } });
    expect(cli.callsOf("up")).toHaveLength(1);
  });
});

describe("a stack that does not exist", () => {
  test.each([
    ["preview", (o: ProvisioningStackOptions) => previewProvisioning(o)],
    ["destroy", (o: ProvisioningStackOptions) => destroyProvisioning({ ...o, removeStack: true })],
    ["opening", (o: ProvisioningStackOptions) => withProvisioningStack(o, async () => undefined)],
  ])("%s says so and creates nothing", async (what, call) => {
    cli.reset({ resources: RESOURCES });
    const o = options();
    const err = await failure(call(o));
    expect(err).toMatchObject({ kind: "stack-not-found", step: "select" });
    expect(err.message).toBe(
      `${what === "opening" ? "opening stack" : `${what} of stack`} "${o.stackName}": the backend ${backendUrl} holds no stack "${o.stackName}" ` +
        "(nothing was created). Check stackName, projectName and backendUrl; provision creates the stack",
    );
    expect(cli.callsOf("stack init")).toEqual([]);
    expect(cli.stack(backendUrl, PROJECT, o.stackName)).toBeUndefined();
  });
});

describe("withProvisioningStack", () => {
  test("gives the selected stack, with its config, to the caller's code, and cleans up after it", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options();
    await provision(o);
    const state = await withProvisioningStack(o, (stack) => stack.exportStack());
    expect(state.deployment.resources).toHaveLength(2);
    expect(cli.callsOf("stack export")[0].env.RUNTASK_TOKEN).toBe(RUNTASK_TOKEN);
  });

  test("an error of the caller's code leaves as it came", async () => {
    cli.reset({ resources: RESOURCES });
    const o = options();
    await provision(o);
    const mine = new Error("mine");
    await expect(withProvisioningStack(o, async () => Promise.reject(mine))).rejects.toBe(mine);
  });
});
