import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { schemaText } from "../../plugin/schema/load";
import { fencedBlocks, otherLanguagesDoc, section } from "../support/markdownBlocks";

/**
 * docs/other-languages.md shows the examples' files as they are (a block whose info string names a file is that
 * file; test/plugin-sdks/ runs them and the install lines), and the reference's table of names per language is what
 * the generated Python and Go SDKs call each property and function.
 */
const REPO = resolve(__dirname, "../..");
const DOC = otherLanguagesDoc();
const REFERENCE = readFileSync(join(REPO, "docs/reference.md"), "utf8");
const SDKS = join(REPO, "plugin/sdks");

describe("docs/other-languages.md", () => {
  const shown = fencedBlocks(DOC).filter((b) => /^[\w./-]+\.(py|go|yaml)$/.test(b.meta));

  test("shows the Python and Go examples' files, each as it is", () => {
    expect(shown.map((b) => b.meta).sort()).toEqual(
      [
        "examples/go/Pulumi.yaml",
        "examples/go/main.go",
        "examples/go/program.go",
        "examples/python/Pulumi.yaml",
        "examples/python/__main__.py",
        "examples/python/inline.py",
      ].sort(),
    );
    for (const block of shown)
      expect({ file: block.meta, code: block.code }).toEqual({ file: block.meta, code: readFileSync(join(REPO, block.meta), "utf8") });
  });

  test("has a section per language with its install lines and a program", () => {
    for (const heading of ["## Python", "## Go", "## TypeScript: the dynamic resources or the plugins' SDK"]) {
      const blocks = fencedBlocks(section(DOC, heading));
      expect([heading, blocks.some((b) => b.language === "sh" && /\b(pip|go mod|npm) /.test(b.code))]).toEqual([heading, true]);
      expect([heading, blocks.some((b) => ["python", "go", "ts"].includes(b.language))]).toEqual([heading, true]);
    }
    expect(section(DOC, "## .NET and Java")).toMatch(/pulumi-dotnet[\s\S]*pulumi-java/);
  });

  test("its contents list every section, in order", () => {
    const sections = [...DOC.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^## (.+)$/gm)].map((m) => m[1]).filter((h) => h !== "Contents");
    const listed = [...section(DOC, "## Contents").matchAll(/^- \[(.+)\]\(#[^)]+\)$/gm)].map((m) => m[1]);
    expect(listed).toEqual(sections);
  });
});

/** Wire name -> Python name, from the getters of a generated Python module (`@pulumi.getter(name="hmacKey") def hmac_key`). */
function pythonNames(file: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of readFileSync(file, "utf8").matchAll(/@pulumi\.getter(?:\(name="(\w+)"\))?\n(?:\s+@.*\n)*\s+def (\w+)\(/g))
    names.set(m[1] ?? m[2], m[2]);
  return names;
}

/** Wire name -> Go field name, from the struct tags of a generated Go file (`HmacKey *string `pulumi:"hmacKey"``). */
function goNames(file: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of readFileSync(file, "utf8").matchAll(/^\t(\w+) \S+ `pulumi:"(\w+)"`/gm)) names.set(m[2], m[1]);
  return names;
}

test("the other Python blocks (README, other-languages.md) call the SDKs with arguments they take", () => {
  const blocks = [readFileSync(join(REPO, "README.md"), "utf8"), DOC]
    .flatMap((page) => fencedBlocks(page))
    .filter((b) => b.language === "python" && !b.meta);
  expect(blocks.length).toBeGreaterThanOrEqual(2);
  const calls = blocks.flatMap((b) => [...b.code.matchAll(/\b(runtask|snapshot)\.(\w+)\(([^\n]*)\)/g)]);
  expect(calls.length).toBeGreaterThanOrEqual(3);
  for (const [, plugin, member, args] of calls) {
    // RunTask -> run_task.py, get_run_task_output -> get_run_task.py
    const module = member
      .replace(/_output$/, "")
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .toLowerCase();
    const source = readFileSync(join(SDKS, "python", plugin, `pulumi_snapshot_runtask_${plugin}`, `${module}.py`), "utf8");
    let topLevel = args;
    while (/\([^()]*\)/.test(topLevel)) topLevel = topLevel.replace(/\([^()]*\)/g, "");
    for (const [, keyword] of topLevel.matchAll(/(?:^|[(,\s])(\w+)=/g)) {
      if (keyword !== "opts") expect([member, keyword, new RegExp(`\\b${keyword}: `).test(source)]).toEqual([member, keyword, true]);
    }
  }
});

describe("the reference's names in each language", () => {
  const table = section(REFERENCE, "## Names in each language");
  const rows = [...table.matchAll(/^\| (.+) \|$/gm)].map((m) => m[1].split(" | "));

  test.each([
    ["snapshot", "SnapshotAutoConfig", "snapshot_auto_config.py", "snapshotAutoConfig.go"],
    ["runtask", "RunTask", "run_task.py", "runTask.go"],
    ["runtask", "WorkspaceRunTask", "workspace_run_task.py", "workspaceRunTask.go"],
  ])("%s %s: every property, as the generated SDKs spell it", (plugin, resource, pyFile, goFile) => {
    const spec = JSON.parse(schemaText(plugin)).resources[`${plugin}:index:${resource}`];
    const python = pythonNames(join(SDKS, "python", plugin, `pulumi_snapshot_runtask_${plugin}`, pyFile));
    const go = goNames(join(SDKS, "go", plugin, goFile));
    const start = rows.findIndex((r) => r[0] === `**\`${resource}\`** (\`${plugin}:index:${resource}\`)`);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(rows[start].slice(1)).toEqual([
      `\`${plugin}.${resource}(name, ...)\``,
      `\`${plugin}.New${resource}(ctx, name, &${plugin}.${resource}Args{...})\``,
    ]);
    const listed = rows.slice(
      start + 1,
      rows.findIndex((r, i) => i > start && r[0].startsWith("**")),
    );
    const properties = [...new Set([...Object.keys(spec.inputProperties), ...Object.keys(spec.properties)])];
    expect(listed).toEqual(properties.map((p) => [`\`${p}\``, `\`${python.get(p)}\``, `\`${go.get(p)}\``]));
  });

  test("every function, as the generated SDKs name it and its output form", () => {
    const functions = rows.filter((r) => /^`\w+`, `\w+Output` \(`\w+:index:\w+`\)$/.test(r[0]));
    const tokens = ["snapshot", "runtask"].flatMap((p) => Object.keys(JSON.parse(schemaText(p)).functions));
    expect(functions.map((r) => /\(`(.+)`\)/.exec(r[0])![1]).sort()).toEqual(tokens.sort());
    for (const [, python, go] of functions) {
      const [pyPlugin, pyName] = /^`(\w+)\.(\w+)`/.exec(python)!.slice(1);
      expect(python).toBe(`\`${pyPlugin}.${pyName}\`, \`${pyPlugin}.${pyName}_output\``);
      expect(existsSync(join(SDKS, "python", pyPlugin, `pulumi_snapshot_runtask_${pyPlugin}`, `${pyName}.py`))).toBe(true);
      const [goPlugin, goName] = /^`(\w+)\.(\w+)`/.exec(go)!.slice(1);
      expect(go).toBe(`\`${goPlugin}.${goName}\`, \`${goPlugin}.${goName}Output\``);
      const goSources = ["get", "list"].map((prefix) => join(SDKS, "go", goPlugin, `${prefix}${goName.replace(/^(Lookup|Get|List)/, "")}.go`));
      const source = goSources
        .filter(existsSync)
        .map((f) => readFileSync(f, "utf8"))
        .join("\n");
      expect(source).toContain(`func ${goName}(ctx *pulumi.Context`);
      expect(source).toContain(`func ${goName}Output(ctx *pulumi.Context`);
    }
  });
});
