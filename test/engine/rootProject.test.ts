import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN, startEmulator, type Emulator } from "../../emulator";
import { offlineEngineEnv } from "../../toolchain/pulumiEngine";
import { repositoryRoot } from "../../toolchain/repository";
import { testEngine } from "../support/engine/engineStack";
import { runCommand } from "../support/engine/languageProject";
import { section, shellLines } from "../support/markdownBlocks";

/**
 * The repository's own Pulumi project (Pulumi.yaml at the root), run as the README says, through the Pulumi CLI at the
 * repository root: the provider plugins are those of this working tree (plugins.providers: plugin/dev/, running
 * dist/), found there alone (a fresh PULUMI_HOME, no plugin on PATH, PULUMI_IGNORE_AMBIENT_PLUGINS=true); the dev
 * stack's config as committed, but for the emulator's port (the test's emulator takes a free one); the tokens from
 * the environment the emulator prints. Preview, up, an up that changes and sends nothing, destroy; the repository as
 * it was after (the committed stack config put back: the first `stack select --create` adds the passphrase's salt to
 * it, as it does for every user).
 */
jest.setTimeout(300_000);

const REPO = repositoryRoot();
const yaml: { load(text: string): any } = require("js-yaml");
const README = readFileSync(join(REPO, "README.md"), "utf8");
const HEADING = "### `pulumi up` at the repository root";
const STACK_CONFIG = readFileSync(join(REPO, "Pulumi.dev.yaml"), "utf8");

let emulator: Emulator;
let work: string;
let env: NodeJS.ProcessEnv;
let configFile: string;

beforeAll(async () => {
  const engine = testEngine();
  emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  work = mkdtempSync(join(tmpdir(), "root-project-"));
  mkdirSync(join(work, "home"));
  mkdirSync(join(work, "backend"));
  const base = offlineEngineEnv(engine, { home: join(work, "home"), backend: join(work, "backend"), passphrase: "root-project" });
  // The CLI's folder and Node's on PATH, no plugin: nothing else could serve them.
  env = {
    ...base,
    PATH: [...engine.path, "/usr/bin", "/bin"].join(":"),
    PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
    SERVICE_TOKEN: DEFAULT_SNAPSHOT_TOKEN,
    RUNTASK_TOKEN: DEFAULT_RUNTASK_TOKEN,
  };
  delete env.SERVICE_ADDR;
  delete env.RUNTASK_ADDR;
  configFile = join(work, "Pulumi.dev.yaml");
  writeFileSync(configFile, STACK_CONFIG.replace(/http:\/\/127\.0\.0\.1:\d+/g, emulator.url));
});

afterAll(async () => {
  // The first `stack select --create` writes the passphrase's salt into the stack's config file, as it does for
  // every user: the committed file is put back.
  writeFileSync(join(REPO, "Pulumi.dev.yaml"), STACK_CONFIG);
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const pulumi = (args: string[]) => runCommand("pulumi", [...args, "--non-interactive"], { cwd: REPO, env });
const stackArgs = ["--stack", "dev", "--config-file"];

test("the README starts the emulator where the dev stack's config looks, with the tokens the emulator prints", () => {
  const lines = shellLines(section(README, HEADING));
  const config = yaml.load(STACK_CONFIG).config;
  const addresses = [config["snapshot:address"], config["runtask:address"]];
  expect(new Set(addresses).size).toBe(1);
  const port = /^http:\/\/127\.0\.0\.1:(\d+)$/.exec(addresses[0])![1];
  expect(lines).toContain(`npm run emulator -- --port ${port}`);
  expect(lines).toContain(`export SERVICE_TOKEN=${DEFAULT_SNAPSHOT_TOKEN} RUNTASK_TOKEN=${DEFAULT_RUNTASK_TOKEN}`);
  expect(lines).toContain("pulumi stack select --create dev");
  expect(lines).toContain("pulumi up");
  // The workspace the program attaches its task to is one the emulator holds unless told otherwise.
  expect(config["pulumi-snapshot-runtask-dev:workspaceId"]).toBe(emulator.runTask.workspace("app-production").id);
  expect(config["runtask:organization"]).toBe("emulator-org");
});

test("pulumi at the repository root: preview, up, an up with no change and no write, destroy, through the working tree's plugins", async () => {
  const before = gitStatus();
  const select = await pulumi(["stack", "select", "--create", "dev"]);
  expect({ code: select.code, output: select.output }).toEqual({ code: 0, output: expect.any(String) });
  // All it adds to the committed config is the salt of the stack's passphrase.
  expect(readFileSync(join(REPO, "Pulumi.dev.yaml"), "utf8")).toMatch(new RegExp(`^${escapeRegExp(STACK_CONFIG)}encryptionsalt: v1:\\S+\n$`));

  const preview = await pulumi(["preview", ...stackArgs, configFile]);
  expect({ code: preview.code, output: preview.output }).toEqual({ code: 0, output: expect.stringMatching(/\+ 4 to create/) });
  expect(emulator.requests.writes()).toBe(0);

  const up = await pulumi(["up", "--yes", "--skip-preview", ...stackArgs, configFile]);
  expect({ code: up.code, output: up.output }).toEqual({ code: 0, output: expect.stringMatching(/\+ 4 created/) });
  expect([emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length, emulator.snapshot.configs.size]).toEqual([1, 1, 1]);
  expect(emulator.runTask.workspaceTasks()[0].workspaceId).toBe(emulator.runTask.workspace("app-production").id);
  expect([...emulator.snapshot.configs.keys()]).toEqual(["frequent"]);

  // No plugin was installed or downloaded: the project's were the only ones the engine could run.
  const plugins = await pulumi(["plugin", "ls"]);
  expect({ code: plugins.code, listed: /\b(runtask|snapshot)\b/.test(plugins.output) }).toEqual({ code: 0, listed: false });

  emulator.requests.reset();
  const again = await pulumi(["up", "--yes", "--skip-preview", ...stackArgs, configFile]);
  expect({ code: again.code, output: again.output }).toEqual({ code: 0, output: expect.stringMatching(/4 unchanged/) });
  expect(emulator.requests.writes()).toBe(0);

  const destroy = await pulumi(["destroy", "--yes", "--skip-preview", ...stackArgs, configFile]);
  expect({ code: destroy.code, output: destroy.output }).toEqual({ code: 0, output: expect.stringMatching(/- 4 deleted/) });
  expect([emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length, emulator.snapshot.configs.size]).toEqual([0, 0, 0]);

  // `stack rm` deletes the stack's config file unless told to keep it.
  const removed = await pulumi(["stack", "rm", "dev", "--yes", "--preserve-config"]);
  expect(removed.code).toBe(0);
  writeFileSync(join(REPO, "Pulumi.dev.yaml"), STACK_CONFIG);
  expect(gitStatus()).toBe(before);
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What git says of the project's files (only those: a whole tree's status can be megabytes). */
function gitStatus(): string {
  return execFileSync("git", ["status", "--porcelain", "--", "Pulumi.yaml", "Pulumi.dev.yaml", "plugin/dev"], { cwd: REPO, encoding: "utf8" });
}
