import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { EXAMPLE_FILES, EXAMPLES_FOLDER, USAGE_EXAMPLES } from "../../plugin/schema/usageExamples";
import type { ConsumerProject } from "../../toolchain/consumerProject";
import { repositoryRoot } from "../../toolchain/repository";
import { emulatorStackConfig, RUNTASK_TOKEN } from "../support/emulatorStack";
import { engineProject } from "../support/engine/engineStack";
import { LanguageProject, mustRun } from "../support/engine/languageProject";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { fencedBlocks, otherLanguagesDoc, section, shellLines } from "../support/markdownBlocks";

/**
 * The Go SDKs of the provider plugins (plugin/sdks/go, one module of both packages) as a Go user meets them: the
 * module builds and vets as committed (its go.mod and go.sum complete); a module set up with docs/other-languages.md's
 * lines alone builds the program the docs show; and examples/go runs through the real engine against the emulator
 * by its own main (the Automation API, inline): up, an up that changes and sends nothing, refresh, destroy. Modules
 * come from the Go module proxy (go.sum checks them; the checksum database is not reachable from every network).
 */
jest.setTimeout(900_000);

const REPO = repositoryRoot();
const GO_MODULE = "github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask/plugin/sdks/go";
const HMAC_KEY = "go-example-hmac-key";
/** Builds as CI does: go.mod and go.sum as committed, no C toolchain needed. */
const GO_ENV = { ...process.env, GOSUMDB: "off", GOFLAGS: "-mod=readonly", CGO_ENABLED: "0" };

let emulator: Emulator;
let plugins: ConsumerProject;
let work: string;

beforeAll(async () => {
  plugins = engineProject();
  emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    runTask: { tokens: { [RUNTASK_TOKEN]: { owner: true } }, organizations: [{ name: "acme", workspaces: [{ name: "app" }, { name: "web" }] }] },
  });
  work = mkdtempSync(join(tmpdir(), "go-sdks-"));
});

afterAll(async () => {
  await emulator?.close();
  plugins?.remove();
  if (work) rmSync(work, { recursive: true, force: true });
});

test("the module of both SDKs builds and vets as committed", async () => {
  const dir = join(REPO, "plugin/sdks/go");
  await mustRun("go", ["build", "./..."], { cwd: dir, env: GO_ENV });
  await mustRun("go", ["vet", "./..."], { cwd: dir, env: GO_ENV });
});

test("a module set up with the docs' lines, beside a clone, builds the program the docs show", async () => {
  const doc = section(otherLanguagesDoc(), "## Go");
  const lines = shellLines(doc).filter((l) => l.startsWith("go "));
  expect(lines).toEqual([
    "go mod init example.com/my-stack",
    "go mod edit -replace github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask/plugin/sdks/go=../pulumi-snapshot-runtask/plugin/sdks/go",
    "go mod tidy",
  ]);
  // Go only reads the clone: the repository itself stands in for it.
  symlinkSync(REPO, join(work, "pulumi-snapshot-runtask"));
  const project = join(work, "my-stack");
  mkdirSync(project);
  const env = { ...GO_ENV, GOFLAGS: "" };
  for (const line of lines.slice(0, -1)) await mustRun("bash", ["-c", line], { cwd: project, env });
  const files = fencedBlocks(doc).filter((b) => b.language === "go");
  expect(files.map((b) => basename(b.meta)).sort()).toEqual(["main.go", "program.go"]);
  for (const file of files) writeFileSync(join(project, basename(file.meta)), file.code);
  await mustRun("bash", ["-c", lines[lines.length - 1]], { cwd: project, env });
  expect(readFileSync(join(project, "go.mod"), "utf8")).toContain(
    "github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask/plugin/sdks/go v0.0.0-00010101000000-000000000000",
  );
  await mustRun("go", ["build", "-o", join(work, "my-stack-program"), "."], { cwd: project, env: GO_ENV });
});

test("the Go example of each resource's schema description (its docstring's) builds against the module, each a main package", async () => {
  const module = join(work, "schema-examples");
  for (const example of Object.values(USAGE_EXAMPLES)) {
    mkdirSync(join(module, example.dir), { recursive: true });
    cpSync(join(REPO, EXAMPLES_FOLDER, example.dir, EXAMPLE_FILES.go), join(module, example.dir, "main.go"));
  }
  const env = { ...GO_ENV, GOFLAGS: "" };
  await mustRun("go", ["mod", "init", "example.com/schema-examples"], { cwd: module, env });
  await mustRun("go", ["mod", "edit", `-replace=${GO_MODULE}=${join(REPO, "plugin/sdks/go")}`], { cwd: module, env });
  await mustRun("go", ["mod", "tidy"], { cwd: module, env });
  // vet type-checks each program as a build does, without linking three binaries.
  await mustRun("go", ["vet", "./..."], { cwd: module, env: GO_ENV });
});

test("examples/go runs through the engine against the emulator: up, an up with no change and no write, refresh, destroy", async () => {
  const example = join(REPO, "examples/go");
  const program = join(work, "run-tasks-go");
  await mustRun("go", ["vet", "./..."], { cwd: example, env: GO_ENV });
  await mustRun("go", ["build", "-o", program, "."], { cwd: example, env: GO_ENV });
  // The stack's config is written beside Pulumi.yaml: in a folder of the test's own, not the repository's.
  const dir = join(work, "go-project");
  mkdirSync(dir);
  cpSync(join(example, "Pulumi.yaml"), join(dir, "Pulumi.yaml"));
  const workspaces = ["app", "web"].map((name) => emulator.runTask.workspace(name).id);
  const project = new LanguageProject(dir, "run-tasks-go", plugins);
  try {
    await project.initStack(
      "dev",
      { ...emulatorStackConfig(emulator), scannerHmacKey: HMAC_KEY, "workspaces[0]": workspaces[0], "workspaces[1]": workspaces[1] },
      ["runtask:token", "snapshot:token", "scannerHmacKey"],
    );
    const run = (command: string) => project.runner(program, [command]);

    const up = await run("up");
    expect({ code: up.code, changes: up.changes }).toEqual({ code: 0, changes: { create: 5 } });
    expect(up.outputs).toEqual({ scannerId: expect.stringMatching(/^task-/), dailyIntervalSeconds: 86400, lastDailySnapshot: "" });
    expect([emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length, emulator.snapshot.configs.size]).toEqual([1, 2, 1]);
    expect(
      emulator.runTask
        .workspaceTasks()
        .map((a) => a.workspaceId)
        .sort(),
    ).toEqual([...workspaces].sort());
    expectServiceMatchesState(emulator, project.stack("dev"));
    expect(project.state("dev").text).not.toContain(HMAC_KEY);

    emulator.requests.reset();
    const again = await run("up");
    expect({ code: again.code, changes: again.changes, outputs: again.outputs }).toEqual({ code: 0, changes: { same: 5 }, outputs: up.outputs });
    expect(emulator.requests.writes()).toBe(0);

    const refresh = await run("refresh");
    expect({ code: refresh.code, changes: refresh.changes }).toEqual({ code: 0, changes: { same: 5 } });
    expect(emulator.requests.writes()).toBe(0);

    const destroy = await run("destroy");
    expect({ code: destroy.code, changes: destroy.changes }).toEqual({ code: 0, changes: { delete: 5 } });
    expect([emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length, emulator.snapshot.configs.size]).toEqual([0, 0, 0]);
    expectServiceMatchesState(emulator, project.stack("dev"));
  } finally {
    project.remove();
  }
});
