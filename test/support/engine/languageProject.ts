import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConsumerProject } from "../../../toolchain/consumerProject";
import { offlineEngineEnv } from "../../../toolchain/pulumiEngine";
import { testEngine } from "./engineStack";
import { fromPluginCache, type PluginCache } from "./pluginCache";
import { readStackState, type StackState } from "./stateFile";

/** What a command printed, and its exit code. */
export interface CommandRun {
  code: number;
  output: string;
}

/** A run of an example's own runner: what it printed, and its last `changes:` and `outputs:` lines, parsed. */
export interface RunnerRun extends CommandRun {
  changes?: Record<string, number>;
  outputs?: Record<string, unknown>;
}

const PASSPHRASE = "language-project-passphrase";

/**
 * A Pulumi project folder of another language than Node.js (`dir`, with its Pulumi.yaml) whose stacks live in a file
 * backend of their own and run through the real CLI, driven by the project's own runner (an inline Automation API
 * program: `python inline.py up`, `go run . up`). The provider plugins are the consumer project's executables, on
 * PATH as a user puts them there, or those installed in the project's PULUMI_HOME (`home`), as Pulumi installs them.
 */
export class LanguageProject {
  readonly work = mkdtempSync(join(tmpdir(), "language-project-"));
  readonly backend = join(this.work, "backend");
  readonly home = join(this.work, "home");
  readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly dir: string,
    readonly projectName: string,
    /** The consumer project whose executables are the plugins, on PATH; or the project's plugin cache alone (`home`). */
    plugins: ConsumerProject | PluginCache,
    env: NodeJS.ProcessEnv = {},
  ) {
    mkdirSync(this.backend);
    mkdirSync(this.home);
    const offline = offlineEngineEnv(
      testEngine(),
      { home: this.home, backend: this.backend, passphrase: PASSPHRASE, extraPath: "binDir" in plugins ? [plugins.binDir] : [] },
      { ...process.env, ...env },
    );
    this.env = "binDir" in plugins ? offline : fromPluginCache(offline, plugins);
  }

  /**
   * `pulumi stack init` and `pulumi config set-all`, as a user sets a stack up: `config` keys with their namespace
   * (`runtask:address`, or the project's own `scannerHmacKey`), those in `secretKeys` as secrets, those with a `[`
   * as paths (`workspaces[0]`).
   */
  async initStack(stack: string, config: Record<string, string>, secretKeys: string[] = []): Promise<void> {
    const init = await this.cli(["stack", "init", stack]);
    if (init.code !== 0) throw new Error(`pulumi stack init failed:\n${init.output}`);
    const args = ["config", "set-all", "--stack", stack];
    for (const [key, value] of Object.entries(config)) {
      if (key.includes("[")) args.push("--path");
      args.push(secretKeys.includes(key) ? "--secret" : "--plaintext", `${key}=${value}`);
    }
    const set = await this.cli(args);
    if (set.code !== 0) throw new Error(`pulumi config set-all failed:\n${set.output}`);
  }

  /** The `pulumi` CLI in the project's folder. */
  cli(args: string[]): Promise<CommandRun> {
    return this.command("pulumi", [...args, "--non-interactive"]);
  }

  /** The project's runner (`python inline.py up`), with what it printed last parsed. */
  async runner(command: string, args: string[]): Promise<RunnerRun> {
    const run = await this.command(command, args);
    const last = (label: string) => {
      const line = run.output.split("\n").findLast((l) => l.startsWith(`${label}: `));
      return line === undefined ? undefined : JSON.parse(line.slice(label.length + 2));
    };
    return { ...run, changes: last("changes"), outputs: last("outputs") };
  }

  /** A command in the project's folder, with the stack's environment; it never blocks this process (the emulator runs here). */
  command(command: string, args: string[], cwd = this.dir): Promise<CommandRun> {
    return runCommand(command, args, { cwd, env: this.env });
  }

  /** The state of `stack` as the backend holds it now. */
  state(stack: string): StackState {
    return readStackState(this.backend, this.projectName, stack);
  }

  /** The view of one stack that the service ledger compares with the emulator. */
  stack(stack: string): { state(): StackState } {
    return { state: () => this.state(stack) };
  }

  remove(): void {
    rmSync(this.work, { recursive: true, force: true });
  }
}

/** Runs a command to its end without blocking the event loop: its output (stdout and stderr, interleaved) and exit code. */
export function runCommand(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CommandRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (err) => resolve({ code: 127, output: `${output}${err.message}\n` }));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Like runCommand, but fails with the command's output unless it exits 0. */
export async function mustRun(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  const run = await runCommand(command, args, options);
  if (run.code !== 0) throw new Error(`${command} ${args.join(" ")} (in ${options.cwd}) exited ${run.code}:\n${run.output}`);
  return run.output;
}
