import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtEngineDir } from "../../toolchain/pulumiEngine";
import { npmCli, pathWithoutPulumi, REPO, run, type CommandResult } from "../support/demoCommand";
import { testEngine } from "../support/engine/engineStack";

/**
 * `npm run demo`, the README's command, as a user runs it: through the Pulumi engine (here the project's own build,
 * `pulumi` being on no directory of PATH), against the emulator. It shows every step, exits 0, and leaves nothing
 * behind: no process, no open port, no file in the repository or the temporary directory.
 */

/**
 * What git sees in the tree: changed and new files, and ignored ones, an ignored or new directory as one line
 * (not its files: a tree where the examples were installed holds megabytes of them). A file the demo wrote outside
 * its work directory shows as a new line, or as a new directory.
 */
const gitStatus = () =>
  execFileSync("git", ["status", "--porcelain", "--ignored=traditional", "--untracked-files=normal", "--", ".", ":!node_modules", ":!dist"], {
    cwd: REPO,
    encoding: "utf8",
  });

/** Whether anything listens on `port` of loopback. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

/** Whether any process is left in the process group `pgid`. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

let result: CommandResult;
let statusBefore: string;
let tmp: string;
let seconds: number;

beforeAll(async () => {
  testEngine();
  if (existsSync(join(REPO, ".pulumi-demo"))) {
    throw new Error(
      "a stack kept by `npm run demo -- --keep` is in .pulumi-demo/, and the demo would carry on from it: run `npm run demo` once to destroy it",
    );
  }
  statusBefore = gitStatus();
  // A temporary directory of its own, to see what the demo writes there.
  tmp = mkdtempSync(join(tmpdir(), "demo-tmp-"));
  const started = Date.now();
  // In a process group of its own, so that whatever it starts can be looked for afterwards.
  result = await run(
    process.execPath,
    [npmCli(), "run", "--silent", "demo"],
    { ...process.env, PATH: pathWithoutPulumi, TMPDIR: tmp },
    { detached: true },
  );
  seconds = (Date.now() - started) / 1000;
  if (result.code !== 0) console.error(result.stdout, result.stderr);
}, 300_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test("runs through the Pulumi engine: preview, up with progress per resource, the outputs, a real snapshot, an up that changes and writes nothing, destroy", () => {
  expect(result.code).toBe(0);
  const out = result.stdout;
  const inOrder = [
    `  engine: the Pulumi engine, through the Automation API and the \`pulumi\` CLI (${join(builtEngineDir(), "pulumi")}, built by npm run engine)`,
    "== preview",
    "  + create RunTask demo-policy-scan",
    // The engine's counts include the stack resource itself, and the demo says so.
    "  preview: 4 to create, the stack among them",
    "== up",
    "    created SnapshotAutoConfig demo-snapshots (demo-snapshots)",
    "    created WorkspaceRunTask demo-policy-scan-on-workspace (wstask-",
    "  outputs:",
    "    runTaskHmacKey = [secret]",
    "  up: 4 created, the stack among them",
    "  snapshot taken at ",
    "== up again",
    "    unchanged RunTask demo-policy-scan (task-",
    '"lastSnapshotUrl":"file://',
    "  up again: no changes (4 unchanged, the stack among them), nothing written to the services",
    "== destroy",
    "    deleted RunTask demo-policy-scan",
    "  destroy: 4 deleted, the stack among them",
    "Summary",
    "The demo ran to the end.",
  ];
  let at = 0;
  for (const text of inOrder) {
    const found = out.indexOf(text, at);
    expect({ text, found: found >= 0 }).toEqual({ text, found: true });
    at = found + text.length;
  }
  expect(out).toMatch(/runTaskId = task-\w+/);
  // A first preview of a new stack: the status of a configuration not made yet is unknown, not an error.
  expect(out).not.toMatch(/^ *(error|warning):|failed/m);
  expect(result.stderr).toBe("");
  console.log(`npm run demo took ${seconds.toFixed(1)}s`);
});

test("leaves no process and no listening emulator behind", async () => {
  expect(groupAlive(result.pid)).toBe(false);
  const port = Number(/the emulator at http:\/\/127\.0\.0\.1:(\d+)/.exec(result.stdout)?.[1]);
  expect(port).toBeGreaterThan(0);
  expect(await listening(port)).toBe(false);
});

test("writes nothing in the repository, and removes what it wrote in the temporary directory", () => {
  expect(gitStatus()).toBe(statusBefore);
  expect(existsSync(join(REPO, ".pulumi-demo"))).toBe(false);
  // npm and tsc keep Node's compile cache in the temporary directory, whatever they run; nothing else is there.
  expect(readdirSync(tmp).filter((f) => f !== "node-compile-cache")).toEqual([]);
});

test("--help lists the flags", async () => {
  const help = await run(process.execPath, ["dist/demo/main.js", "--help"], process.env);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/^Usage: npm run demo/);
  for (const flag of [
    "--keep",
    "--real",
    "--proxy <url>",
    "--verbose",
    "--program <dir>",
    "--stack <name>",
    "--config <key=value>",
    "--secret <key=value>",
  ]) {
    expect(help.stdout).toContain(flag);
  }
});
