import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { descendants } from "../../../bench/processTree";
import { createConsumerProject, type ConsumerProject } from "../../../toolchain/consumerProject";
import { findPulumiEngine, offlineEngineEnv, type PulumiEngine } from "../../../toolchain/pulumiEngine";
import { fromPluginCache, type PluginCache } from "./pluginCache";
import { nameOf, readStackState, typeOf, type StackState } from "./stateFile";

/** What one engine command did. */
export interface EngineRun {
  ok: boolean;
  /** Steps by kind, as the summary counts them (the `pulumi:pulumi:Stack` resource included). */
  changes: Record<string, number>;
  /** Each resource's step, by URN, in the order the engine began them, with the keys it changes. */
  steps: { urn: string; op: string; diffs: string[] }[];
  /** Warnings and errors the engine reported, with the resource they came from. */
  diagnostics: { severity: string; urn?: string; message: string }[];
  /** What the CLI printed. */
  output: string;
  error?: string;
  outputs?: Record<string, { value: unknown; secret: boolean }>;
}

/** A program description as specProgram.js reads it. */
export interface ProgramSpec {
  resources: ResourceSpec[];
  outputs?: Record<string, unknown>;
}

export interface ResourceSpec {
  type: string;
  name: string;
  args?: Record<string, unknown>;
  secretArgs?: string[];
  options?: Record<string, unknown>;
}

/** Options of one command, by the Automation API's names (`replace`, `target`, `clearPendingCreates`, ...). */
export type CommandOptions = Record<string, unknown>;

/** A running command: its process group can be killed, as a user's Ctrl-C or a CI runner's timeout does. */
export interface RunningCommand {
  /** Kills the `pulumi` CLI with SIGKILL (the process, not its plugins), then, after `orphansAfterMs`, the plugins. */
  killCli(orphansAfterMs?: number): Promise<void>;
  /**
   * Kills the `pulumi` CLI alone with SIGKILL, as a CI runner's timeout does, and answers the processes it had started
   * (the plugins, each in a process group of its own), which are left to end by themselves: `killProcesses` them after.
   */
  killCliAlone(): Promise<number[]>;
  /**
   * Sends SIGINT to the `pulumi` CLI alone, as Ctrl-C in a terminal does: the CLI starts each plugin in a process
   * group of its own, so the signal reaches the plugins only as the engine passes it on (Cancel).
   */
  interruptCli(): Promise<void>;
  done: Promise<EngineRun>;
}

const PASSPHRASE = "engine-stack-passphrase";
const SUPPORT = __dirname;

/** The engine for the tests: the project's build, else a `pulumi` on PATH; in CI a missing engine fails the test. */
export function testEngine(): PulumiEngine {
  const engine = findPulumiEngine("built");
  if (!engine) {
    throw new Error(
      "these tests run through the Pulumi engine, and there is none: run `npm run engine` (npm test does), or put a `pulumi` CLI on PATH",
    );
  }
  return engine;
}

/**
 * One stack in a file backend of its own, run through the real Pulumi CLI: a Node.js program described as data
 * (inline, through the Automation API, in a consumer project where the package is installed), or a YAML program
 * (`pulumi` in the project's folder, the provider plugins on PATH as the package's executables).
 */
export class EngineStack {
  readonly backend: string;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  private spec: ProgramSpec = { resources: [] };
  private programFile?: string;
  private configured = false;
  private removedConfig: string[] = [];
  private n = 0;

  private constructor(
    readonly runtime: "nodejs" | "yaml",
    readonly project: ConsumerProject,
    readonly projectName: string,
    readonly stack: string,
    private config: Record<string, string>,
    private readonly secretKeys: string[],
    readonly work: string,
    env: NodeJS.ProcessEnv,
    passphrase: string,
    pluginCache?: PluginCache,
  ) {
    this.backend = join(work, "backend");
    this.home = join(work, "home");
    mkdirSync(this.backend, { recursive: true });
    mkdirSync(this.home, { recursive: true });
    const offline = offlineEngineEnv(
      testEngine(),
      { home: this.home, backend: this.backend, passphrase, extraPath: [project.binDir] },
      {
        ...process.env,
        // `--event-log`, which the Automation API reads too, is a flag of the debug commands.
        PULUMI_DEBUG_COMMANDS: "true",
        ...env,
      },
    );
    this.env = pluginCache ? fromPluginCache(offline, pluginCache) : offline;
  }

  /**
   * A stack of a Node.js program run inline. `config` is the stack's config (keys with their namespace); those of
   * `secretKeys` are set as secrets.
   */
  static inline(options: StackOptions): EngineStack {
    return EngineStack.make("nodejs", options);
  }

  /** A stack of a YAML program (the program is set by `yamlProgram`). */
  static yaml(options: StackOptions): EngineStack {
    return EngineStack.make("yaml", options);
  }

  private static make(runtime: "nodejs" | "yaml", options: StackOptions): EngineStack {
    const { project, projectName, stack = "dev", config = {}, secretKeys = [], env = {}, passphrase = PASSPHRASE, pluginCache, backendOf } = options;
    const work = backendOf?.work ?? mkdtempSync(join(tmpdir(), "engine-stack-"));
    const made = new EngineStack(runtime, project, projectName, stack, config, secretKeys, work, env, passphrase, pluginCache);
    mkdirSync(made.programDir, { recursive: true });
    return made;
  }

  /**
   * The project's folder, where its Pulumi.yaml is and the CLI and the plugins run: one per project name under the
   * consumer project, whose node_modules the package and @pulumi/pulumi resolve from.
   */
  get programDir(): string {
    return join(this.project.dir, "programs", this.projectName);
  }

  /** Sets the stack's config (as `pulumi config set` would, secrets among `secretKeys`) for the commands that follow. */
  setConfig(config: Record<string, string>): this {
    this.removedConfig = Object.keys(this.config).filter((k) => !(k in config));
    this.config = config;
    this.configured = false;
    return this;
  }

  /** Sets the Node.js program's description for the commands that follow. */
  program(spec: ProgramSpec): this {
    this.spec = spec;
    this.programFile = undefined;
    return this;
  }

  /** Runs the Node.js program module `file` (JavaScript) for the commands that follow, as the language host runs it. */
  programModule(file: string): this {
    this.programFile = file;
    return this;
  }

  /** Writes the YAML program's `resources:` (and more) under the project's name and runtime. */
  yamlProgram(body: string): this {
    writeFileSync(join(this.programDir, "Pulumi.yaml"), `name: ${this.projectName}\nruntime: yaml\n${body}`);
    return this;
  }

  /** `env`: more environment for this command's CLI and plugins. */
  up(options: CommandOptions = {}, env: NodeJS.ProcessEnv = {}): Promise<EngineRun> {
    return this.start("up", options, env).done;
  }

  preview(options: CommandOptions = {}): Promise<EngineRun> {
    return this.start("preview", options).done;
  }

  refresh(options: CommandOptions = {}): Promise<EngineRun> {
    return this.start("refresh", options).done;
  }

  destroy(options: CommandOptions = {}): Promise<EngineRun> {
    return this.start("destroy", options).done;
  }

  /** `pulumi import` of one resource (`{ type, name, id }`), or of a file of them (`{ file }`), with `--yes`. */
  import(what: { type: string; name: string; id: string; provider?: string }, options: CommandOptions = {}): Promise<EngineRun> {
    return this.start("import", { ...options, resources: [what] }).done;
  }

  /** Starts a command, for a test that stops it midway (`killCli`). */
  start(op: "up" | "preview" | "refresh" | "destroy" | "import", options: CommandOptions = {}, env: NodeJS.ProcessEnv = {}): RunningCommand {
    return this.runtime === "nodejs" ? this.startInline(op, options, env) : this.startYaml(op, options, env);
  }

  /** Runs the CLI with `args` in the program's folder (`stack export`, `state delete`, ...), with the stack's environment. */
  async cli(args: string[], options: { stack?: boolean } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    const stack = options.stack === false ? [] : ["--stack", this.stack];
    return outcomeOf(spawn("pulumi", [...args, ...stack, "--non-interactive"], { cwd: this.programDir, env: this.env }));
  }

  /** Runs a shell command line as a user pastes it (a recovery a message printed), in the program's folder, with the stack's environment. */
  shell(commandLine: string): Promise<{ code: number; stdout: string; stderr: string }> {
    return outcomeOf(spawn("sh", ["-c", commandLine], { cwd: this.programDir, env: this.env }));
  }

  /** The state as the backend holds it now. */
  state(): StackState {
    return readStackState(this.backend, this.projectName, this.stack);
  }

  /** Removes the stack's backend and home (the project is the caller's). */
  remove(): void {
    rmSync(this.work, { recursive: true, force: true });
  }

  private request(op: string, options: CommandOptions): string {
    const file = join(this.work, `request-${this.stack}-${++this.n}.json`);
    const config = this.configured ? undefined : this.configEntries();
    const removeConfig = this.removedConfig;
    this.configured = true;
    this.removedConfig = [];
    const program = this.programFile ? { programFile: this.programFile } : { spec: this.spec };
    writeFileSync(file, JSON.stringify({ op, project: this.projectName, stack: this.stack, ...program, config, removeConfig, options }));
    return file;
  }

  private configEntries(): Record<string, { value: string; secret: boolean }> {
    return Object.fromEntries(Object.entries(this.config).map(([k, v]) => [k, { value: v, secret: this.secretKeys.includes(k) }]));
  }

  private startInline(op: string, options: CommandOptions, env: NodeJS.ProcessEnv): RunningCommand {
    const child = spawn(process.execPath, [join(SUPPORT, "runInline.js"), this.request(op, options)], {
      cwd: this.programDir,
      env: { ...this.env, ...env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const done = new Promise<EngineRun>((resolve) => {
      child.on("close", () => {
        const at = output.lastIndexOf("\n@@result ");
        const result =
          at >= 0
            ? JSON.parse(output.slice(at + "\n@@result ".length))
            : { ok: false, error: "the runner ended without a result", steps: [], diagnostics: [] };
        resolve({ changes: {}, ...result, output: at >= 0 ? output.slice(0, at) : output });
      });
    });
    return {
      done,
      killCli: (after) => killCliOf(child.pid!, after),
      killCliAlone: () => killCliAloneOf(child.pid!),
      interruptCli: () => interruptCliOf(child.pid!),
    };
  }

  private startYaml(op: string, options: CommandOptions, env: NodeJS.ProcessEnv): RunningCommand {
    const events = join(this.work, `events-${this.stack}-${++this.n}.jsonl`);
    const setUp = this.configured ? Promise.resolve() : this.initYamlStack();
    this.configured = true;
    let child: ReturnType<typeof spawn> | undefined;
    let output = "";
    const done = setUp.then(
      () =>
        new Promise<EngineRun>((resolve) => {
          child = spawn("pulumi", yamlArgs(op, options, this.stack, events), {
            cwd: this.programDir,
            env: { ...this.env, ...env },
            detached: true,
            stdio: ["ignore", "pipe", "pipe"],
          });
          child.stdout!.on("data", (d) => (output += d));
          child.stderr!.on("data", (d) => (output += d));
          child.on("close", (code) => resolve({ ...eventsOf(events), ok: code === 0, output, ...(code === 0 ? {} : { error: output }) }));
        }),
    );
    return {
      done,
      killCli: async (after) => {
        await until(() => child?.pid !== undefined);
        await killCliOf(child!.pid!, after, true);
      },
      killCliAlone: async () => {
        await until(() => child?.pid !== undefined);
        return killCliAloneOf(child!.pid!, true);
      },
      interruptCli: async () => {
        await until(() => child?.pid !== undefined);
        await interruptCliOf(child!.pid!, true);
      },
    };
  }

  private async initYamlStack(): Promise<void> {
    const init = await this.cli(["stack", "init", this.stack], { stack: false });
    if (init.code !== 0 && !/already exists/.test(init.stderr)) throw new Error(`pulumi stack init failed: ${init.stderr}`);
    for (const key of this.removedConfig) await this.cli(["config", "rm", key]);
    this.removedConfig = [];
    const args = ["config", "set-all"];
    for (const [k, v] of Object.entries(this.config)) args.push(this.secretKeys.includes(k) ? "--secret" : "--plaintext", `${k}=${v}`);
    if (args.length > 2) {
      const set = await this.cli(args);
      if (set.code !== 0) throw new Error(`pulumi config set-all failed: ${set.stderr}`);
    }
  }
}

export interface StackOptions {
  project: ConsumerProject;
  /** The Pulumi project's name (part of every URN). */
  projectName: string;
  stack?: string;
  config?: Record<string, string>;
  secretKeys?: string[];
  /** Environment of the CLI and the plugins beyond this process's. */
  env?: NodeJS.ProcessEnv;
  /** The passphrase of the stack's secrets; default one of the harness's own. */
  passphrase?: string;
  /**
   * The provider plugins from the stack's plugin cache alone (its PULUMI_HOME, `home`, where the test installs them),
   * not the consumer project's executables: see pluginCache.ts.
   */
  pluginCache?: PluginCache;
  /** A stack whose backend (and PULUMI_HOME) this one shares, as two stacks of one project share theirs. */
  backendOf?: EngineStack;
}

/** A consumer project for the engine stacks of a test file, removed by the caller. */
export function engineProject(): ConsumerProject {
  testEngine();
  return createConsumerProject();
}

function yamlArgs(op: string, options: CommandOptions, stack: string, events: string): string[] {
  const args: string[] = [op === "import" ? "import" : op];
  if (op === "import") {
    const [r] = options.resources as { type: string; name: string; id: string; provider?: string }[];
    args.push(r.type, r.name, r.id);
    if (r.provider) args.push("--provider", r.provider);
    if (options.protect === false) args.push("--protect=false");
  }
  if (op !== "preview") args.push("--yes", "--skip-preview");
  for (const urn of (options.replace as string[] | undefined) ?? []) args.push("--replace", urn);
  for (const urn of (options.target as string[] | undefined) ?? []) args.push("--target", urn);
  if (options.refresh) args.push("--refresh");
  if (options.clearPendingCreates) args.push("--clear-pending-creates");
  if (options.targetDependents) args.push("--target-dependents");
  if (options.debug) args.push("--debug");
  args.push("--stack", stack, "--non-interactive", "--event-log", events);
  return args;
}

/**
 * Each resource's step by name, without the stack and the providers: `replace` for a replacement (whose steps are a
 * create, a replace and a delete, in the order the engine takes them), else the step's op.
 */
export function opsByName(run: EngineRun): Record<string, string> {
  const out: Record<string, string> = {};
  for (const step of run.steps.filter((s) => !/^pulumi:/.test(typeOf(s.urn)))) {
    const name = nameOf(step.urn);
    if (out[name] !== "replace") out[name] = step.op;
  }
  return out;
}

/** What an engine event log says: the steps, the summary, the diagnostics. */
function eventsOf(file: string): Pick<EngineRun, "changes" | "steps" | "diagnostics"> {
  const out: Pick<EngineRun, "changes" | "steps" | "diagnostics"> = { changes: {}, steps: [], diagnostics: [] };
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const event = JSON.parse(line);
    const pre = event.resourcePreEvent;
    if (pre) out.steps.push({ urn: pre.metadata.urn, op: pre.metadata.op, diffs: pre.metadata.diffs ?? [] });
    // A refresh's changes are known once it ends.
    const done = event.resOutputsEvent;
    const begun = done && out.steps.filter((s) => s.urn === done.metadata.urn).pop();
    if (begun && begun.diffs.length === 0) begun.diffs = done.metadata.diffs ?? [];
    if (event.summaryEvent) out.changes = event.summaryEvent.resourceChanges ?? {};
    if (event.diagnosticEvent)
      out.diagnostics.push({ severity: event.diagnosticEvent.severity, urn: event.diagnosticEvent.urn, message: event.diagnosticEvent.message });
  }
  return out;
}

/** A child's exit code and output once it closes. */
async function outcomeOf(child: ReturnType<typeof spawn>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const code = await new Promise<number>((resolve) => child.on("close", (c) => resolve(c ?? 1)));
  return { code, stdout, stderr };
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

/**
 * SIGKILL to the `pulumi` process under `root` (or `root` itself), then, after `orphansAfterMs`, to every process
 * it had started: the plugins outlive it, as they do when a CI runner kills the CLI, each in a process group of its
 * own (the engine starts them so), until the test ends them.
 */
async function killCliOf(root: number, orphansAfterMs = 0, rootIsCli = false): Promise<void> {
  const cli = await cliUnder(root, rootIsCli);
  const started = descendants(cli);
  process.kill(cli, "SIGKILL");
  if (orphansAfterMs > 0) await new Promise((r) => setTimeout(r, orphansAfterMs));
  for (const pid of [...started, ...started.flatMap(descendants)]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // ended already
    }
  }
  try {
    process.kill(-root, "SIGKILL");
  } catch {
    // the group is gone already
  }
}

/** SIGKILL to the `pulumi` process under `root` (or `root` itself) alone; the processes it had started, left running. */
async function killCliAloneOf(root: number, rootIsCli = false): Promise<number[]> {
  const cli = await cliUnder(root, rootIsCli);
  const started = descendants(cli);
  const orphans = [...new Set([...started, ...started.flatMap(descendants)])];
  process.kill(cli, "SIGKILL");
  return orphans;
}

/** Whether a process lives (and is not a zombie waiting for its parent). */
export function processAlive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** SIGKILL to each process still there. */
export function killProcesses(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // ended already
    }
  }
}

/** The `pulumi` process under `root` (or `root` itself), once it is there. */
async function cliUnder(root: number, rootIsCli: boolean): Promise<number> {
  let cli: number | undefined = rootIsCli ? root : undefined;
  await until(() => (cli ??= descendants(root).find((pid) => commandOf(pid) === "pulumi")) !== undefined);
  return cli!;
}

/** SIGINT to the `pulumi` process under `root` (or `root` itself), as a terminal's Ctrl-C. */
async function interruptCliOf(root: number, rootIsCli = false): Promise<void> {
  process.kill(await cliUnder(root, rootIsCli), "SIGINT");
}

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for a process");
    await new Promise((r) => setTimeout(r, 20));
  }
}
