import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findPulumiCli } from "../../automation/pulumiCli";
import { NO_CLI_NOTICE } from "../../demo/main";
import { npmCli, pathWithoutPulumi, REPO, run, type CommandResult } from "../support/demoCommand";

/**
 * `npm run demo` as a user runs it on a machine without a Pulumi CLI: it says so in its first line, then runs
 * every step of the demo through the engine driver, exits 0, and leaves nothing behind: no process, no open
 * port, no file outside its work directory (which it removes).
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
const demoRuns = () => (existsSync(join(REPO, ".pulumi-demo")) ? readdirSync(join(REPO, ".pulumi-demo")) : []);

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
let runsBefore: string[];
let tmp: string;

beforeAll(async () => {
  expect(findPulumiCli({ PATH: pathWithoutPulumi })).toBeUndefined();
  statusBefore = gitStatus();
  runsBefore = demoRuns();
  // A temporary directory of its own, to see what the demo writes there.
  tmp = mkdtempSync(join(tmpdir(), "demo-tmp-"));
  // In a process group of its own, so that whatever it starts can be looked for afterwards.
  result = await run(
    process.execPath,
    [npmCli(), "run", "--silent", "demo"],
    { ...process.env, PATH: pathWithoutPulumi, TMPDIR: tmp },
    { detached: true },
  );
  if (result.code !== 0) console.error(result.stdout, result.stderr);
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test("exits 0, after saying first, in one line, what is missing, how to install it, and what runs instead", () => {
  expect(result.code).toBe(0);
  expect(result.stdout.split("\n")[0]).toBe(NO_CLI_NOTICE);
  expect(NO_CLI_NOTICE).toMatch(
    /^No `pulumi` CLI on PATH \(install it from https:\/\/www\.pulumi\.com\/docs\/install\/\).*engine driver.*not the Pulumi engine/,
  );
});

test("shows every step: preview, up with progress per resource, the outputs, a real snapshot, an up that changes and writes nothing, destroy, the summary", () => {
  const out = result.stdout;
  const inOrder = [
    "  engine: the bundled engine driver (engine/)",
    "== preview",
    "  + create RunTask demo-policy-scan",
    "  preview: 3 to create",
    "== up",
    "    created SnapshotAutoConfig demo-snapshots (demo-snapshots)",
    "    created WorkspaceRunTask demo-policy-scan-on-workspace (wstask-",
    "  outputs:",
    "    runTaskHmacKey = [secret]",
    "  up: 3 created",
    "  snapshot taken at ",
    "== up again",
    "    unchanged RunTask demo-policy-scan (task-",
    '"lastSnapshotUrl":"file://',
    "  up again: no changes (3 unchanged), nothing written to the services",
    "== destroy",
    "    deleted RunTask demo-policy-scan",
    "  destroy: 3 deleted",
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
  expect(out).toMatch(/^ {2}up again {2}no changes/m);
});

test("leaves no process and no listening emulator behind", async () => {
  expect(groupAlive(result.pid)).toBe(false);
  const port = Number(/the emulator at http:\/\/127\.0\.0\.1:(\d+)/.exec(result.stdout)?.[1]);
  expect(port).toBeGreaterThan(0);
  expect(await listening(port)).toBe(false);
});

test("writes nothing outside its work directory, and removes that", () => {
  expect(gitStatus()).toBe(statusBefore);
  expect(demoRuns()).toEqual(runsBefore);
  // npm and tsc keep Node's compile cache in the temporary directory, whatever they run; nothing else is there.
  expect(readdirSync(tmp).filter((f) => f !== "node-compile-cache")).toEqual([]);
});
