import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { Registration } from "../registration";
import { programConfigEnv, type StackConfig } from "../stackConfig";
import { installPackage } from "./installPackage";
import { projectName, renameProject } from "./pulumiYaml";
import { repositoryRoot } from "../../demo/repository";

const TEMPLATE = join(repositoryRoot(), "engine/project/template");

/** Resource options a program may set, as the template's program passes them on. */
export interface ResourceOptionsSpec {
  ignoreChanges?: string[];
  /** Go duration strings, as programs give them: `"2s"`, `"5m"`. */
  customTimeouts?: { create?: string; update?: string; delete?: string };
  deleteBeforeReplace?: boolean;
  replaceOnChanges?: string[];
  /** The names (or URNs) the resource had before. */
  aliases?: ({ name: string } | string)[];
}

/** What the template's program (template/index.js) declares. */
export interface ProgramSpec {
  snapshots?: { resource: string; args: Record<string, unknown>; options?: ResourceOptionsSpec }[];
  runTasks?: { resource: string; args: Record<string, unknown>; options?: ResourceOptionsSpec }[];
  attachments?: { resource: string; task?: string; args: Record<string, unknown>; options?: ResourceOptionsSpec }[];
  /** Arguments the program wraps in `pulumi.secret()`. */
  secretArgs?: string[];
}

/** Which program to run, and how. */
export interface CaptureOptions {
  /** The program's directory (its Pulumi.yaml names the project); default: the consumer project's own. */
  programDir?: string;
  /** The program file, relative to programDir; default index.js (the template's, which declares the spec). */
  main?: string;
  /** Run it as in a preview (`pulumi.runtime.isDryRun()` is true). */
  preview?: boolean;
  /** The stack config the program reads (`pulumi.Config`). */
  config?: StackConfig;
  /** Further environment. */
  env?: NodeJS.ProcessEnv;
  /** The engine driver's state file: the resources in it get their ids and outputs from there. */
  stateFile?: string;
}

/** A program's stack outputs, each with whether it is a secret (as `pulumi stack output` shows them). */
export type StackOutputs = Record<string, { value: unknown; secret: boolean }>;

/** What a program run under mocks registered, and its stack outputs. */
export interface ProgramRun {
  registrations: Registration[];
  outputs: StackOutputs;
}

export interface ConsumerProject {
  /** The project's directory, with the package installed in its node_modules. */
  dir: string;
  /** The stack the programs run in (part of every URN). */
  stack: string;
  /** Runs the program under mocks and returns what it registers. */
  capture(spec: ProgramSpec, options?: CaptureOptions): Registration[];
  /** The same, without blocking this process: for programs that call a server running in it (the emulator). */
  captureAsync(spec: ProgramSpec, options?: CaptureOptions): Promise<Registration[]>;
  /** Runs the program under mocks: what it registers, and its stack outputs. */
  run(options?: CaptureOptions & { spec?: ProgramSpec }): Promise<ProgramRun>;
  remove(): void;
}

export interface ConsumerProjectOptions {
  /** Where to create it (created if missing); default: a new temporary directory. */
  dir?: string;
  /** The Pulumi project's name; default the template's, `consumer`. */
  project?: string;
  /** Default `dev`. */
  stack?: string;
}

/**
 * A consumer project: a Pulumi project (template/) with the package installed as a user installs it (see
 * installPackage). Its own program declares what a ProgramSpec describes; other programs (the demo's, the
 * examples') can be copied into it, or below it, and run instead. Programs run under mocks (template/capture.js),
 * which records what they register for the engine driver to drive through the real provider plugin.
 */
export function createConsumerProject(options: ConsumerProjectOptions = {}): ConsumerProject {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "consumer-"));
  const stack = options.stack ?? "dev";
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(TEMPLATE)) cpSync(join(TEMPLATE, f), join(dir, f));
  if (options.project) renameProject(dir, options.project);
  installPackage(dir);
  let n = 0;
  const invocation = (options: CaptureOptions & { spec?: ProgramSpec }) => {
    const programDir = resolve(dir, options.programDir ?? ".");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...(options.config ? programConfigEnv(options.config) : {}),
      ...options.env,
      PROGRAM_MAIN: options.main ?? "index.js",
      PROGRAM_PREVIEW: String(options.preview ?? false),
      PROGRAM_PROJECT: projectName(programDir) ?? "project",
      PROGRAM_STACK: stack,
      PROGRAM_STATE: options.stateFile ?? "",
    };
    if (options.spec) {
      env.PROGRAM_SPEC = join(dir, `program-${++n}.json`);
      writeFileSync(env.PROGRAM_SPEC, JSON.stringify(options.spec));
    }
    return { args: [join(dir, "capture.js")], options: { cwd: programDir, env, encoding: "utf8" as const, maxBuffer: 256 * 1024 * 1024 } };
  };
  const run = async (options: CaptureOptions & { spec?: ProgramSpec } = {}): Promise<ProgramRun> => {
    const { args, options: execOptions } = invocation(options);
    const { stdout } = await promisify(execFile)(process.execPath, args, execOptions);
    return JSON.parse(stdout) as ProgramRun;
  };
  return {
    dir,
    stack,
    capture(spec, options = {}) {
      const { args, options: execOptions } = invocation({ ...options, spec });
      return (JSON.parse(execFileSync(process.execPath, args, execOptions)) as ProgramRun).registrations;
    },
    async captureAsync(spec, options = {}) {
      return (await run({ ...options, spec })).registrations;
    },
    run,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
