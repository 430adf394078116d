import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createConsumerProject, type ConsumerProject } from "../../toolchain/consumerProject";
import { startEmulator, type Emulator } from "../../emulator";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { readStackState } from "../support/engine/stateFile";
import { stageExample } from "../support/exampleProject";
import { Switchboard } from "../support/switchboard";
import { HeldRequests } from "./support/heldRequests";
import { RecordedCli } from "./support/recordedCli";

/**
 * examples/automation-api as a user runs it (`npm run provision`, `preview`, `destroy`: its index.ts, with the
 * packed package installed), through the real Pulumi CLI (behind cliRecorder.js) against the emulator, whose
 * workspaces are the ones the example's workspaces.json names: what it prints, with no secret in it, when the helper
 * succeeds, fails and is interrupted by a Ctrl-C.
 */
jest.setTimeout(300_000);

const RUNTASK_TOKEN = "canary-example-runtask-token-2b9e";
const SNAPSHOT_TOKEN = "canary-example-snapshot-token-61c0";
const PASSPHRASE = "canary-example-passphrase-d3f7";
const HMAC_KEY = "canary-example-hmac-key-7f05";
const CANARIES = [RUNTASK_TOKEN, SNAPSHOT_TOKEN, PASSPHRASE, HMAC_KEY];
const PROJECT = "platform-run-tasks";
const NEW_WORKSPACE = "ws-NewWorkspace0001";

let project: ConsumerProject;
let cli: RecordedCli;
let emulator: Emulator;
let exampleDir: string;
let backend: string;
const calls = new Switchboard();

beforeAll(async () => {
  // Before the recorder, which points TMPDIR at a folder that must stay empty.
  project = createConsumerProject();
  exampleDir = join(project.dir, stageExample(project, "automation-api"));
  backend = join(exampleDir, ".pulumi-state");
  cli = new RecordedCli();
  const workspaces: string[] = JSON.parse(readFileSync(join(exampleDir, "workspaces.json"), "utf8"));
  emulator = await startEmulator({
    snapshot: { tokens: { [SNAPSHOT_TOKEN]: { sudo: true } }, takeSnapshots: false },
    runTask: {
      tokens: { [RUNTASK_TOKEN]: { owner: true } },
      organizations: [{ name: "acme", workspaces: [...workspaces, NEW_WORKSPACE].map((id, i) => ({ id, name: `workspace-${i}` })) }],
    },
    interceptors: [calls.interceptor],
  });
});

afterAll(async () => {
  calls.reset();
  await emulator?.close();
  cli?.remove();
  project?.remove();
});

afterEach(() => {
  calls.reset();
  expect(cli.leftovers()).toEqual([]);
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run <command>` of the example, in a process group of its own, as a terminal runs it in the foreground;
 * `interrupt`, once it says so, sends SIGINT to the whole group, as a terminal's Ctrl-C does.
 */
function example(command: "up" | "preview" | "destroy", env: Record<string, string> = {}, interrupt?: () => boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["index.js", command], {
      cwd: exampleDir,
      detached: true,
      env: {
        ...process.env,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        SERVICE_ADDR: emulator.url,
        SERVICE_TOKEN: SNAPSHOT_TOKEN,
        RUNTASK_ADDR: emulator.url,
        RUNTASK_TOKEN,
        RUNTASK_ORGANIZATION: "acme",
        POLICY_CHECK_HMAC_KEY: HMAC_KEY,
        ...env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    if (interrupt) {
      const poll = setInterval(() => {
        if (!interrupt()) return;
        clearInterval(poll);
        process.kill(-child.pid!, "SIGINT");
      }, 50);
      child.on("close", () => clearInterval(poll));
    }
  });
}

function expectNoSecret(run: Run): void {
  for (const canary of CANARIES) expect(run.stdout + run.stderr).not.toContain(canary);
}

const state = () => readStackState(backend, PROJECT, "platform");
const stackExists = () => existsSync(join(backend, ".pulumi/stacks", PROJECT, "platform.json"));
const locks = () => {
  const dir = join(backend, ".pulumi/locks");
  return existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json")) : [];
};
const isNewAssociation = (taskName: string) => (req: { method: string; path: string; body: unknown }, route: string) =>
  req.method === "POST" &&
  route === "/api/v2/workspaces/:ws/tasks" &&
  req.path.includes(NEW_WORKSPACE) &&
  JSON.stringify(req.body).includes(emulator.runTask.tasks().find((t) => t.name === taskName)!.id);

test("preview before the first provision says there is no stack yet, and creates none", async () => {
  const run = await example("preview");
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(
    `preview of stack "platform": the backend ${pathToFileURL(backend).href} holds no stack "platform" (nothing was created)`,
  );
  expect(run.stderr).toContain("run `npm run provision` first");
  expect(stackExists()).toBe(false);
});

test("provision creates the stack in ./.pulumi-state and everything the description holds, and prints the changes", async () => {
  cli.reset();
  const run = await example("up");
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("+ create RunTask policy-check");
  // The stack, the snapshot configuration, two tasks, each attached to two workspaces.
  expect(run.stdout).toContain("changes: { create: 8 }");
  expect(run.stdout).toMatch(/^policy-check-on-ws-1A2b3C4d5E6f7G8h: wstask-\w+ \(mandatory, pre_plan, post_plan\)$/m);
  expect(
    emulator.runTask
      .tasks()
      .map((t) => t.name)
      .sort(),
  ).toEqual(["cost-estimate", "policy-check"]);
  expect(emulator.runTask.workspaceTasks()).toHaveLength(4);
  const ups = cli.calls().filter((c) => c.args[0] === "up");
  expect(ups).toHaveLength(1);
  expect(ups[0].args).toContain("provision: 2 workspaces");
  expectNoSecret(run);
  expectServiceMatchesState(emulator, { state });
});

test("a wrong passphrase: one line saying what the CLI refused, and no secret", async () => {
  const run = await example("up", { PULUMI_CONFIG_PASSPHRASE: "not-the-passphrase" });
  expect(run.code).toBe(1);
  expect(run.stderr.trim()).toBe(
    'provision of stack "platform" failed: getting stack configuration: get stack secrets manager: failed to decrypt: incorrect passphrase, ' +
      "please set PULUMI_CONFIG_PASSPHRASE to the correct passphrase or set PULUMI_CONFIG_PASSPHRASE_FILE to a file containing the passphrase",
  );
  expectNoSecret(run);
});

test("a workspace appended to workspaces.json, one of whose associations the service refuses: which and why, with the secret the answer held replaced", async () => {
  writeFileSync(
    join(exampleDir, "workspaces.json"),
    JSON.stringify([...JSON.parse(readFileSync(join(exampleDir, "workspaces.json"), "utf8")), NEW_WORKSPACE]),
  );
  calls.answers.push((req, route) =>
    isNewAssociation("policy-check")(req, route)
      ? { status: 422, body: { errors: [{ status: "422", title: "refused", detail: `passphrase ${PASSPHRASE} seen` }] } }
      : undefined,
  );
  const run = await example("up");
  expect(run.code).toBe(1);
  expect(run.stderr.trim()).toBe(
    'provision of stack "platform" failed: 1 resource failed\n' +
      `  create WorkspaceRunTask policy-check-on-${NEW_WORKSPACE}: run task service: POST /workspaces/${NEW_WORKSPACE}/tasks failed (HTTP 422): refused: passphrase [secret] seen`,
  );
  expectNoSecret(run);
  // The other association of the new workspace was made, and is recorded.
  expect(emulator.runTask.workspaceTasks({ workspaceId: NEW_WORKSPACE })).toHaveLength(1);
  expectServiceMatchesState(emulator, { state });
});

test("Ctrl-C while the association is being made: the CLI finishes it, records it, releases the stack and stops, and the example says so", async () => {
  const held = new HeldRequests(isNewAssociation("policy-check"));
  calls.answers.push(held.answer);
  let run: Run;
  try {
    run = await example("up", {}, () => {
      if (!held.arrived()) return false;
      setTimeout(() => held.release(), 1000);
      return true;
    });
  } finally {
    held.release();
  }
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("stopping: the CLI finishes the steps in flight (Ctrl-C again to quit at once)");
  expect(run.stderr).toContain('provision of stack "platform" cancelled: the CLI was interrupted');
  expectNoSecret(run);
  expect(locks()).toEqual([]);
  expect(emulator.runTask.workspaceTasks({ workspaceId: NEW_WORKSPACE })).toHaveLength(2);
  expect(state().pendingOperations).toEqual([]);
  expectServiceMatchesState(emulator, { state });
});

test("destroy removes everything, then the stack", async () => {
  cli.reset();
  const run = await example("destroy");
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(stackExists()).toBe(false);
  expect(emulator.runTask.tasks()).toEqual([]);
  expect(emulator.snapshot.configs.size).toBe(0);
  expect(cli.calls().filter((c) => c.args[0] === "stack" && c.args[1] === "rm")).toHaveLength(1);
});
