import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createConsumerProject, type ConsumerProject } from "../../demo/consumerProject";
import { stageExample } from "../support/exampleProject";
import { RecordingPulumi } from "./support/recordingPulumi";

/**
 * examples/automation-api as a user runs it (`npm run provision`, `preview`, `destroy`: its index.ts, with the
 * packed package installed), against the stand-in `pulumi` on PATH: what it prints, with no secret in it, when
 * the helper succeeds, fails and is interrupted.
 */

const RUNTASK_TOKEN = "canary-example-runtask-token-2b9e";
const SNAPSHOT_TOKEN = "canary-example-snapshot-token-61c0";
const PASSPHRASE = "canary-example-passphrase-d3f7";
const CANARIES = [RUNTASK_TOKEN, SNAPSHOT_TOKEN, PASSPHRASE];
const RESOURCES = [
  { type: "pulumi-nodejs:dynamic/runtask:RunTask", name: "policy-check" },
  { type: "pulumi-nodejs:dynamic/runtask:RunTask", name: "cost-estimate" },
];

let project: ConsumerProject;
let cli: RecordingPulumi;
let exampleDir: string;
let backendUrl: string;

beforeAll(() => {
  // Before the stand-in, which points TMPDIR at a directory that must stay empty.
  project = createConsumerProject();
  exampleDir = join(project.dir, stageExample(project, "automation-api"));
  backendUrl = pathToFileURL(join(exampleDir, ".pulumi-state")).href;
  cli = new RecordingPulumi();
});

afterAll(() => {
  cli?.remove();
  project?.remove();
});

afterEach(() => expect(cli.leftovers()).toEqual([]));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run <command>` of the example; `interrupt` sends SIGINT once the stand-in's update holds the stack's lock. */
function example(command: "up" | "preview" | "destroy", env: Record<string, string> = {}, interrupt = false): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["index.js", command], {
      cwd: exampleDir,
      env: {
        ...process.env,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        SERVICE_ADDR: "https://snapshots.example.com:8200",
        SERVICE_TOKEN: SNAPSHOT_TOKEN,
        RUNTASK_ADDR: "https://runs.example.com",
        RUNTASK_TOKEN,
        RUNTASK_ORGANIZATION: "acme",
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
        if (cli.lockHeld(backendUrl, "platform-run-tasks", "platform")) {
          clearInterval(poll);
          child.kill("SIGINT");
        }
      }, 50);
      child.on("close", () => clearInterval(poll));
    }
  });
}

function expectNoSecret(run: Run): void {
  for (const canary of CANARIES) expect(run.stdout + run.stderr).not.toContain(canary);
}

test("preview before the first provision says there is no stack yet, and creates none", async () => {
  cli.reset({ resources: RESOURCES });
  const run = await example("preview");
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`preview of stack "platform": the backend ${backendUrl} holds no stack "platform" (nothing was created)`);
  expect(run.stderr).toContain("run `npm run provision` first");
  expect(cli.allStacks()).toEqual([]);
});

test("provision creates the stack in ./.pulumi-state and prints the changes", async () => {
  cli.reset({ resources: RESOURCES });
  const run = await example("up");
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("+ create RunTask policy-check");
  expect(run.stdout).toContain("changes: { create: 2 }");
  expect(cli.allStacks()).toEqual([`${backendUrl} platform-run-tasks/platform`]);
  expect(cli.callsOf("up")[0].args).toContain("provision: 2 workspaces");
  expectNoSecret(run);
});

test("a wrong passphrase: one line saying what the CLI refused, and no secret", async () => {
  cli.reset({ resources: RESOURCES });
  const run = await example("up", { PULUMI_CONFIG_PASSPHRASE: "not-the-passphrase" });
  expect(run.code).toBe(1);
  expect(run.stderr.trim()).toBe(
    'provision of stack "platform" failed: getting secrets manager: incorrect passphrase, please set PULUMI_CONFIG_PASSPHRASE to the ' +
      "correct passphrase or set PULUMI_CONFIG_PASSPHRASE_FILE to a file containing the passphrase",
  );
  expectNoSecret(run);
});

test("a resource that fails: which and why, with any secret the output held replaced", async () => {
  cli.reset({
    resources: [...RESOURCES, { type: "pulumi-nodejs:dynamic/runtask:RunTask", name: "audit" }],
    failures: [{ name: "audit", message: `token ${RUNTASK_TOKEN} refused (HTTP 401)` }],
  });
  const run = await example("up");
  expect(run.code).toBe(1);
  expect(run.stderr.trim()).toBe(
    'provision of stack "platform" failed: 1 resource failed\n  create RunTask audit: token [secret] refused (HTTP 401)',
  );
  expectNoSecret(run);
});

test("Ctrl-C stops the CLI cleanly and says so", async () => {
  cli.reset({ resources: RESOURCES, runMs: 20_000 });
  const run = await example("up", {}, true);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('provision of stack "platform" cancelled: the CLI was interrupted');
  expect(cli.lockHeld(backendUrl, "platform-run-tasks", "platform")).toBe(false);
});

test("destroy removes the resources and the stack", async () => {
  cli.reset({ resources: RESOURCES });
  const run = await example("destroy");
  expect(run.code).toBe(0);
  expect(cli.allStacks()).toEqual([]);
  expect(cli.callsOf("stack rm")).toHaveLength(1);
});
