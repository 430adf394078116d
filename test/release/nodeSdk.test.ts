import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { schemaText } from "../../plugin/schema/load";
import { repositoryRoot } from "../../toolchain/repository";
import { mustRun } from "../support/engine/languageProject";

/**
 * The Node.js SDK as the release publishes it (scripts/release/nodeSdk.js): compiled, with its declarations, and a
 * package.json with no script (nothing for npm to run, or to list, on install) and no compiler among its
 * dependencies. Installed from the packed tarball into a new project, with @pulumi/pulumi from the npm registry, it
 * loads, reports its version, names its plugin's download server, and a program on it compiles under the tsconfig of
 * Pulumi's TypeScript template.
 */
jest.setTimeout(600_000);

const REPO = repositoryRoot();
const schema = JSON.parse(schemaText("runtask"));
const env = {
  ...process.env,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`,
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

let work: string;
let tarball: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "node-sdk-release-"));
  const printed = await mustRun(
    process.execPath,
    [join(REPO, "scripts/release/nodeSdk.js"), join(REPO, "plugin/sdks/nodejs/runtask"), join(work, "out")],
    {
      cwd: REPO,
      env,
    },
  );
  tarball = printed.trim().split("\n").pop()!;
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

test("the tarball: compiled JavaScript and declarations at its root, a package.json with nothing to run on install", () => {
  expect(tarball).toBe(join(work, "out", `${schema.language.nodejs.packageName}-${schema.version}.tgz`));
  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean);
  for (const file of [
    "package/package.json",
    "package/README.md",
    "package/index.js",
    "package/index.d.ts",
    "package/runTask.js",
    "package/runTask.d.ts",
  ])
    expect(files).toContain(file);
  expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
  expect(files.filter((f) => f.includes("node_modules") || f.startsWith("package/scripts/"))).toEqual([]);
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
  expect(manifest).toMatchObject({ name: schema.language.nodejs.packageName, version: schema.version, main: "index.js", types: "index.d.ts" });
  expect(manifest.scripts).toBeUndefined();
  expect(Object.keys(manifest.dependencies)).toEqual(["@pulumi/pulumi"]);
  expect(manifest.pulumi).toEqual({ resource: true, name: "runtask", version: schema.version, server: schema.pluginDownloadURL });
});

test("installed from the tarball: it loads with its version and download server, and a program on it compiles", async () => {
  const project = join(work, "my-stack");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "my-stack", private: true }));
  await mustRun("npm", ["install", tarball, "typescript@~5.9.0", "@types/node@22"], { cwd: project, env });
  const loaded = await mustRun(
    process.execPath,
    [
      "-e",
      `const sdk = require("${schema.language.nodejs.packageName}"), u = require("${schema.language.nodejs.packageName}/utilities");
       console.log(JSON.stringify([typeof sdk.RunTask, typeof sdk.getRunTaskOutput, u.getVersion(), u.resourceOptsDefaults()]))`,
    ],
    { cwd: project, env },
  );
  expect(JSON.parse(loaded.trim())).toEqual([
    "function",
    "function",
    schema.version,
    { version: schema.version, pluginDownloadURL: schema.pluginDownloadURL },
  ]);
  writeFileSync(join(project, "index.ts"), readFileSync(join(REPO, "plugin/schema/examples/workspaceRunTask/index.ts"), "utf8"));
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "es2020", module: "commonjs", moduleResolution: "node", noEmit: true },
      files: ["index.ts"],
    }),
  );
  await mustRun(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", "."], { cwd: project, env });
});
