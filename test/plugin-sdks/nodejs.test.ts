import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { EXAMPLE_FILES, EXAMPLES_FOLDER, USAGE_EXAMPLES } from "../../plugin/schema/usageExamples";
import { repositoryRoot } from "../../toolchain/repository";
import { mustRun, runCommand } from "../support/engine/languageProject";
import { fencedBlocks, otherLanguagesDoc, section, shellLines } from "../support/markdownBlocks";

/**
 * The Node.js SDKs of the provider plugins (plugin/sdks/nodejs) as a TypeScript user meets them: installed with the
 * docs' line into a new project (their dependencies from the npm registry), where each compiles itself; the program
 * the docs show on them compiles under the tsconfig of Pulumi's TypeScript template (and a wrong argument does not);
 * the compiled SDK loads, with the package's version.
 */
jest.setTimeout(600_000);

const REPO = repositoryRoot();
const VERSION: string = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
const HEADING = "## TypeScript: the dynamic resources or the plugins' SDK";
/** `pulumi new typescript`'s tsconfig: no skipLibCheck, no esModuleInterop. */
const TEMPLATE_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
};

let work: string;
let project: string;
const env = {
  ...process.env,
  // The SDKs compile themselves with Node 22's `node` (npm runs their postinstall with the `node` on PATH).
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`,
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "nodejs-sdks-"));
  // A clone's SDK folders, without whatever an install left in the repository's.
  cpSync(join(REPO, "plugin/sdks/nodejs"), join(work, "pulumi-snapshot-runtask/plugin/sdks/nodejs"), {
    recursive: true,
    filter: (from) => !/[/\\](node_modules|bin)$/.test(from),
  });
  project = join(work, "my-stack");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "my-stack", private: true }, null, 2)}\n`);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** tsc of the project (the TypeScript the SDKs brought) with these files: what it printed, and its exit code. */
async function compile(files: Record<string, string>) {
  for (const [name, code] of Object.entries(files)) writeFileSync(join(project, name), code);
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ ...TEMPLATE_TSCONFIG, files: Object.keys(files) }, null, 2));
  return runCommand(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", ".", "--noEmit"], { cwd: project, env });
}

test("the SDKs install with the docs' line and compile themselves", async () => {
  const lines = shellLines(section(otherLanguagesDoc(), HEADING));
  expect(lines[0]).toBe(`npm install ../pulumi-snapshot-runtask/pulumi-snapshot-runtask-${VERSION}.tgz @pulumi/pulumi`);
  const install = lines.find((l) => l.includes("plugin/sdks/nodejs"));
  expect(install).toBe(
    "npm install --install-links ../pulumi-snapshot-runtask/plugin/sdks/nodejs/runtask ../pulumi-snapshot-runtask/plugin/sdks/nodejs/snapshot",
  );
  await mustRun("bash", ["-c", install!], { cwd: project, env });
  const loaded = await mustRun(
    process.execPath,
    [
      "-e",
      `const r = require("pulumi-snapshot-runtask-runtask"), s = require("pulumi-snapshot-runtask-snapshot");
       console.log([typeof r.RunTask, typeof r.WorkspaceRunTask, typeof r.Provider, typeof r.getRunTaskOutput, typeof s.SnapshotAutoConfig,
         require("pulumi-snapshot-runtask-runtask/bin/utilities").getVersion()].join(" "))`,
    ],
    { cwd: project, env },
  );
  expect(loaded.trim()).toBe(`function function function function function ${VERSION}`);
});

test("the docs' program on them compiles under the tsconfig of Pulumi's TypeScript template, and a wrong argument does not", async () => {
  const [program] = fencedBlocks(section(otherLanguagesDoc(), HEADING)).filter((b) => b.language === "ts" && b.meta === "generated-sdk");
  expect(program.code).toContain('from "pulumi-snapshot-runtask-runtask"');
  // One compile of both: the wrong program's error, alone, shows that the check checks something.
  const run = await compile({
    "index.ts": program.code,
    "wrong.ts": 'import * as runtask from "pulumi-snapshot-runtask-runtask";\nnew runtask.RunTask("scanner", { url: 42 });\n',
  });
  expect(run.output.trim().split("\n")).toEqual(["wrong.ts(2,34): error TS2322: Type 'number' is not assignable to type 'Input<string>'."]);
});

test("the TypeScript example of each resource's schema description (its docstring's) compiles against the SDKs", async () => {
  const files = Object.fromEntries(
    Object.values(USAGE_EXAMPLES).map((e) => [`${e.dir}.ts`, readFileSync(join(REPO, EXAMPLES_FOLDER, e.dir, EXAMPLE_FILES.typescript), "utf8")]),
  );
  expect(Object.keys(files)).toHaveLength(3);
  const run = await compile(files);
  expect({ code: run.code, output: run.output.trim() }).toEqual({ code: 0, output: "" });
});
