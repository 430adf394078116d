import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";

/**
 * The README's Install route and every example's install line, followed as a user follows them, on a copy of this
 * repository as a fresh clone has it (its files, none of its installs or builds): `npm ci` and `npm pack` there,
 * then the packed package installed into a new Pulumi project that type-checks the README's program; and in each
 * example, the install line its README gives, then a type-check of its TypeScript (as `pulumi up` compiles it) or
 * the provider plugins it needs. Third-party packages come from the npm registry.
 */
const REPO = repositoryRoot();
let parent: string;
let clone: string;

/** The lines of the first `sh` block of `markdown` after `heading` that holds a line matching `line`. */
function shBlockAfter(markdown: string, heading: string, line: RegExp): string[] {
  const from = markdown.indexOf(heading);
  const blocks = [...markdown.slice(from).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].split("\n"));
  const block = blocks.find((lines) => lines.some((l) => line.test(l)));
  if (!block) throw new Error(`no sh block after "${heading}" with a line matching ${line}`);
  return block.map((l) => l.replace(/\s+#.*$/, "").trim()).filter(Boolean);
}

function run(command: string, cwd: string): string {
  try {
    return execFileSync("bash", ["-eo", "pipefail", "-c", command], {
      cwd,
      encoding: "utf8",
      stdio: "pipe",
      env: { ...process.env, npm_config_fund: "false", npm_config_audit: "false" },
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} (in ${cwd}) failed:\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/** A copy of the repository's files as a clone has them: tracked ones, and new ones not ignored. */
function cloneOfRepository(to: string): void {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: REPO, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(REPO, file))) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(REPO, file), join(to, file));
  }
}

beforeAll(() => {
  parent = mkdtempSync(join(tmpdir(), "install-route-"));
  clone = join(parent, "pulumi-snapshot-runtask");
  cloneOfRepository(clone);
}, 60_000);

afterAll(() => rmSync(parent, { recursive: true, force: true }));

test("the README's Install route, from a new directory: the packed package installs, and a program using it type-checks", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const lines = shBlockAfter(readme, "## Install", /^npm pack/);
  expect(lines[0]).toMatch(/^git clone /);
  // A new Pulumi TypeScript project, as `pulumi new typescript` makes it.
  const stack = join(parent, "my-stack");
  mkdirSync(stack);
  writeFileSync(
    join(stack, "package.json"),
    JSON.stringify({ name: "my-stack", main: "index.ts", devDependencies: { "@types/node": "^22.0.0", typescript: "~5.9" } }, null, 2),
  );
  writeFileSync(
    join(stack, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "es2020", module: "commonjs", moduleResolution: "node", outDir: "bin" },
      files: ["index.ts"],
    }),
  );
  const program = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).find((code) => code.includes('new SnapshotAutoConfig("daily"'));
  writeFileSync(join(stack, "index.ts"), program!);
  // The clone is there already: what follows `git clone` runs as written.
  run(lines.slice(1).join("\n"), parent);
  expect(readdirSync(join(stack, "node_modules/pulumi-snapshot-runtask/dist")).sort()).toEqual([
    "automation",
    "emulator",
    "migrate",
    "plugin",
    "provider",
    "sdk",
  ]);
  run("npm install && npx tsc --noEmit -p .", stack);
}, 300_000);

const EXAMPLES = readdirSync(join(REPO, "examples")).sort();

describe.each(EXAMPLES)("examples/%s", (name) => {
  test("installs as its README says, and type-checks (or has the provider plugins it names)", () => {
    const dir = join(clone, "examples", name);
    const [install] = shBlockAfter(readFileSync(join(dir, "README.md"), "utf8"), "", /^npm (ci|install)\b/).filter((l) =>
      /^npm (ci|install)\b/.test(l),
    );
    if (!existsSync(join(clone, "node_modules"))) run("npm ci", clone);
    run(install, dir);
    const pkg = join(dir, "node_modules/pulumi-snapshot-runtask");
    expect(existsSync(join(pkg, "dist/sdk/index.js"))).toBe(true);
    // A copy, as from the registry: a link would load a second @pulumi/pulumi from the repository.
    expect(execFileSync("readlink", ["-f", pkg], { encoding: "utf8" }).trim()).toBe(pkg);
    if (existsSync(join(dir, "tsconfig.json"))) run("npx tsc --noEmit -p .", dir);
    else for (const plugin of ["runtask", "snapshot"]) expect(existsSync(join(dir, "node_modules/.bin", `pulumi-resource-${plugin}`))).toBe(true);
  }, 300_000);
});
