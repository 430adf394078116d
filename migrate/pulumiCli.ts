import { spawn } from "node:child_process";

/** What a CLI run printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The oldest CLI whose `pulumi import --file` takes a resource's `inputs` (older ones drop them in silence). */
export const OLDEST_CLI = [3, 274, 1] as const;

/**
 * The `pulumi` CLI on PATH, run in a project's folder for one stack, with the user's environment (the backend they
 * are logged in to, their passphrase or secrets provider). Secret values go to the CLI on its standard input, never
 * on a command line, where every user of the machine could read them while it runs.
 */
export class PulumiCli {
  constructor(
    readonly executable: string,
    readonly cwd: string,
    readonly stack: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Runs `pulumi <args>` (with `--non-interactive`, first: `args` may end with `-- <key>`), `input` on its standard input. */
  run(args: string[], input?: string): Promise<CliRun> {
    return new Promise((resolve) => {
      const child = spawn(this.executable, ["--non-interactive", ...args], { cwd: this.cwd, env: this.env, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", (err) => resolve({ code: 127, stdout, stderr: `${stderr}${err.message}\n` }));
      child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
      // A failed write (the CLI exited first) shows as its exit code.
      child.stdin.on("error", () => undefined);
      child.stdin.end(input ?? "");
    });
  }

  /** Like `run`, failing with the CLI's own words unless it exits 0. */
  async must(args: string[], input?: string): Promise<string> {
    const run = await this.run(args, input);
    if (run.code !== 0) throw new CliFailed(args, run);
    return run.stdout;
  }

  /** The CLI's version, `[major, minor, patch]`, or undefined when it does not say. */
  async version(): Promise<[number, number, number] | undefined> {
    const run = await this.run(["version"]);
    const match = /v?(\d+)\.(\d+)\.(\d+)/.exec(run.stdout);
    return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
  }

  /** Whether the project has the stack in the current backend. */
  async hasStack(): Promise<boolean> {
    const listed = JSON.parse(await this.must(["stack", "ls", "--json"])) as { name: string }[];
    return listed.some((s) => s.name === this.stack || s.name.endsWith(`/${this.stack}`) || this.stack.endsWith(`/${s.name}`));
  }

  /** Every stack of the backend the CLI is logged in to, of every project, by fully qualified name, with its resource count. */
  async backendStacks(): Promise<{ name: string; resourceCount?: number }[]> {
    return JSON.parse(await this.must(["stack", "ls", "--all", "--json", "--fully-qualify-stack-names"])) as {
      name: string;
      resourceCount?: number;
    }[];
  }

  /** The stack's config, secrets decrypted (into this process only), by fully qualified key. */
  async config(): Promise<Record<string, string>> {
    const listed = JSON.parse(await this.must(["config", "--json", "--show-secrets", "--stack", this.stack])) as Record<string, { value?: unknown }>;
    return Object.fromEntries(
      Object.entries(listed).flatMap(([key, entry]) =>
        entry.value === undefined ? [] : [[key, typeof entry.value === "string" ? entry.value : JSON.stringify(entry.value)]],
      ),
    );
  }

  /** The stack's state as `pulumi stack export` gives it: secrets stay encrypted. */
  async exportState(): Promise<ExportedState> {
    return JSON.parse(await this.exportText());
  }

  /** `pulumi stack export`'s text, which `pulumi stack import` takes back. */
  exportText(stack = this.stack): Promise<string> {
    return this.must(["stack", "export", "--stack", stack]);
  }

  /** Sets a secret config value, the value on the CLI's standard input, as it is (`--raw`: trailing newlines kept). */
  async setSecret(key: string, value: string): Promise<void> {
    await this.must(["config", "set", "--secret", "--raw", "--stack", this.stack, "--", key], value);
  }

  async removeConfig(key: string): Promise<void> {
    await this.must(["config", "rm", "--stack", this.stack, "--", key]);
  }
}

/** A stack's state, as `pulumi stack export` gives it. */
export interface ExportedState {
  deployment?: { resources?: StateResource[] };
}

/** A resource of a stack's state, as `pulumi stack export` gives it. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** A CLI run that failed: the command and what the CLI said. */
export class CliFailed extends Error {
  constructor(
    readonly args: string[],
    readonly run: CliRun,
  ) {
    super(`\`pulumi ${args.slice(0, 3).join(" ")}\` failed (exit ${run.code}):\n${(run.stderr || run.stdout).trim()}`);
    this.name = "CliFailed";
  }
}

/** Whether `version` is `OLDEST_CLI` or later. */
export function recentEnough(version: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) if (version[i] !== OLDEST_CLI[i]) return version[i] > OLDEST_CLI[i];
  return true;
}
