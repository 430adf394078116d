import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProxyProcess, type ProxyProcess } from "../../bench/proxyProcess";
import { startEmulator, type EmulatorData } from "../../emulator";
import { npmCli, pathWithoutPulumi, REPO, run, type CommandResult, type SignalOn } from "../support/demoCommand";
import { testEngine } from "../support/engine/engineStack";
import { ledger } from "../support/engine/serviceLedger";
import { readStackState, stateFilePath } from "../support/engine/stateFile";

/**
 * `npm run demo -- --program <dir>`: a user's own project, written by hand in a new directory, run through the Pulumi
 * engine against the emulator, then edited and run again with `--keep`, as a user tries a change: each run shows the
 * engine's own preview (its diff of each resource) and carries the change out, from the state and the emulator's
 * data kept in the project. A TypeScript program on the dynamic providers, a YAML one on the provider plugins. The
 * environment names real services on a port where nothing listens: a run must use the emulator's settings instead.
 */

jest.setTimeout(300_000);
let parent: string;
const timings: string[] = [];

const env = {
  ...process.env,
  PATH: pathWithoutPulumi,
  SERVICE_ADDR: "http://127.0.0.1:9",
  SERVICE_TOKEN: "not-this-one",
  RUNTASK_ADDR: "http://127.0.0.1:9",
  RUNTASK_TOKEN: "not-this-one",
};

/** A proxy that asks for credentials, which `--proxy` names: the user's own proxy set-up, tried against the emulator. */
let proxy: ProxyProcess;
const PROXY_PASSWORD = "demo-proxy-canary-5Tq8";

beforeAll(async () => {
  testEngine();
  parent = mkdtempSync(join(tmpdir(), "own-program-"));
  proxy = await startProxyProcess({ auth: { user: "me", password: PROXY_PASSWORD } });
});

afterAll(async () => {
  rmSync(parent, { recursive: true, force: true });
  await proxy?.close();
  console.log(timings.join("\n"));
});

/** Writes `files` into the project `name` (a new directory under `parent`, or the same one again). */
function write(name: string, files: Record<string, string>): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

/**
 * The demo on a project, as `node dist/demo/main.js` (the launcher only builds first): what it printed. With
 * `signalOn`, in a process group of its own, which gets the signal as a terminal's would.
 */
async function demo(label: string, args: string[], signalOn?: SignalOn): Promise<CommandResult> {
  const started = Date.now();
  const result = await run(process.execPath, ["dist/demo/main.js", ...args], env, signalOn ? { detached: true, signalOn } : {});
  timings.push(`${label}: ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return result;
}

/** `text` holds `lines` in this order. */
function expectInOrder(text: string, lines: (string | RegExp)[]): void {
  let at = 0;
  for (const line of lines) {
    const rest = text.slice(at);
    const m = typeof line === "string" ? { index: rest.indexOf(line), length: line.length } : { index: rest.search(line), length: 1 };
    expect({ line: String(line), found: m.index >= 0 }).toEqual({ line: String(line), found: true });
    at += m.index + m.length;
  }
}

/** What the emulator held when the run ended, as the project's `.pulumi-demo/` keeps it. */
function keptData(dir: string): EmulatorData {
  return JSON.parse(readFileSync(join(dir, ".pulumi-demo/emulator.json"), "utf8")) as EmulatorData;
}

const HMAC = "canary-own-program-key";

/** What the demo prints of the engine and the CLI: no colour codes (the output is no terminal), no plugin notes. */
function expectPlainOutput(result: CommandResult): void {
  expect(result.stdout + result.stderr).not.toContain("\u001b[");
  expect(result.stdout + result.stderr).not.toMatch(/using pulumi-resource-[\w-]+ from \$PATH/);
}

/** Whether the kept emulator data and the kept state agree: every object claimed by one resource, none lost. */
async function keptAgreement(dir: string, project: string): Promise<ReturnType<typeof ledger> & { pending: string[] }> {
  const emulator = await startEmulator({ data: { ...keptData(dir), port: undefined }, snapshot: { takeSnapshots: false } });
  try {
    const state = readStackState(join(dir, ".pulumi-demo/backend"), project, "dev");
    return { ...ledger(emulator, { state: () => state }), pending: state.pendingOperations.map((p) => `${p.type} ${p.resource.urn}`) };
  } finally {
    await emulator.close();
  }
}

/** The lines the demo printed after `heading`, up to the next line that is not indented. */
function printedCommands(stdout: string, heading: string): string[] {
  const lines = stdout
    .slice(stdout.indexOf(heading) + heading.length)
    .split("\n")
    .slice(1);
  return lines
    .slice(
      0,
      lines.findIndex((l) => !l.startsWith("  ")),
    )
    .map((l) => l.trim());
}

/** Runs shell lines as a user pastes them, where `pulumi` is on no directory of PATH. */
function shell(lines: string[]): Promise<CommandResult> {
  return run("sh", ["-c", lines.join("\n")], { PATH: pathWithoutPulumi, HOME: process.env.HOME }, { cwd: tmpdir() });
}

/**
 * Ends the processes a killed run left (found by the staged project's folder on their command line): the dynamic
 * provider plugin outlives a killed engine until the package's code is loaded in it.
 */
function endLeftovers(stdout: string): void {
  const staged = /^ {2}project: (\S+) \(the program/m.exec(stdout)?.[1];
  if (!staged) return;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(staged)) process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone already
    }
  }
}

describe("a TypeScript program, edited between runs", () => {
  const program = (edited: boolean, typo = false) =>
    [
      'import * as pulumi from "@pulumi/pulumi";',
      'import { getRunTaskOutput, RunTask, SnapshotAutoConfig, WorkspaceRunTask } from "pulumi-snapshot-runtask";',
      "",
      "const config = new pulumi.Config();",
      'console.log("hello from my-platform");',
      `const nightly = new SnapshotAutoConfig("nightly", { ${edited ? 'name: "nightly-2", ' : ""}interval: "24h", retain: ${typo ? '"seven"' : "7"}, storageType: "local", pathPrefix: "/var/lib/snapshots", localMaxSpace: 1024 ** 3 });`,
      `const scanner = new RunTask("scanner", { url: "https://hooks.example.com/${edited ? "scan-v2" : "scan"}", hmacKey: config.requireSecret("hmacKey") });`,
      edited
        ? ""
        : 'new WorkspaceRunTask("scanner-on-app", { workspaceId: config.require("workspaceId"), taskId: scanner.id, enforcementLevel: "mandatory", stage: "pre_plan" });',
      "",
      "// A function given a new resource's id: unknown in the first preview, read once the task exists.",
      "export const taskUrl = getRunTaskOutput({ id: scanner.id }).url;",
      "export const snapshotName = nightly.name;",
      "",
    ].join("\n");
  let dir: string;
  let first: CommandResult;

  beforeAll(async () => {
    dir = write("my-platform", {
      "Pulumi.yaml": "name: my-platform\nruntime: nodejs\n",
      "Pulumi.dev.yaml":
        "config:\n  runtask:organization: acme\n  runtask:address: https://runs.example.com\n  my-platform:workspaceId: ws-Abc123Def456Ghi7\n",
      "index.ts": program(false),
    });
    // As the README has it: through npm, the directory relative to where the user stands (npm runs the script in
    // the repository and says where it was started in INIT_CWD).
    const started = Date.now();
    // The user's proxy settings of the services in the environment, which would reach no emulator (nothing listens
    // there), and a proxy of their own for the emulator's requests, with credentials.
    first = await run(
      process.execPath,
      [
        npmCli(),
        ...["run", "--silent", "--prefix", REPO, "demo", "--", "--program", "./my-platform", "--keep", "--secret", `hmacKey=${HMAC}`],
        ...["--proxy", proxy.url],
      ],
      { ...env, RUNTASK_PROXY_ADDR: "http://127.0.0.1:9", HTTPS_PROXY: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:9" },
      { cwd: parent },
    );
    timings.push(`TypeScript, first run (npm, with the build): ${((Date.now() - started) / 1000).toFixed(1)}s`);
    if (first.code !== 0) console.error(first.stdout, first.stderr);
  });

  test("the first run: the project read from where the user stands, its console.log shown, the function unknown in the preview, the deprecation warned of, created; every request through --proxy, the environment's proxies left out, as it says", async () => {
    expect(first.code).toBe(0);
    expectInOrder(first.stdout, [
      `pulumi-snapshot-runtask: the program in ${dir} (project my-platform, stack dev)`,
      `  state: ${join(dir, ".pulumi-demo")} (--keep)`,
      "  services: the emulator at http://127.0.0.1:",
      "    organization acme: workspaces ws-Abc123Def456Ghi7",
      "    in place of the stack's runtask:address, and of the environment's SERVICE_ADDR, SERVICE_TOKEN, RUNTASK_ADDR, RUNTASK_TOKEN, RUNTASK_PROXY_ADDR (--real uses them)",
      `    proxy: every request to the emulator goes through 127.0.0.1:${proxy.port} (--proxy)`,
      "== preview",
      "hello from my-platform",
      "+ pulumi-nodejs:dynamic/runtask:RunTask: (create)",
      "hmacKey     : [secret]",
      /taskUrl\s*: \[unknown\]/,
      "  preview: 4 to create",
      "== up",
      "hello from my-platform",
      'warning: WorkspaceRunTask "scanner-on-app": `stage` is deprecated; use `stages` (a list) instead',
      "    created RunTask scanner (task-",
      "    created WorkspaceRunTask scanner-on-app (wstask-",
      "    snapshotName = nightly",
      "    taskUrl = https://hooks.example.com/scan",
      "  up: 4 created",
      "Kept (--keep): the stack's state and the emulator's data, in ",
      "The demo ran to the end.",
    ]);
    expect(first.stdout + first.stderr).not.toContain(HMAC);
    expect(first.stdout + first.stderr).not.toContain(PROXY_PASSWORD);
    // The emulator's every request went to the proxy (its address is plain HTTP: forwarded, not tunnelled).
    const forwarded = Object.entries((await proxy.counts()).forward).filter(([request]) => request.includes(" http://127.0.0.1:"));
    expect(forwarded.length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, ".pulumi-demo/.gitignore"), "utf8")).toBe("*\n");
    const held = keptData(dir);
    expect(held.runTask.tasks.map((t) => [t.organization, t.name, t.url])).toEqual([["acme", "scanner", "https://hooks.example.com/scan"]]);
    expect(held.runTask.workspaceTasks).toHaveLength(1);
    expect(held.snapshot.configs.map((c) => c.name)).toEqual(["nightly"]);
  });

  test("an edit shows as the update, replacement and delete it is, with the engine's diff, and is carried out on what was kept", async () => {
    write("my-platform", { "index.ts": program(true) });
    const result = await demo("TypeScript, the edit", ["--program", dir, "--keep", "--secret", `hmacKey=${HMAC}`]);
    expect(result.code).toBe(0);
    expectInOrder(result.stdout, [
      `  state: ${join(dir, ".pulumi-demo")}, kept by an earlier run (--keep): this run carries on from it`,
      ", holding what it held when the stack was kept",
      "== preview",
      "== up",
      "    snapshotName = nightly-2",
      "    taskUrl = https://hooks.example.com/scan-v2",
    ]);
    // The engine's diff of each resource, in the order the engine reached them.
    const preview = result.stdout.slice(result.stdout.indexOf("== preview"), result.stdout.indexOf("== up"));
    expectInOrder(preview, ["+-pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig: (replace)", /~ name\s*: "nightly" => "nightly-2"/]);
    expectInOrder(preview, [
      "~ pulumi-nodejs:dynamic/runtask:RunTask: (update)",
      /~ url\s*: "https:\/\/hooks\.example\.com\/scan" => "https:\/\/hooks\.example\.com\/scan-v2"/,
    ]);
    expect(preview).toContain("- pulumi-nodejs:dynamic/runtask:WorkspaceRunTask: (delete)");
    expect(result.stdout).toMatch(/ {2}preview: (?=.*1 to delete)(?=.*1 to replace)(?=.*1 to update).*/);
    expect(result.stdout).toMatch(/ {2}up: (?=.*1 deleted)(?=.*1 replaced)(?=.*1 updated).*/);
    const held = keptData(dir);
    expect(held.snapshot.configs.map((c) => c.name)).toEqual(["nightly-2"]);
    expect(held.runTask.tasks.map((t) => t.url)).toEqual(["https://hooks.example.com/scan-v2"]);
    expect(held.runTask.workspaceTasks).toEqual([]);
  });

  test("a type error stops the run with the compiler's message, before the engine runs, and leaves what was kept as it was", async () => {
    const before = readFileSync(join(dir, ".pulumi-demo/emulator.json"), "utf8");
    write("my-platform", { "index.ts": program(true, true) });
    const result = await demo("TypeScript, a type error", ["--program", dir, "--keep", "--secret", `hmacKey=${HMAC}`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /The demo failed: the program does not compile \(the Node\.js language host type-checks it before running it\):\nindex\.ts\(6,\d+\): error TS2322: Type 'string' is not assignable to type 'Input<number>'\./,
    );
    expect(result.stdout).not.toContain("== preview");
    expect(readFileSync(join(dir, ".pulumi-demo/emulator.json"), "utf8")).toBe(before);
  });

  test("a function whose call the proxy refuses: the demo fails with its message, once, with no stack, and keeps nothing", async () => {
    const own = write("my-function", {
      "Pulumi.yaml": "name: my-function\nruntime: nodejs\n",
      "index.ts":
        'import { listRunTasks } from "pulumi-snapshot-runtask";\n\nexport const names = listRunTasks().then((tasks) => tasks.map((t) => t.name));\n',
    });
    const refused = proxy.url.replace(PROXY_PASSWORD, "not-the-password");
    const result = await demo("TypeScript, a function the proxy refuses", [
      "--program",
      own,
      "--config",
      "runtask:organization=acme",
      "--proxy",
      refused,
    ]);
    expect(result.code).toBe(1);
    expectPlainOutput(result);
    const message = `(from runtask:proxy) refused its credentials (407 Proxy Authentication Required): check the user and password in runtask:proxy`;
    expectInOrder(result.stdout, [
      "== preview",
      "The demo failed: run task service: GET /organizations/acme/tasks",
      message,
      "The demo did not complete.",
    ]);
    expect(result.stdout.split(message)).toHaveLength(2);
    expect(result.stdout + result.stderr).not.toMatch(
      /Unhandled exception|SnapshotRunTaskError|ServiceError|\n\s+at |PromiseRejectionHandledWarning/,
    );
    expect(existsSync(join(own, ".pulumi-demo"))).toBe(false);
  });

  test("a run without --keep destroys the stack and removes what was kept", async () => {
    write("my-platform", { "index.ts": program(true) });
    const result = await demo("TypeScript, the last run", ["--program", dir, "--secret", `hmacKey=${HMAC}`]);
    expect(result.code).toBe(0);
    expectInOrder(result.stdout, ["  preview: 3 unchanged", "  up: 3 unchanged", "== destroy", "  destroy: 3 deleted", "The demo ran to the end."]);
    expect(existsSync(join(dir, ".pulumi-demo"))).toBe(false);
  });
});

describe("a YAML program on the provider plugins, with an explicit provider, edited between runs", () => {
  const program = (edited: boolean) =>
    [
      "name: my-yaml",
      "runtime: yaml",
      "packages:",
      "  runtask: ./node_modules/pulumi-snapshot-runtask/plugins/runtask",
      "config:",
      "  hmacKey: { type: string, secret: true }",
      "  betaToken: { type: string, secret: true }",
      "resources:",
      "  scanner:",
      "    type: runtask:index:RunTask",
      `    properties: { url: https://hooks.example.com/${edited ? "scan-v2" : "scan"}, hmacKey: '\${hmacKey}' }`,
      "  scanner-on-app:",
      "    type: runtask:index:WorkspaceRunTask",
      `    properties: { workspaceId: ${edited ? "ws-Yy8Xx7Ww6Vv5Uu4T" : "ws-Zz9Yy8Xx7Ww6Vv5U"}, taskId: '\${scanner.id}', enforcementLevel: advisory, stage: pre_plan }`,
      "  beta:",
      "    type: pulumi:providers:runtask",
      "    properties: { address: https://runs.example.com, token: '${betaToken}', organization: beta }",
      ...(edited
        ? []
        : [
            "  beta-scanner:",
            "    type: runtask:index:RunTask",
            "    properties: { url: https://hooks.example.com/beta }",
            "    options: { provider: '${beta}' }",
          ]),
      "outputs:",
      "  scannerId: ${scanner.id}",
      "",
    ].join("\n");
  let dir: string;
  const args = () => [
    "--program",
    dir,
    "--secret",
    `hmacKey=${HMAC}`,
    "--secret",
    "betaToken=not-the-emulator-token",
    "--config",
    "runtask:organization=acme",
  ];

  beforeAll(() => {
    dir = write("my-yaml", { "Pulumi.yaml": program(false) });
  });

  test("the first run: the explicit provider on the emulator too, the plugin's deprecation warning shown, created", async () => {
    const result = await demo("YAML, first run", [...args(), "--keep"]);
    if (result.code !== 0) console.error(result.stdout, result.stderr);
    expect(result.code).toBe(0);
    expectInOrder(result.stdout, [
      "the package's provider plugins on PATH",
      "    organization acme: workspaces ws-Zz9Yy8Xx7Ww6Vv5U",
      "    organization beta: workspaces none",
      "    in place of the addresses and tokens of the program's provider resources too",
      "== preview",
      "+ runtask:index:WorkspaceRunTask: (create)",
      "  preview: 5 to create",
      "== up",
      "warning: scanner-on-app: `stage` is deprecated; use `stages` instead",
      /scannerId = task-\w+/,
      "  up: 5 created",
    ]);
    expect(result.stdout + result.stderr).not.toContain(HMAC);
    const held = keptData(dir);
    expect(held.runTask.tasks.map((t) => [t.organization, t.url]).sort()).toEqual([
      ["acme", "https://hooks.example.com/scan"],
      ["beta", "https://hooks.example.com/beta"],
    ]);
  });

  test("an edit shows as the update, replacement and delete it is, with the engine's diff, and is carried out", async () => {
    write("my-yaml", { "Pulumi.yaml": program(true) });
    const result = await demo("YAML, the edit", [...args(), "--keep"]);
    expect(result.code).toBe(0);
    const preview = result.stdout.slice(result.stdout.indexOf("== preview"), result.stdout.indexOf("== up"));
    expectInOrder(preview, [
      "~ runtask:index:RunTask: (update)",
      /~ url\s*: "https:\/\/hooks\.example\.com\/scan" => "https:\/\/hooks\.example\.com\/scan-v2"/,
    ]);
    expectInOrder(preview, ["+-runtask:index:WorkspaceRunTask: (replace)", /~ workspaceId\s*: "ws-Zz9Yy8Xx7Ww6Vv5U" => "ws-Yy8Xx7Ww6Vv5Uu4T"/]);
    expect(preview).toContain("- runtask:index:RunTask: (delete)");
    expect(result.stdout).toMatch(/ {2}up: (?=.*1 deleted)(?=.*1 replaced)(?=.*1 updated).*/);
    const held = keptData(dir);
    expect(held.runTask.tasks.map((t) => [t.organization, t.url])).toEqual([["acme", "https://hooks.example.com/scan-v2"]]);
    expect(held.runTask.workspaceTasks.map((a) => a.workspaceId)).toEqual(["ws-Yy8Xx7Ww6Vv5Uu4T"]);
  });

  test("a misspelled property: the engine's error once, without colour codes or the CLI's notes, and nothing to destroy", async () => {
    const typo = write("my-typo", {
      "Pulumi.yaml":
        "name: my-typo\nruntime: yaml\nresources:\n  scanner:\n    type: runtask:index:RunTask\n    properties: { urll: https://hooks.example.com/scan }\n",
    });
    const result = await demo("YAML, a misspelled property", ["--program", typo]);
    expect(result.code).toBe(1);
    expectPlainOutput(result);
    expectInOrder(result.stdout, [
      "== preview",
      "The demo failed: ",
      "  url: Missing required property 'url'",
      "  preview  FAILED",
      "The demo did not complete.",
    ]);
    expect(result.stdout.split("Missing required property 'url'")).toHaveLength(2);
    expect(result.stdout).not.toMatch(/Destroying|Kept|code: -2|stderr:/);
    expect(existsSync(join(typo, ".pulumi-demo"))).toBe(false);
  });

  test("a run without --keep destroys the stack and removes what was kept", async () => {
    const result = await demo("YAML, the last run", args());
    expect(result.code).toBe(0);
    expectInOrder(result.stdout, ["== destroy", /destroy: \d+ deleted/, "The demo ran to the end."]);
    expect(existsSync(join(dir, ".pulumi-demo"))).toBe(false);
  });
});

describe("a kept TypeScript program stopped by Ctrl-C just after a create, then killed in an update, then killed in a create", () => {
  const program = (url: string, gate = false) =>
    [
      'import * as pulumi from "@pulumi/pulumi";',
      'import { getSnapshotStatusOutput, RunTask, SnapshotAutoConfig } from "pulumi-snapshot-runtask";',
      "",
      "const config = new pulumi.Config();",
      'const nightly = new SnapshotAutoConfig("nightly", { interval: "24h", storageType: "local", pathPrefix: "/var/lib/snapshots", localMaxSpace: 1024 ** 3 });',
      `new RunTask("scanner", { url: "${url}", hmacKey: config.requireSecret("hmacKey") });`,
      gate ? 'new RunTask("gate", { url: "https://hooks.example.com/gate" });' : "",
      "export const lastError = getSnapshotStatusOutput({ name: nightly.name }).lastSnapshotError;",
      "",
    ].join("\n");
  const secret = "canary-set-by-config-set";
  let dir: string;

  beforeAll(() => {
    dir = write("my-stack", { "Pulumi.yaml": "name: my-stack\nruntime: nodejs\n", "index.ts": program("https://hooks.example.com/scan") });
  });

  afterAll(() => {
    // What the kept state holds is the emulator's alone, gone with it.
    rmSync(dir, { recursive: true, force: true });
  });

  test("a secret the program requires and the run lacks: the error once, and commands that set it for the kept stack, which work as printed", async () => {
    const result = await demo("Ctrl-C stack, no secret", ["--program", dir, "--keep"]);
    expect(result.code).toBe(1);
    expectPlainOutput(result);
    expect(result.stdout.split("Missing required configuration variable 'my-stack:hmacKey'")).toHaveLength(2);
    expect(result.stdout).toContain("  Give my-stack:hmacKey with --secret hmacKey=<value>");
    const commands = printedCommands(
      result.stdout,
      "Or store it, encrypted with the kept stack's passphrase, in Pulumi.dev.yaml, which the next run reads:",
    );
    expect(commands).toHaveLength(2);
    expect(commands[1]).toContain("config set --secret --stack dev hmacKey '<value>'");
    const set = await shell([commands[0], commands[1].replace("'<value>'", secret)]);
    expect(set.stderr).toBe("");
    expect(set.code).toBe(0);
    expect(readFileSync(join(dir, "Pulumi.dev.yaml"), "utf8")).toMatch(/my-stack:hmacKey:\n {4}secure: v1:/);
  });

  test("Ctrl-C just after a create: the run stops once the engine has recorded what it was doing, the kept state and emulator data agree, the secret set with the CLI was read", async () => {
    // As the README has it, through npm, in a process group of its own, which gets the SIGINT as a terminal's would.
    const started = Date.now();
    const result = await run(
      process.execPath,
      [npmCli(), "run", "--silent", "--prefix", REPO, "demo", "--", "--program", "./my-stack", "--keep"],
      env,
      {
        cwd: parent,
        detached: true,
        signalOn: { after: "    created RunTask scanner", signal: "SIGINT" },
      },
    );
    timings.push(`Ctrl-C stack, interrupted (npm, with the build): ${((Date.now() - started) / 1000).toFixed(1)}s`);
    if (result.signal !== "SIGINT") console.error(result.stdout, result.stderr);
    // npm waits for the demo to end, then ends by the same signal, as a shell expects of a job a Ctrl-C stopped.
    expect([result.code, result.signal]).toEqual([null, "SIGINT"]);
    expect(result.stdoutAtExit).toContain("The demo was interrupted.");
    expectPlainOutput(result);
    expectInOrder(result.stdout, [
      "== up",
      "    created RunTask scanner",
      "Ctrl-C: stopping once the engine has recorded the operations in flight",
      "The demo was interrupted (Ctrl-C).",
      "Kept (--keep): the stack's state and the emulator's data, in ",
      "The demo was interrupted.",
    ]);
    expect(result.stdout).not.toContain("The demo failed");
    expect(result.stdout.split("The demo was interrupted (Ctrl-C).")).toHaveLength(2);
    expect(await keptAgreement(dir, "my-stack")).toEqual({ stranded: [], lost: [], claimedTwice: [], pending: [] });
    expect(keptData(dir).runTask.tasks.map((t) => t.hmacKey)).toEqual([secret]);
    expect(result.stdout + result.stderr).not.toContain(secret);
    // The commands that look at the kept stack work as printed, with no `pulumi` on PATH.
    const look = await shell(printedCommands(result.stdout, "Look at the stack with:").slice(0, 2));
    expect(look.code).toBe(0);
    expect(look.stdout).toContain('"urn:pulumi:dev::my-stack::pulumi:pulumi:Stack::my-stack-dev"');
  });

  test("killed (SIGKILL) just after an update: the next run clears the lock the killed CLI left, and carries on from the kept state and emulator data", async () => {
    write("my-stack", { "index.ts": program("https://hooks.example.com/scan-v2") });
    const killed = await demo("Ctrl-C stack, killed", ["--program", dir, "--keep"], { after: "    updated RunTask scanner", signal: "SIGKILL" });
    endLeftovers(killed.stdout);
    expect(killed.signal).toBe("SIGKILL");
    const locks = join(dir, ".pulumi-demo/backend/.pulumi/locks/organization/my-stack/dev");
    expect(readdirSync(locks).filter((f) => f.endsWith(".json"))).toHaveLength(1);
    expect(keptData(dir).runTask.tasks.map((t) => t.url)).toEqual(["https://hooks.example.com/scan-v2"]);
    expect(await keptAgreement(dir, "my-stack")).toMatchObject({ stranded: [], lost: [], claimedTwice: [] });

    const next = await demo("Ctrl-C stack, after the kill", ["--program", dir, "--keep"]);
    if (next.code !== 0) console.error(next.stdout, next.stderr);
    expect(next.code).toBe(0);
    expectPlainOutput(next);
    expectInOrder(next.stdout, [
      ", holding what it held when the stack was kept",
      /cleared the lock of a `pulumi` command that was stopped \(pid \d+, no longer running\)/,
      "== up",
      "    lastError = ",
      "The demo ran to the end.",
    ]);
    expect(readdirSync(locks).filter((f) => f.endsWith(".json"))).toEqual([]);
    expect(await keptAgreement(dir, "my-stack")).toEqual({ stranded: [], lost: [], claimedTwice: [], pending: [] });
    expect(readStackState(join(dir, ".pulumi-demo/backend"), "my-stack", "dev").resources.find((r) => r.type.endsWith("RunTask"))?.outputs?.url).toBe(
      "https://hooks.example.com/scan-v2",
    );
    expect(existsSync(stateFilePath(join(dir, ".pulumi-demo/backend"), "my-stack", "dev"))).toBe(true);
  });

  test("killed (SIGKILL) while a create is at the service: the object made, the create pending; the next run, the program unchanged, takes that object over and clears the pending create", async () => {
    write("my-stack", { "index.ts": program("https://hooks.example.com/scan-v2", true) });
    const gate = "urn:pulumi:dev::my-stack::pulumi-nodejs:dynamic/runtask:RunTask::gate";
    const gates = () => keptData(dir).runTask.tasks.filter((t) => t.name === "gate");
    const made = () => {
      try {
        return gates().length > 0;
      } catch {
        return false; // no data file yet
      }
    };
    // Each answer held 2 s once its request is carried out: the kill comes once the task is made, before its answer.
    const killed = await demo("Ctrl-C stack, killed in a create", ["--program", dir, "--keep", "--latency", "2000"], {
      after: "+ create RunTask gate",
      once: made,
      signal: "SIGKILL",
    });
    endLeftovers(killed.stdout);
    if (killed.signal !== "SIGKILL") console.error(killed.stdout, killed.stderr);
    expect(killed.signal).toBe("SIGKILL");
    expect(killed.stdout).toContain("    each answer held 2000 ms once its request is carried out (--latency)");
    const before = readStackState(join(dir, ".pulumi-demo/backend"), "my-stack", "dev");
    expect(before.pendingOperations.map((p) => `${p.type} ${p.resource.urn}`)).toEqual([`creating ${gate}`]);
    expect(before.resources.map((r) => r.urn)).not.toContain(gate);
    const [task] = gates();

    const next = await demo("Ctrl-C stack, after the kill in a create", ["--program", dir, "--keep"]);
    if (next.code !== 0 || !next.stdout.includes("  cleared the pending create of RunTask gate"))
      console.error(killed.stdout, next.stdout, next.stderr);
    expect(next.code).toBe(0);
    expectPlainOutput(next);
    expectInOrder(next.stdout, [
      /cleared the lock of a `pulumi` command that was stopped \(pid \d+, no longer running\)/,
      "  a stopped run left a create pending (RunTask gate): the up takes over the object the service made for it, if any, then clears the pending create",
      "== up",
      `    created RunTask gate (${task.id})`,
      "  cleared the pending create of RunTask gate, recorded now",
      "The demo ran to the end.",
    ]);
    // The provider's word on the object it took over, in the up (the engine's log, in no set order with the step).
    const up = next.stdout.slice(next.stdout.indexOf("== up"), next.stdout.indexOf("  cleared the pending create"));
    expect(up).toContain(`    run task ${task.id}, made by an up of this stack that was stopped while creating it, is taken over and recorded`);
    expect(gates().map((t) => t.id)).toEqual([task.id]);
    const after = readStackState(join(dir, ".pulumi-demo/backend"), "my-stack", "dev");
    expect(after.resources.filter((r) => r.urn === gate).map((r) => r.id)).toEqual([task.id]);
    expect(await keptAgreement(dir, "my-stack")).toEqual({ stranded: [], lost: [], claimedTwice: [], pending: [] });
  });
});
