import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDemoArguments } from "../../demo/options";
import { namedWorkspaceIds, readUserProgram, userStackConfig } from "../../demo/userProgram";
import { pathWithoutPulumi, REPO, run, type CommandResult } from "../support/demoCommand";

/**
 * `npm run demo -- --program <dir>`: a user's own project, written by hand in a new directory, through preview, up
 * and destroy against the emulator, without a Pulumi CLI: a TypeScript program on the dynamic providers, and a YAML
 * one on the provider plugins. The environment names real services on a port where nothing listens: the run must
 * use the emulator's settings in their place.
 */

let parent: string;
/** The runs' process ids, which name their work directories. */
const pids: number[] = [];

/** A new directory holding `files`. */
function project(name: string, files: Record<string, string>): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

const env = {
  ...process.env,
  PATH: pathWithoutPulumi,
  SERVICE_ADDR: "http://127.0.0.1:9",
  SERVICE_TOKEN: "not-this-one",
  RUNTASK_ADDR: "http://127.0.0.1:9",
  RUNTASK_TOKEN: "not-this-one",
};

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

beforeAll(() => {
  parent = mkdtempSync(join(tmpdir(), "own-program-"));
});

afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe("a TypeScript program of three resources", () => {
  let result: CommandResult;

  beforeAll(async () => {
    const dir = project("my-platform", {
      "Pulumi.yaml": "name: my-platform\nruntime: nodejs\n",
      "Pulumi.dev.yaml":
        "config:\n  runtask:organization: acme\n  runtask:address: https://runs.example.com\n  my-platform:workspaceId: ws-Abc123Def456Ghi7\n",
      "index.ts": [
        'import * as pulumi from "@pulumi/pulumi";',
        'import { RunTask, SnapshotAutoConfig, WorkspaceRunTask } from "pulumi-snapshot-runtask";',
        "",
        "const config = new pulumi.Config();",
        'const nightly = new SnapshotAutoConfig("nightly", { interval: "24h", retain: 7, storageType: "local", pathPrefix: "/var/lib/snapshots", localMaxSpace: 1024 ** 3 });',
        'const scanner = new RunTask("scanner", { url: "https://hooks.example.com/scan", hmacKey: config.requireSecret("hmacKey") });',
        'new WorkspaceRunTask("scanner-on-app", { workspaceId: config.require("workspaceId"), taskId: scanner.id, enforcementLevel: "mandatory" });',
        "",
        "export const taskId = scanner.id;",
        "export const hmacKey = scanner.hmacKey;",
        "export const snapshotName = nightly.name;",
        "",
      ].join("\n"),
    });
    result = await run(process.execPath, ["dist/demo/main.js", "--program", dir, "--secret", "hmacKey=canary-own-program-key"], env);
    pids.push(result.pid);
    if (result.code !== 0) console.error(result.stdout, result.stderr);
  }, 180_000);

  test("runs through preview, up and destroy on the engine driver, and says so", () => {
    expect(result.code).toBe(0);
    expectInOrder(result.stdout, [
      "engine driver (engine/), a stand-in for the Pulumi engine",
      "pulumi-snapshot-runtask: the program in ",
      "  services: the emulator at http://127.0.0.1:",
      ", organization acme",
      "    workspaces (of acme): ws-Abc123Def456Ghi7",
      "    in place of the stack's runtask:address (--real uses them)",
      "== preview",
      "  + create SnapshotAutoConfig nightly",
      "  preview: 3 to create",
      "== up",
      "    created RunTask scanner (task-",
      "    created WorkspaceRunTask scanner-on-app (wstask-",
      /taskId = task-\w+/,
      "    hmacKey = [secret]",
      "    snapshotName = nightly",
      "  up: 3 created",
      "== destroy",
      "    deleted RunTask scanner",
      "  destroy: 3 deleted",
      "Summary",
      "The demo ran to the end.",
    ]);
    expect(result.stdout + result.stderr).not.toContain("canary-own-program-key");
  });
});

describe("a YAML program on the provider plugins", () => {
  let result: CommandResult;

  beforeAll(async () => {
    const dir = project("my-yaml", {
      "Pulumi.yaml": [
        "name: my-yaml",
        "runtime: yaml",
        "config:",
        "  hmacKey: { type: string, secret: true }",
        "  betaToken: { type: string, secret: true }",
        "  workspace: { type: string, default: ws-Zz9Yy8Xx7Ww6Vv5U }",
        "resources:",
        "  scanner:",
        "    type: runtask:index:RunTask",
        "    properties: { url: https://hooks.example.com/scan, hmacKey: '${hmacKey}' }",
        "  scanner-on-app:",
        "    type: runtask:index:WorkspaceRunTask",
        "    properties: { workspaceId: '${workspace}', taskId: '${scanner.id}', enforcementLevel: advisory }",
        "  beta:",
        "    type: pulumi:providers:runtask",
        "    properties: { address: https://runs.example.com, token: '${betaToken}', organization: beta }",
        "  beta-scanner:",
        "    type: runtask:index:RunTask",
        "    properties: { url: https://hooks.example.com/beta }",
        "    options: { provider: '${beta}' }",
        "  nightly:",
        "    type: snapshot:index:SnapshotAutoConfig",
        "    properties: { interval: 24h, retain: 7, storageType: local, pathPrefix: /var/snapshots, localMaxSpace: 1073741824 }",
        "variables:",
        "  names:",
        "    fn::invoke: { function: snapshot:index:listSnapshotAutoConfigs, arguments: {}, return: names }",
        "outputs:",
        "  scannerId: ${scanner.id}",
        "  configurations: ${names}",
        "",
      ].join("\n"),
    });
    result = await run(
      process.execPath,
      ["dist/demo/main.js", "--program", dir, "--secret", "hmacKey=canary-own-yaml-key", "--secret", "betaToken=not-the-emulator-token"],
      env,
    );
    pids.push(result.pid);
    if (result.code !== 0) console.error(result.stdout, result.stderr);
  }, 180_000);

  test("runs through preview, up and destroy on the provider plugins, an explicit provider's too, on the emulator", () => {
    expect(result.code).toBe(0);
    expectInOrder(result.stdout, [
      "on the package's provider plugins",
      ", organization beta",
      "    workspaces (of beta): ws-Zz9Yy8Xx7Ww6Vv5U",
      "    in place of the addresses and tokens of the program's provider resources too",
      "== preview",
      "  + create WorkspaceRunTask scanner-on-app",
      "  preview: 4 to create",
      "== up",
      "    created RunTask scanner (task-",
      "    created WorkspaceRunTask scanner-on-app (ws-Zz9Yy8Xx7Ww6Vv5U/wstask-",
      /scannerId = task-\w+/,
      '    configurations = ["nightly"]',
      "  up: 4 created",
      "== destroy",
      "  destroy: 4 deleted",
      "The demo ran to the end.",
    ]);
    // Through its own provider, which the emulator's address and token replace: the run reached nothing else.
    expectInOrder(result.stdout, ["== up", "    created RunTask beta-scanner (task-", "== destroy", "    deleted RunTask beta-scanner"]);
    expect(result.stdout + result.stderr).not.toContain("canary-own-yaml-key");
  });
});

test("the runs leave no work directory behind", () => {
  expect(pids).toHaveLength(2);
  const runs = readdirSync(REPO).includes(".pulumi-demo") ? readdirSync(join(REPO, ".pulumi-demo")) : [];
  expect(runs.filter((r) => pids.some((pid) => r.endsWith(`-${pid}`)))).toEqual([]);
});

describe("the program's stack config", () => {
  test("the project's defaults, then the stack's file, then the command line; keys without namespace are the project's", () => {
    const dir = project("config", {
      "Pulumi.yaml": "name: cfg\nruntime: nodejs\nconfig:\n  region: { default: north }\n  runtask:organization: from-project\n",
      "Pulumi.prod.yaml": "config:\n  cfg:size: 3\n  runtask:organization: acme\n  cfg:tags: [a, b]\n",
    });
    const program = readUserProgram(dir);
    const options = parseDemoArguments(["--program", dir, "--stack", "prod", "--config", "size=4", "--secret", "token=t"]);
    if (options.kind !== "run" || !options.options.program) throw new Error("not a program run");
    expect(userStackConfig(program, options.options.program)).toEqual({
      "cfg:region": { value: "north" },
      "runtask:organization": { value: "acme" },
      "cfg:size": { value: "4" },
      "cfg:tags": { value: '["a","b"]' },
      "cfg:token": { value: "t", secret: true },
    });
  });

  test("a value the stack file holds encrypted names the flag that gives it", () => {
    const dir = project("secure", {
      "Pulumi.yaml": "name: sec\nruntime: nodejs\n",
      "Pulumi.dev.yaml": "encryptionsalt: v1:abc\nconfig:\n  sec:hmacKey:\n    secure: v1:xyz\n",
    });
    const program = readUserProgram(dir);
    expect(() => userStackConfig(program, { stack: "dev", config: {} })).toThrow(
      "Pulumi.dev.yaml holds sec:hmacKey encrypted, which only the Pulumi CLI can read: give it with --secret hmacKey=<value>",
    );
    expect(userStackConfig(program, { stack: "dev", config: { hmacKey: { value: "k", secret: true } } })).toEqual({
      "sec:hmacKey": { value: "k", secret: true },
    });
  });

  test("the emulator holds every workspace id the program or its config names", () => {
    const dir = project("ids", { "Pulumi.yaml": "name: ids\nruntime: nodejs\n", "index.ts": 'const w = "ws-1A2b3C4d5E6f7G8h";\n' });
    expect(namedWorkspaceIds(readUserProgram(dir), { "ids:other": { value: '["ws-9Z8y7X6w5V4u3T2s"]' } }).sort()).toEqual([
      "ws-1A2b3C4d5E6f7G8h",
      "ws-9Z8y7X6w5V4u3T2s",
    ]);
  });

  test("a directory that is not a Pulumi project, or one of another runtime, is named", () => {
    expect(() => readUserProgram(project("empty", {}))).toThrow(/no Pulumi\.yaml in .*empty; give the directory of a Pulumi project/);
    expect(() => readUserProgram(project("py", { "Pulumi.yaml": "name: py\nruntime: python\n" }))).toThrow(
      "runtime python: the engine driver runs nodejs (TypeScript, JavaScript) and yaml programs; run this one with the Pulumi CLI",
    );
  });

  test("--stack, --config and --secret go with --program", () => {
    expect(() => parseDemoArguments(["--config", "a=b"])).toThrow("--config go with --program <dir>");
    expect(() => parseDemoArguments(["--program", ".", "--config", "novalue"])).toThrow('--config takes key=value, not "novalue"');
  });
});
