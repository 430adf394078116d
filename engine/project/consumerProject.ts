import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Registration } from "../engine";
import { installPackage } from "./installPackage";
import { repositoryRoot } from "./repository";

const TEMPLATE = join(repositoryRoot(), "engine/project/template");

/** What the template's spec-driven program (template/index.js) declares. */
export interface ProgramSpec {
  snapshots?: { resource: string; args: Record<string, unknown> }[];
  runTasks?: { resource: string; args: Record<string, unknown> }[];
  attachments?: { resource: string; task?: string; args: Record<string, unknown> }[];
  /** Arguments the program wraps in `pulumi.secret()`. */
  secretArgs?: string[];
}

/** Another program than the template's index.js (the demo's), and how to run it. */
export interface CaptureOptions {
  /** The program file, relative to the project directory. */
  main?: string;
  /** Run it as in a preview (`pulumi.runtime.isDryRun()` is true). */
  preview?: boolean;
  /** Further environment, e.g. PULUMI_CONFIG with the program's stack config. */
  env?: NodeJS.ProcessEnv;
}

export interface ConsumerProject {
  /** The project's directory, with the package installed in its node_modules. */
  dir: string;
  /** Runs the program under mocks and returns what it registers. */
  capture(spec: ProgramSpec, options?: CaptureOptions): Registration[];
  /** The same, without blocking this process: for programs that call a server running in it (the emulator). */
  captureAsync(spec: ProgramSpec, options?: CaptureOptions): Promise<Registration[]>;
  remove(): void;
}

/**
 * A consumer project: a Pulumi project (template/) in a temporary directory, or in `dir`, with the package
 * installed as a user installs it (see installPackage). Its program is driven by a description (ProgramSpec);
 * programs of other projects (the demo's) can be copied in and run instead.
 */
export function createConsumerProject(options: { dir?: string } = {}): ConsumerProject {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "consumer-"));
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(TEMPLATE)) cpSync(join(TEMPLATE, f), join(dir, f));
  installPackage(dir);
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
