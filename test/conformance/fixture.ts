import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { Registration } from "./engine/engine";

/** The repository root: the nearest folder up with this package's package.json (also from a compiled copy). */
function repositoryRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file) && JSON.parse(readFileSync(file, "utf8")).name === "pulumi-snapshot-runtask") return dir;
  }
  throw new Error(`no pulumi-snapshot-runtask package.json above ${from}`);
}

const REPO = repositoryRoot(__dirname);
const FIXTURE = join(REPO, "test/conformance/fixture");

/** What a scenario's program declares; see fixture/index.js. */
export interface ProgramSpec {
  snapshots?: { resource: string; args: Record<string, unknown> }[];
  runTasks?: { resource: string; args: Record<string, unknown> }[];
  attachments?: { resource: string; task?: string; args: Record<string, unknown> }[];
  /** Arguments the program wraps in `pulumi.secret()`. */
  secretArgs?: string[];
}

/** Another program than the fixture's index.js (the demo's), and how to run it. */
export interface CaptureOptions {
  /** The program file, relative to the fixture directory. */
  main?: string;
  /** Run it as in a preview (`pulumi.runtime.isDryRun()` is true). */
  preview?: boolean;
  /** Further environment, e.g. PULUMI_CONFIG with the program's stack config. */
  env?: NodeJS.ProcessEnv;
}

export interface Fixture {
  /** The consumer project's directory, with the package installed in its node_modules. */
  dir: string;
  /** Runs the program under mocks and returns what it registers. */
  capture(spec: ProgramSpec, options?: CaptureOptions): Registration[];
  /** The same, without blocking this process: for programs that call a server running in it (the emulator). */
  captureAsync(spec: ProgramSpec, options?: CaptureOptions): Promise<Registration[]>;
  remove(): void;
}

/**
 * A consumer project in a temporary directory, with the package installed from `npm pack` of this repository
 * (so a file missing from `files` or `exports` fails here as it would for a user). Its dependencies are taken
 * from this repository's installed tree: @pulumi/pulumi is copied (the closure serializer resolves package
 * names from its own location, which must be the consumer's node_modules), the rest is linked.
 */
export function prepareFixture(): Fixture {
  if (!existsSync(join(REPO, "dist/sdk/index.js"))) throw new Error("the package is not built: run `npm run build` (npm test does)");
  const dir = mkdtempSync(join(tmpdir(), "conformance-"));
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: REPO, encoding: "utf8" }).trim().split("\n").pop()!;
  for (const f of readdirSync(FIXTURE)) cpSync(join(FIXTURE, f), join(dir, f));
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, "@pulumi"), { recursive: true });
  for (const entry of readdirSync(join(REPO, "node_modules"))) {
    if (entry === "@pulumi" || entry === ".bin" || entry === "pulumi-snapshot-runtask") continue;
    symlinkSync(join(REPO, "node_modules", entry), join(modules, entry));
  }
  for (const entry of readdirSync(join(REPO, "node_modules/@pulumi"))) {
    const from = join(REPO, "node_modules/@pulumi", entry);
    if (entry === "pulumi") cpSync(from, join(modules, "@pulumi", entry), { recursive: true });
    else symlinkSync(from, join(modules, "@pulumi", entry));
  }
  const pkg = join(modules, "pulumi-snapshot-runtask");
  mkdirSync(pkg);
  execFileSync("tar", ["xzf", join(dir, packed), "-C", pkg, "--strip-components=1"]);
  let n = 0;
  const captureEnv = (spec: ProgramSpec, options: CaptureOptions): NodeJS.ProcessEnv => {
    const file = join(dir, `program-${++n}.json`);
    writeFileSync(file, JSON.stringify(spec));
    return { ...process.env, ...options.env, PROGRAM_SPEC: file, PROGRAM_MAIN: options.main ?? "", PROGRAM_PREVIEW: String(options.preview ?? false) };
  };
  return {
    dir,
    capture(spec, options = {}) {
      const out = execFileSync(process.execPath, ["capture.js"], { cwd: dir, env: captureEnv(spec, options), encoding: "utf8" });
      return JSON.parse(out) as Registration[];
    },
    async captureAsync(spec, options = {}) {
      const { stdout } = await promisify(execFile)(process.execPath, ["capture.js"], { cwd: dir, env: captureEnv(spec, options), encoding: "utf8" });
      return JSON.parse(stdout) as Registration[];
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
