import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";

const REPO = join(__dirname, "../..");

/** What Pulumi's generators write (plugin/sdks/), and what is installed: not the project's own sources. */
const NOT_OURS = new Set([join(REPO, "plugin/sdks")]);

/** Every `.ts` source under `dir` (declaration files and generated code aside). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (NOT_OURS.has(path) || name === "node_modules") return [];
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The modules of these sources a file imports, re-exports or requires by a relative path, type imports included. */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|(?:require|import)\(["'](\.[^"']+)["']\)/g)].map(
    (m) => m[1] ?? m[2],
  );
  return specifiers.flatMap((specifier) => {
    const base = resolve(dirname(file), specifier);
    const target = [`${base}.ts`, join(base, "index.ts")].find((candidate) => known.has(candidate));
    return target ? [target] : [];
  });
}

/** One cycle of imports among `files`, as the path around it, or undefined when there is none. */
function cycleAmong(files: string[]): string[] | undefined {
  const known = new Set(files);
  const edges = new Map(files.map((f) => [f, importsOf(f, known)]));
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === "done") return undefined;
    if (state.get(file) === "open") return [...path.slice(path.indexOf(file)), file];
    state.set(file, "open");
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, "done");
    return undefined;
  };
  for (const file of files) {
    const cycle = visit(file);
    if (cycle) return cycle.map((f) => relative(REPO, f));
  }
  return undefined;
}

test("no module imports itself through others, type imports included", () => {
  const files = ["provider", "plugin", "sdk", "automation", "demo", "toolchain", "migrate"].flatMap((dir) => sources(join(REPO, dir)));
  expect(files.length).toBeGreaterThan(100);
  expect(cycleAmong(files)).toBeUndefined();
});

test("a cycle of type imports is found as any other", () => {
  const dir = mkdtempSync(join(tmpdir(), "cycle-"));
  try {
    const [a, b, c] = ["a.ts", "b.ts", "c.ts"].map((name) => join(dir, name));
    writeFileSync(a, 'import { b } from "./b";\nexport const a = b;\n');
    writeFileSync(b, 'import type { C } from "./c";\nexport const b: C = 1;\n');
    writeFileSync(c, "export type C = number;\n");
    expect(cycleAmong([a, b, c])).toBeUndefined();
    writeFileSync(c, 'import type { a } from "./a";\nexport type C = typeof a;\n');
    expect(cycleAmong([a, b, c])?.map((f) => f.split("/").pop())).toEqual(["a.ts", "b.ts", "c.ts", "a.ts"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("no value is cast through unknown in provider/ or sdk/", () => {
  const casts = ["provider", "sdk"]
    .flatMap((dir) => sources(join(REPO, dir)))
    .flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (/\bas unknown as\b/.test(line) ? [`${relative(REPO, file)}:${i + 1}`] : [])),
    );
  expect(casts).toEqual([]);
});

test("the vendors' names stay where users bring them: the emulator's option to speak them, the settings of their tools, the migration", () => {
  // The snapshot service's vendor's words for the spec's neutral ones (background/README.md): only the emulator's
  // vendorNames speaks them (its module, and the option's doc comment), and `migrate terraform` reads them from
  // Terraform's states.
  const vendorWords = /aws-s3|azure-blob|google-gcs|x-vault-|vault-snapshot|\baws_s3_|\bazure_container|\bgoogle_gcs/i;
  const speaking = ["provider", "plugin", "sdk", "automation", "demo", "emulator"].flatMap((dir) => sources(join(REPO, dir)));
  expect(speaking.filter((f) => vendorWords.test(readFileSync(f, "utf8"))).map((f) => relative(REPO, f))).toEqual([
    "emulator/snapshot/service.ts",
    "emulator/snapshot/vendorNames.ts",
  ]);
  // The settings their tools keep are read in one module per service.
  const settings = /\b(VAULT|TFE)_[A-Z]+|\bTF_TOKEN_|\bTF_CLI_CONFIG_FILE/;
  const reading = ["provider", "plugin", "sdk", "automation", "demo"].flatMap((dir) => sources(join(REPO, dir)));
  expect(reading.filter((f) => settings.test(readFileSync(f, "utf8"))).map((f) => relative(REPO, f))).toEqual([
    "provider/services/runtask/terraformCredentials.ts",
    "provider/services/snapshot/vaultSettings.ts",
  ]);
});
