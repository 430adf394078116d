import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { EXAMPLE_FILES, EXAMPLES_FOLDER, USAGE_EXAMPLES } from "../../plugin/schema/usageExamples";
import type { ConsumerProject } from "../../toolchain/consumerProject";
import { repositoryRoot } from "../../toolchain/repository";
import { emulatorStackConfig, RUNTASK_TOKEN } from "../support/emulatorStack";
import { engineProject } from "../support/engine/engineStack";
import { LanguageProject, mustRun } from "../support/engine/languageProject";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { otherLanguagesDoc, section, shellLines } from "../support/markdownBlocks";
import { pythonVenv, type PythonVenv } from "../support/pythonVenv";

/**
 * The Python SDKs of the provider plugins (plugin/sdks/python) as a Python user meets them: each builds a wheel and
 * a source distribution; they install with the line docs/other-languages.md gives, into a virtual environment with
 * `pulumi` from PyPI; they pass a unit test under Pulumi's mocks (test/plugin-sdks/python); and examples/python, the
 * program the docs show, runs through the real engine against the emulator with its own runner (inline.py, the
 * Automation API): up, an up that changes and sends nothing, refresh, destroy. Everything runs on copies: builds and
 * installs write into the SDK's folder, and a stack's config into the project's.
 */
jest.setTimeout(600_000);

const REPO = repositoryRoot();
const VERSION: string = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
const PLUGINS = ["runtask", "snapshot"];
const HMAC_KEY = "python-example-hmac-key";
/** The version of `pulumi` the test venv pins. */
const PYTHON_PULUMI = /^pulumi==(\S+)$/m.exec(readFileSync(join(REPO, "test/plugin-sdks/python/requirements.txt"), "utf8"))![1];

let venv: PythonVenv;
let emulator: Emulator;
let plugins: ConsumerProject;
let work: string;
/** A clone's files that the docs' lines and the example name (`../pulumi-snapshot-runtask/plugin/sdks/...`). */
let clone: string;

beforeAll(async () => {
  // Each a few seconds once cached: the venv (PyPI), the packed package whose executables are the plugins.
  venv = await pythonVenv();
  plugins = engineProject();
  emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    runTask: { tokens: { [RUNTASK_TOKEN]: { owner: true } }, organizations: [{ name: "acme", workspaces: [{ name: "app" }, { name: "web" }] }] },
  });
  work = mkdtempSync(join(tmpdir(), "python-sdks-"));
  clone = join(work, "pulumi-snapshot-runtask");
  cpSync(join(REPO, "plugin/sdks/python"), join(clone, "plugin/sdks/python"), { recursive: true });
  for (const file of ["Pulumi.yaml", "__main__.py", "inline.py", "requirements.txt"]) {
    cpSync(join(REPO, "examples/python", file), join(clone, "examples/python", file));
  }
});

afterAll(async () => {
  await emulator?.close();
  plugins?.remove();
  if (work) rmSync(work, { recursive: true, force: true });
});

test("each SDK builds a wheel and a source distribution of the package's version, with its plugin's version file", async () => {
  for (const plugin of PLUGINS) {
    const out = join(work, "dist", plugin);
    await mustRun(venv.python, ["-m", "build", "--no-isolation", "--outdir", out, join(clone, "plugin/sdks/python", plugin)], { cwd: work });
    const name = `pulumi_snapshot_runtask_${plugin}`;
    expect(readdirSync(out).sort()).toEqual([`${name}-${VERSION}-py3-none-any.whl`, `${name}-${VERSION}.tar.gz`]);
    const wheel = await mustRun(venv.python, ["-m", "zipfile", "-l", join(out, `${name}-${VERSION}-py3-none-any.whl`)], { cwd: work });
    for (const file of ["__init__.py", "pulumi-plugin.json", "py.typed"]) expect(wheel).toContain(`${name}/${file}`);
    const sdist = await mustRun("tar", ["tzf", join(out, `${name}-${VERSION}.tar.gz`)], { cwd: work });
    expect(sdist).toContain(`${name}-${VERSION}/README.md`);
  }
});

test("they install with the docs' line, beside a clone, into a virtual environment with pulumi from PyPI", async () => {
  const lines = shellLines(section(otherLanguagesDoc(), "## Python"));
  const install = lines.find((l) => /\bpip install /.test(l));
  expect(install).toBe(
    "venv/bin/pip install ../pulumi-snapshot-runtask/plugin/sdks/python/runtask ../pulumi-snapshot-runtask/plugin/sdks/python/snapshot",
  );
  expect(lines).toContain(`npm install ../pulumi-snapshot-runtask/pulumi-snapshot-runtask-${VERSION}.tgz`);
  const project = join(work, "my-stack");
  mkdirSync(project);
  const modules = PLUGINS.map((p) => `pulumi_snapshot_runtask_${p}`);
  // Whatever an earlier run left in the cached venv goes first, so that this line is what installs them.
  await mustRun(venv.python, ["-m", "pip", "uninstall", "--yes", "--quiet", ...modules], { cwd: project });
  const args = install!.split(/\s+/).slice(install!.split(/\s+/).indexOf("install") + 1);
  await mustRun(venv.python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...args], { cwd: project });
  const versions = await mustRun(
    venv.python,
    ["-c", `import importlib.metadata as m; print(" ".join(m.version(p) for p in ${JSON.stringify([...modules, "pulumi"])}))`],
    { cwd: project },
  );
  expect(versions.trim()).toBe(`${VERSION} ${VERSION} ${PYTHON_PULUMI}`);
});

test("under Pulumi's mocks, programs reach the engine with the schemas' tokens, names and secrets", async () => {
  const run = await mustRun(venv.python, ["-m", "unittest", "discover", "-v", "-s", join(REPO, "test/plugin-sdks/python")], { cwd: work });
  expect(run).toMatch(/^Ran [4-9] tests/m);
  expect(run).toMatch(/^OK$/m);
});

test("the Python example of each resource's schema description (its docstring's) runs under Pulumi's mocks, registering what it shows", async () => {
  for (const [token, example] of Object.entries(USAGE_EXAMPLES)) {
    const program = join(REPO, EXAMPLES_FOLDER, example.dir, EXAMPLE_FILES.python);
    const run = await mustRun(venv.python, [join(REPO, "test/plugin-sdks/python/run_with_mocks.py"), program, "scannerHmacKey=example-key"], {
      cwd: work,
    });
    const registered: { type: string; name: string }[] = JSON.parse(run.trim().split("\n").pop()!);
    expect([token, registered.some((r) => r.type === token)]).toEqual([token, true]);
  }
  // A wrong keyword fails the run: the check checks something.
  const wrong = join(work, "wrong.py");
  writeFileSync(wrong, "import pulumi_snapshot_runtask_runtask as runtask\nruntask.RunTask('scanner', urll='https://hooks.example.com/scan')\n");
  await expect(mustRun(venv.python, [join(REPO, "test/plugin-sdks/python/run_with_mocks.py"), wrong], { cwd: work })).rejects.toThrow(
    /unexpected keyword argument 'urll'/,
  );
});

test("examples/python runs through the engine against the emulator: up, an up with no change and no write, refresh, destroy", async () => {
  const workspaces = ["app", "web"].map((name) => emulator.runTask.workspace(name).id);
  const project = new LanguageProject(join(clone, "examples/python"), "run-tasks-python", plugins);
  try {
    await project.initStack(
      "dev",
      { ...emulatorStackConfig(emulator), scannerHmacKey: HMAC_KEY, "workspaces[0]": workspaces[0], "workspaces[1]": workspaces[1] },
      ["runtask:token", "snapshot:token", "scannerHmacKey"],
    );
    const inline = (command: string) => project.runner(venv.python, ["inline.py", command]);

    const up = await inline("up");
    expect({ code: up.code, changes: up.changes }).toEqual({ code: 0, changes: { create: 5 } });
    expect(up.outputs).toEqual({ scanner_id: expect.stringMatching(/^task-/), daily_interval_seconds: 86400, last_daily_snapshot: "" });
    expect([emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length, emulator.snapshot.configs.size]).toEqual([1, 2, 1]);
    expect(
      emulator.runTask
        .workspaceTasks()
        .map((a) => a.workspaceId)
        .sort(),
    ).toEqual([...workspaces].sort());
    expectServiceMatchesState(emulator, project.stack("dev"));
    // The key went to the service, and into the state only encrypted.
    expect(project.state("dev").text).not.toContain(HMAC_KEY);

    emulator.requests.reset();
    const again = await inline("up");
    expect({ code: again.code, changes: again.changes, outputs: again.outputs }).toEqual({ code: 0, changes: { same: 5 }, outputs: up.outputs });
    expect(emulator.requests.writes()).toBe(0);

    const refresh = await inline("refresh");
    expect({ code: refresh.code, changes: refresh.changes }).toEqual({ code: 0, changes: { same: 5 } });
    expect(emulator.requests.writes()).toBe(0);

    const destroy = await inline("destroy");
    expect({ code: destroy.code, changes: destroy.changes }).toEqual({ code: 0, changes: { delete: 5 } });
    expect([emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length, emulator.snapshot.configs.size]).toEqual([0, 0, 0]);
    expectServiceMatchesState(emulator, project.stack("dev"));
  } finally {
    project.remove();
  }
});
