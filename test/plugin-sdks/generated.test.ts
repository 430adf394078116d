import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";
import { schemaText } from "../../plugin/schema/load";

/**
 * The SDKs of the provider plugins in plugin/sdks/ are what `npm run sdks` writes from the committed schemas, with
 * Pulumi's generators at the pinned version (toolchain/sdkgen): regenerated here and compared file by file. Their
 * versions are the package's, and their names the schemas'.
 */
const sdks: {
  SDKS: string;
  PLUGINS: string[];
  GO_MODULE: string;
  buildGenerator(): string;
  generate(out: string, generator?: string): string;
  pinned(module: string): string;
} = require("../../toolchain/sdks");

const REPO = repositoryRoot();
const VERSION: string = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
/** Files of plugin/sdks/ that no generator writes: the folder's README, and the Go module's go.mod and go.sum (`go mod tidy`). */
const NOT_GENERATED = ["README.md", "go/go.mod", "go/go.sum"];

/** The files of a folder, relative to it, but those git ignores in the repository (builds, installs). */
function filesOf(dir: string): string[] {
  if (dir.startsWith(REPO)) {
    const listed = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z", "--", relative(REPO, dir)], { cwd: REPO, encoding: "utf8" });
    return listed
      .split("\0")
      .filter((f) => f && existsSync(join(REPO, f)))
      .map((f) => relative(dir, join(REPO, f)))
      .sort();
  }
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((name) => (statSync(join(d, name)).isDirectory() ? walk(join(d, name)) : [relative(dir, join(d, name))]));
  return walk(dir).sort();
}

/** Where `actual` (the committed folder) differs from `expected` (what the generator wrote): missing, extra and changed files. */
function differences(expected: string, actual: string): string[] {
  const want = filesOf(expected);
  const have = filesOf(actual).filter((f) => !NOT_GENERATED.includes(f));
  return [
    ...want.filter((f) => !have.includes(f)).map((f) => `missing: ${f}`),
    ...have.filter((f) => !want.includes(f)).map((f) => `not generated: ${f}`),
    ...want.filter((f) => have.includes(f) && !readFileSync(join(expected, f)).equals(readFileSync(join(actual, f)))).map((f) => `differs: ${f}`),
  ];
}

let work: string;
let generated: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "plugin-sdks-"));
  generated = join(work, "generated");
  sdks.generate(generated);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

test("plugin/sdks/ is what `npm run sdks` writes from the schemas (run it after changing them)", () => {
  expect(differences(generated, sdks.SDKS)).toEqual([]);
});

test("the comparison catches a changed, a missing and an extra file (so that it checks something)", () => {
  const copy = join(work, "copy");
  for (const file of filesOf(sdks.SDKS)) cpSync(join(sdks.SDKS, file), join(copy, file));
  const changed = join(copy, "python/runtask/pulumi_snapshot_runtask_runtask/run_task.py");
  writeFileSync(changed, `${readFileSync(changed, "utf8")}# edited by hand\n`);
  rmSync(join(copy, "go/runtask/doc.go"));
  writeFileSync(join(copy, "nodejs/snapshot/extra.ts"), "export {};\n");
  expect(differences(generated, copy).sort()).toEqual([
    "differs: python/runtask/pulumi_snapshot_runtask_runtask/run_task.py",
    "missing: go/runtask/doc.go",
    "not generated: nodejs/snapshot/extra.ts",
  ]);
});

describe.each(sdks.PLUGINS)("%s", (plugin) => {
  const schema = JSON.parse(schemaText(plugin));
  const sdk = (path: string) => readFileSync(join(sdks.SDKS, path), "utf8");
  const python = schema.language.python.packageName;

  test("every SDK has the package's version (package.json), as the schema and the plugin do", () => {
    expect(schema.version).toBe(VERSION);
    // `server`: where the engine downloads the plugin a program asks for (the schema's pluginDownloadURL).
    const pluginJson = { resource: true, name: plugin, version: VERSION, server: schema.pluginDownloadURL };
    expect(schema.pluginDownloadURL).toMatch(/^github:\/\/api\.github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(sdk(`python/${plugin}/pyproject.toml`)).toMatch(new RegExp(`^  version = "${VERSION.replace(/\./g, "\\.")}"$`, "m"));
    expect(JSON.parse(sdk(`python/${plugin}/${python}/pulumi-plugin.json`))).toEqual(pluginJson);
    expect(JSON.parse(sdk(`go/${plugin}/pulumi-plugin.json`))).toEqual(pluginJson);
    // The version the Go SDK asks the engine for its plugin with.
    expect(sdk(`go/${plugin}/internal/pulumiUtilities.go`)).toContain(`version := semver.MustParse("${VERSION}")`);
    // And the server every resource and function of each SDK asks for its plugin from.
    expect(sdk(`go/${plugin}/internal/pulumiUtilities.go`)).toContain(`pulumi.PluginDownloadURL("${schema.pluginDownloadURL}")`);
    expect(sdk(`python/${plugin}/${python}/_utilities.py`)).toContain(`return "${schema.pluginDownloadURL}"`);
    expect(sdk(`nodejs/${plugin}/utilities.ts`)).toContain(`pluginDownloadURL: "${schema.pluginDownloadURL}"`);
    const nodePackage = JSON.parse(sdk(`nodejs/${plugin}/package.json`));
    expect([nodePackage.version, nodePackage.pulumi]).toEqual([VERSION, pluginJson]);
  });

  test("each SDK is named as the schema says, where a user finds it", () => {
    expect(sdk(`python/${plugin}/pyproject.toml`)).toContain(`name = "${python}"`);
    expect(existsSync(join(sdks.SDKS, "python", plugin, python, "__init__.py"))).toBe(true);
    expect(JSON.parse(sdk(`nodejs/${plugin}/package.json`)).name).toBe(schema.language.nodejs.packageName);
    expect(schema.language.go.importBasePath).toBe(`${sdks.GO_MODULE}/${plugin}`);
    expect(sdk(`go/${plugin}/doc.go`)).toMatch(new RegExp(`^package ${plugin}$`, "m"));
    // The Go SDK imports its own internal package under the module's path, which go.mod declares.
    expect(sdk(`go/${plugin}/provider.go`)).toContain(`"${sdks.GO_MODULE}/${plugin}/internal"`);
  });
});

test("the Go module of both SDKs requires the Go SDK of the pinned Pulumi version", () => {
  const goMod = readFileSync(join(sdks.SDKS, "go/go.mod"), "utf8");
  expect(goMod).toMatch(new RegExp(`^module ${sdks.GO_MODULE.replace(/[./]/g, "\\$&")}$`, "m"));
  expect(goMod).toContain(`\tgithub.com/pulumi/pulumi/sdk/v3 ${sdks.pinned("github.com/pulumi/pulumi/sdk/v3")}\n`);
  expect(dirname(JSON.parse(schemaText("runtask")).language.go.importBasePath)).toBe(sdks.GO_MODULE);
});
