import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { hostPlatform, platformName } from "../../plugin/executables/platform";
import { offlineEngineEnv } from "../../toolchain/pulumiEngine";
import { fencedBlocks, section } from "../support/markdownBlocks";
import type { ConsumerProject } from "../../toolchain/consumerProject";
import { repositoryRoot } from "../../toolchain/repository";
import { EmulatorCommand } from "../support/emulatorCommand";
import { EngineStack, opsByName, testEngine, type EngineRun } from "../support/engine/engineStack";
import { LanguageProject, mustRun } from "../support/engine/languageProject";
import { enginePathOnly, fromPluginCache, installPlugin, type PluginCache } from "../support/engine/pluginCache";
import { pluginArchives } from "../support/pluginArchives";
import { pythonVenv } from "../support/pythonVenv";

/**
 * The plugins as a user without Node.js installs them: the archives `npm run plugins` made, installed with
 * `pulumi plugin install resource <name> <version> --file <archive>` into a new PULUMI_HOME, found by the engine in
 * its plugin cache alone (PATH holds the CLI and its YAML host, nothing else; PULUMI_IGNORE_AMBIENT_PLUGINS), against
 * the emulator in a process of its own, as a service is: a YAML program of the three resources through a stack's life,
 * the Python SDK's example, and two versions installed side by side.
 */
jest.setTimeout(600_000);

const REPO = repositoryRoot();
const VERSION: string = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
/** A second version of runtask, built from the same sources, installed beside the first. */
const OTHER_VERSION = "0.2.0";

let archives: Record<string, string>;
let emulator: EmulatorCommand;
let path: { dir: string; remove(): void };
let cache: PluginCache;
/** The YAML stacks' folders, in a folder of no Node.js project: nothing there for the engine to find. */
let work: string;
let project: ConsumerProject;
const stacks: EngineStack[] = [];

beforeAll(async () => {
  archives = await pluginArchives();
  emulator = await EmulatorCommand.start(["--organization", "acme", "--workspace", "app", "--workspace", "web"]);
  path = enginePathOnly(testEngine());
  cache = { path: path.dir };
  work = mkdtempSync(join(tmpdir(), "installed-plugins-"));
  project = { dir: work, binDir: join(work, "no-executables"), remove: () => rmSync(work, { recursive: true, force: true }) };
});

afterAll(async () => {
  for (const s of stacks) s.remove();
  await emulator?.close();
  path?.remove();
  project?.remove();
});

function yamlStack(projectName: string): EngineStack {
  const stack = EngineStack.yaml({
    project,
    projectName,
    config: emulator.stackConfig(),
    secretKeys: ["runtask:token", "snapshot:token"],
    pluginCache: cache,
  });
  stacks.push(stack);
  return stack;
}

/** Installs `plugin` at `version` from `archive` into the stack's PULUMI_HOME, as a user does. */
async function install(env: NodeJS.ProcessEnv, plugin: string, version: string, archive: string): Promise<void> {
  const run = await installPlugin(env, plugin, version, { file: archive });
  expect({ code: run.code, output: run.output }).toEqual({
    code: 0,
    output: expect.stringContaining(`[resource plugin ${plugin}-${version}] installing`),
  });
}

/** The plugins installed in a PULUMI_HOME, by their folders. */
function installedIn(home: string): string[] {
  return readdirSync(join(home, "plugins"))
    .filter((f) => !/\.(lock|lastused|partial)$/.test(f))
    .sort();
}

/** The plugin folders of a PULUMI_HOME the engine started an executable from since `forgetUse` (its `.lastused` marks). */
function used(home: string): string[] {
  return readdirSync(join(home, "plugins"))
    .filter((f) => f.endsWith(".lastused"))
    .map((f) => f.slice(0, -".lastused".length))
    .sort();
}

function forgetUse(home: string): void {
  for (const f of readdirSync(join(home, "plugins")).filter((f) => f.endsWith(".lastused"))) rmSync(join(home, "plugins", f));
}

/** A failed command's output, for the test's message; and no warning from the engine about which plugin ran. */
function expectOk(run: EngineRun, changes: Record<string, number>): void {
  expect({ ok: run.ok, error: run.error, changes: run.changes }).toEqual({ ok: true, error: undefined, changes });
  expect(run.diagnostics.filter((d) => /plugin|version/i.test(d.message) && d.severity !== "debug")).toEqual([]);
}

/** What a failed runner printed last, for the test's message. */
function failureOf(run: { code: number; output: string }): string | undefined {
  return run.code === 0 ? undefined : run.output.slice(-3000);
}

const program = (description: string, options = "") => `resources:
  scanner:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/scan
      description: ${description}${options}
  scanner-on-app:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${emulator.workspaces.app}
      taskId: \${scanner.id}
      enforcementLevel: mandatory
  nightly:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      interval: 24h
      storageType: cloudC-gcs
      pathPrefix: nightly/
      cloudCGcsBucket: backups
`;

test("the PATH of these stacks holds the CLI and its YAML host alone: no Node.js", () => {
  expect(readdirSync(path.dir).sort()).toEqual(["pulumi", "pulumi-language-yaml"]);
  const stack = yamlStack("path-check");
  expect(stack.env.PATH).toBe(path.dir);
  expect(stack.env.PULUMI_IGNORE_AMBIENT_PLUGINS).toBe("true");
  const node = spawnSync("node", ["--version"], { env: stack.env });
  expect((node.error as NodeJS.ErrnoException | undefined)?.code).toBe("ENOENT");
});

test("the installation page's commands for a machine without Node.js: the archives checked against SHA256SUMS, then installed by their own names; an archive that differs stops them before anything is installed", async () => {
  const block = fencedBlocks(section(readFileSync(join(REPO, "docs/installation-configuration.md"), "utf8"), "## The provider plugins")).find((b) =>
    b.code.includes("sha256sum --check"),
  )!.code;
  // The commands as the page gives them, for this machine's platform; a shell and sha256sum, and no Node.js, on PATH.
  const commands = block.replaceAll("linux-amd64", platformName(hostPlatform()!));
  const tools = mkdtempSync(join(work, "tools-"));
  for (const tool of ["sh", "sha256sum"])
    symlinkSync(execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim(), join(tools, tool));
  const folder = (name: string) => {
    const dir = mkdtempSync(join(work, `${name}-`));
    for (const file of [...Object.values(archives), join(REPO, "dist/plugins/SHA256SUMS")]) copyFileSync(file, join(dir, basename(file)));
    return dir;
  };
  const runIn = (dir: string) => {
    const home = mkdtempSync(join(work, "home-"));
    const env = fromPluginCache(offlineEngineEnv(testEngine(), { home, backend: work, passphrase: "unused" }), { path: `${path.dir}:${tools}` });
    const run = spawnSync("sh", ["-e", "-c", commands], { cwd: dir, env, encoding: "utf8" });
    return { code: run.status, output: run.stdout + run.stderr, installed: existsSync(join(home, "plugins")) ? installedIn(home) : [] };
  };

  const checked = runIn(folder("release"));
  expect(checked.code).toBe(0);
  for (const archive of Object.values(archives)) expect(checked.output).toContain(`${basename(archive)}: OK`);
  expect(checked.installed).toEqual([`resource-runtask-v${VERSION}`, `resource-snapshot-v${VERSION}`]);

  // The snapshot archive under the runtask archive's name, as a mislabelled download would be.
  const mislabelled = folder("mislabelled");
  copyFileSync(archives.snapshot, join(mislabelled, basename(archives.runtask)));
  const refused = runIn(mislabelled);
  expect(refused.code).toBe(1);
  expect(refused.output).toContain(`${basename(archives.runtask)}: FAILED`);
  expect(refused.installed).toEqual([]);
});

test("a YAML program of the three resources, from the installed archives: preview, up, an up that writes nothing, an update, an import, destroy", async () => {
  const stack = yamlStack("executables-yaml");
  for (const plugin of ["runtask", "snapshot"]) await install(stack.env, plugin, VERSION, archives[plugin]);
  expect(installedIn(stack.home)).toEqual([`resource-runtask-v${VERSION}`, `resource-snapshot-v${VERSION}`]);
  stack.yamlProgram(program("first"));

  await emulator.resetRequests();
  const preview = await stack.preview();
  expectOk(preview, { create: 4 });
  expect(emulator.writes()).toEqual([]);

  const up = await stack.up();
  expectOk(up, { create: 4 });
  // The engine ran the executables it installed, those of this version.
  expect(used(stack.home)).toEqual([`resource-runtask-v${VERSION}`, `resource-snapshot-v${VERSION}`]);
  let held = await emulator.holdings();
  expect(held.tasks).toEqual([{ id: expect.stringMatching(/^task-/), name: "scanner", description: "first" }]);
  expect(held.workspaceTasks).toEqual({
    app: [{ id: expect.stringMatching(/^wstask-/), taskId: held.tasks[0].id, enforcementLevel: "mandatory" }],
    web: [],
  });
  expect(held.configs).toEqual(["nightly"]);
  await emulator.resetRequests();
  expectOk(await stack.up(), { same: 4 });
  expect(emulator.writes()).toEqual([]);

  stack.yamlProgram(program("second"));
  const update = await stack.up();
  expectOk(update, { same: 3, update: 1 });
  expect(opsByName(update)).toMatchObject({ scanner: "update" });
  expect(emulator.writes()).toEqual([{ method: "PATCH", path: `/api/v2/tasks/${held.tasks[0].id}`, status: "200" }]);
  expect((await emulator.holdings()).tasks.map((t) => t.description)).toEqual(["second"]);

  const legacy = await emulator.createTask("legacy", "https://hooks.example.com/legacy");
  await emulator.resetRequests();
  const imported = await stack.import({ type: "runtask:index:RunTask", name: "legacy", id: legacy }, { protect: false });
  expect({ ok: imported.ok, error: imported.error }).toEqual({ ok: true, error: undefined });
  expect(opsByName(imported)).toMatchObject({ legacy: "import" });
  expect(stack.state().resources.find((r) => r.urn.endsWith("::legacy"))).toMatchObject({
    id: legacy,
    outputs: expect.objectContaining({ name: "legacy" }),
  });
  // The program takes it in as the import's code says; the next up finds nothing to change.
  stack.yamlProgram(`${program("second")}  legacy:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/legacy
`);
  expectOk(await stack.up(), { same: 5 });
  expect(emulator.writes()).toEqual([]);

  const destroy = await stack.destroy();
  expectOk(destroy, { delete: 5 });
  held = await emulator.holdings();
  expect(held).toEqual({ tasks: [], workspaceTasks: { app: [], web: [] }, configs: [] });
});

test("two versions of a plugin installed side by side: a program gets the one it asks for", async () => {
  const other = (await pluginArchives(["--version", OTHER_VERSION, "--plugin", "runtask"])).runtask;
  const stack = yamlStack("side-by-side");
  await install(stack.env, "runtask", VERSION, archives.runtask);
  await install(stack.env, "runtask", OTHER_VERSION, other);
  const pinned = (version: string) => `resources:
  pinned:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/pinned
    options:
      version: ${version}
`;
  const upAt = async (version: string) => {
    forgetUse(stack.home);
    stack.yamlProgram(pinned(version));
    await emulator.resetRequests();
    const up = await stack.up();
    expect({ ok: up.ok, error: up.error }).toEqual({ ok: true, error: undefined });
    return up;
  };
  const providerOf = () => {
    const pinnedResource = stack.state().resources.find((r) => r.urn.endsWith("::pinned"))!;
    return stack.state().resources.find((r) => pinnedResource.provider?.startsWith(`${r.urn}::`))!.inputs?.version;
  };

  // A program asking for the first version gets it: its executable alone starts.
  const first = await upAt(VERSION);
  expect([opsByName(first).pinned, used(stack.home), providerOf()]).toEqual(["create", [`resource-runtask-v${VERSION}`], VERSION]);
  expect(emulator.writes().map((w) => w.method)).toEqual(["POST"]);

  // Asking for the other moves the resource to a provider of that version, which changes nothing at the service
  // (the state's provider of the first version is started too, to be let go).
  const moved = await upAt(OTHER_VERSION);
  expect([opsByName(moved).pinned, used(stack.home), providerOf()]).toEqual([
    "same",
    [`resource-runtask-v${VERSION}`, `resource-runtask-v${OTHER_VERSION}`],
    OTHER_VERSION,
  ]);
  expect(emulator.writes()).toEqual([]);

  // From then on, that version's executable alone serves the program.
  const again = await upAt(OTHER_VERSION);
  expect([opsByName(again).pinned, used(stack.home), providerOf()]).toEqual(["same", [`resource-runtask-v${OTHER_VERSION}`], OTHER_VERSION]);
  expect(emulator.writes()).toEqual([]);
  expectOk(await stack.destroy(), { delete: 2 });
  expect((await emulator.holdings()).tasks).toEqual([]);
});

test("the Python SDK's program (examples/python), with both versions installed: the SDK's own version serves it, up, an up that writes nothing, destroy", async () => {
  const venv = await pythonVenv();
  const clone = join(work, "pulumi-snapshot-runtask");
  cpSync(join(REPO, "plugin/sdks/python"), join(clone, "plugin/sdks/python"), { recursive: true });
  mkdirSync(join(clone, "examples/python"), { recursive: true });
  for (const file of ["Pulumi.yaml", "__main__.py", "inline.py"]) cpSync(join(REPO, "examples/python", file), join(clone, "examples/python", file));
  const sdks = ["runtask", "snapshot"].map((p) => join(clone, "plugin/sdks/python", p));
  await mustRun(venv.python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...sdks], { cwd: clone });

  const python = new LanguageProject(join(clone, "examples/python"), "run-tasks-python", cache);
  try {
    await install(python.env, "runtask", VERSION, archives.runtask);
    await install(python.env, "runtask", OTHER_VERSION, (await pluginArchives(["--version", OTHER_VERSION, "--plugin", "runtask"])).runtask);
    await install(python.env, "snapshot", VERSION, archives.snapshot);
    await python.initStack(
      "dev",
      {
        ...emulator.stackConfig(),
        scannerHmacKey: "python-hmac-key",
        "workspaces[0]": emulator.workspaces.app,
        "workspaces[1]": emulator.workspaces.web,
      },
      ["runtask:token", "snapshot:token", "scannerHmacKey"],
    );
    expect(existsSync(join(python.home, "plugins", `resource-runtask-v${OTHER_VERSION}`))).toBe(true);
    forgetUse(python.home);
    const inline = (command: string) => python.runner(venv.python, ["inline.py", command]);

    const up = await inline("up");
    expect({ code: up.code, changes: up.changes, failure: failureOf(up) }).toEqual({ code: 0, changes: { create: 5 }, failure: undefined });
    // The SDKs ask for their own version (pulumi-plugin.json), which is the package's.
    expect(used(python.home)).toEqual([`resource-runtask-v${VERSION}`, `resource-snapshot-v${VERSION}`]);
    const held = await emulator.holdings();
    expect([held.tasks.length, held.workspaceTasks.app.length, held.workspaceTasks.web.length, held.configs]).toEqual([1, 1, 1, ["daily"]]);

    await emulator.resetRequests();
    const again = await inline("up");
    expect({ code: again.code, changes: again.changes, failure: failureOf(again) }).toEqual({ code: 0, changes: { same: 5 }, failure: undefined });
    expect(emulator.writes()).toEqual([]);

    const destroy = await inline("destroy");
    expect({ code: destroy.code, changes: destroy.changes, failure: failureOf(destroy) }).toEqual({
      code: 0,
      changes: { delete: 5 },
      failure: undefined,
    });
    expect(await emulator.holdings()).toEqual({ tasks: [], workspaceTasks: { app: [], web: [] }, configs: [] });
  } finally {
    python.remove();
  }
});
