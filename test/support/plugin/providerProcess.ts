// A provider plugin process started as the engine starts one: its port read from its first line of stdout.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

/** How a provider plugin is started: `command args...` in `cwd`, with `env` (undefined values unset). */
export interface LaunchSpec {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * A provider plugin's process, started as the engine starts one: the plugin prints the port it serves gRPC on as
 * the first line of its stdout. Everything it prints, on stderr from the start and on stdout after that line, is
 * kept in `output` (for leak checks).
 */
export class ProviderProcess {
  output = "";

  private constructor(
    private readonly child: ChildProcess,
    /** The loopback port the plugin serves gRPC on. */
    readonly port: number,
  ) {}

  static async start(spec: LaunchSpec): Promise<ProviderProcess> {
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["ignore", "pipe", "pipe"] });
    let early = "";
    const collect = (d: Buffer) => (early += d);
    child.stderr!.on("data", collect);
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`${spec.command} exited (${code}) before printing its port: ${early}`)));
    });
    const port = Number(first);
    if (!Number.isInteger(port) || port <= 0) {
      child.kill();
      throw new Error(`${spec.command} printed ${JSON.stringify(first)} where its port was expected: ${early}`);
    }
    const started = new ProviderProcess(child, port);
    child.stderr!.off("data", collect);
    started.output = early;
    child.stderr!.on("data", (d) => (started.output += d));
    child.stdout!.on("data", (d) => (started.output += d));
    return started;
  }

  /** Sends SIGINT, as the engine does first when it closes a plugin, and resolves with the exit code. */
  async interrupt(): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once("exit", (code) => resolve(code)));
    this.child.kill("SIGINT");
    return exited;
  }

  /** Kills the process, as the engine does at the end of a command, and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill();
    await exited;
  }
}
