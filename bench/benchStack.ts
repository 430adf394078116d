import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConsumerProject } from "../toolchain/consumerProject";
import { offlineEngineEnv, type PulumiEngine } from "../toolchain/pulumiEngine";
import type { CommandRequest, CommandResult } from "./inlineProgram";
import { ProcessTreeSampler, type CpuByRole } from "./processTree";
import type { ResourceDescription, Variant } from "./programs";

/** What one `pulumi` command cost. */
export interface CommandFigures {
  /** Milliseconds of the command, as the Automation API's call took it. */
  ms: number;
  /** CPU milliseconds during the command, by process role (sampled from /proc). */
  cpuMs: CpuByRole;
  /**
   * CPU milliseconds of the program's process and of every process it waited for (exact, from the kernel's
   * accounting): the sampled figures add up to this, less what each process spent after its last sample.
   */
  totalCpuMs: number;
  /** Provider plugin processes that served the command. */
  pluginProcesses: number;
  changes: Record<string, number>;
}

const PASSPHRASE = "bench-passphrase";
const RUNNER = join(__dirname, "inlineProgram.js");

/**
 * A stack in a file backend of its own (a temporary folder), its program run inline from a project folder of the
 * consumer project, through the real `pulumi` CLI. Each command is a fresh CLI, program and plugin processes, as
 * each of a user's commands is.
 */
export class BenchStack {
  readonly work: string;
  readonly backend: string;
  private env: NodeJS.ProcessEnv;
  private configured = false;
  private requests = 0;

  constructor(
    private readonly project: ConsumerProject,
    engine: PulumiEngine,
    readonly projectName: string,
    private readonly config: Record<string, string>,
    /** Further environment of the CLI and what it starts (`PULUMI_SKIP_CHECKPOINTS`, ...). */
    env: NodeJS.ProcessEnv = {},
    /** A folder of provider plugin executables, found on PATH before the consumer project's. */
    pluginDir?: string,
  ) {
    this.work = mkdtempSync(join(tmpdir(), "bench-stack-"));
    this.backend = join(this.work, "backend");
    const home = join(this.work, "home");
    mkdirSync(this.backend);
    mkdirSync(home);
    mkdirSync(this.programDir, { recursive: true });
    this.env = offlineEngineEnv(
      engine,
      { home, backend: this.backend, passphrase: PASSPHRASE, extraPath: [...(pluginDir ? [pluginDir] : []), project.binDir] },
      { ...process.env, ...env },
    );
  }

  /** Sets further environment for the commands from now on (`NODE_OPTIONS`, ...). */
  setEnv(env: NodeJS.ProcessEnv): void {
    this.env = { ...this.env, ...env };
  }

  /** Where the program runs: a folder of the consumer project, so that the package and the SDK resolve from it. */
  get programDir(): string {
    return join(this.project.dir, "programs", this.projectName);
  }

  up(variant: Variant, resources: ResourceDescription[], options: Record<string, unknown> = {}): Promise<CommandFigures> {
    return this.run({ op: "up", variant, resources, options });
  }

  destroy(variant: Variant, options: Record<string, unknown> = {}): Promise<CommandFigures> {
    return this.run({ op: "destroy", variant, resources: [], options });
  }

  refresh(variant: Variant, resources: ResourceDescription[], options: Record<string, unknown> = {}): Promise<CommandFigures> {
    return this.run({ op: "refresh", variant, resources, options });
  }

  /** `pulumi import` of objects by the provider plugins' tokens, as a user brings in what exists already. */
  import(imports: NonNullable<CommandRequest["imports"]>, options: Record<string, unknown> = {}): Promise<CommandFigures> {
    return this.run({ op: "import", variant: "plugin", resources: [], options, imports });
  }

  /** The id of each resource of the state, by its name. */
  ids(): Record<string, string> {
    const resources: { urn: string; id?: string }[] = JSON.parse(readFileSync(this.stateFile, "utf8")).checkpoint?.latest?.resources ?? [];
    return Object.fromEntries(resources.filter((r) => r.id).map((r) => [r.urn.slice(r.urn.lastIndexOf("::") + 2), r.id!]));
  }

  /** Bytes of the stack's state file. */
  stateBytes(): number {
    return statSync(this.stateFile).size;
  }

  /** Bytes of the first dynamic resource's provider text (`__provider`) in the state, if there is one. */
  providerTextBytes(): number | undefined {
    const resources: { outputs?: { __provider?: string } }[] = JSON.parse(readFileSync(this.stateFile, "utf8")).checkpoint?.latest?.resources ?? [];
    const text = resources.find((r) => typeof r.outputs?.__provider === "string")?.outputs?.__provider;
    return text === undefined ? undefined : Buffer.byteLength(text);
  }

  private get stateFile(): string {
    return join(this.backend, ".pulumi/stacks", this.projectName, "dev.json");
  }

  remove(): void {
    rmSync(this.work, { recursive: true, force: true });
    rmSync(this.programDir, { recursive: true, force: true });
  }

  private async run(what: Pick<CommandRequest, "op" | "variant" | "resources" | "options" | "imports">): Promise<CommandFigures> {
    const request: CommandRequest = { ...what, project: this.projectName, stack: "dev", config: this.configured ? undefined : this.config };
    const file = join(this.work, `request-${++this.requests}.json`);
    writeFileSync(file, JSON.stringify(request));
    const child = spawn(process.execPath, [RUNNER, file], { cwd: this.programDir, env: this.env, stdio: ["ignore", "pipe", "pipe"] });
    const sampler = new ProcessTreeSampler(child.pid!);
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      if (!output.includes("@@begin") && (output + d).includes("@@begin")) sampler.mark();
      output += d;
    });
    child.stderr.on("data", (d: Buffer) => (output += d));
    await new Promise((resolve) => child.on("close", resolve));
    const { cpuMs, pluginProcesses } = sampler.stop();
    const at = output.lastIndexOf("@@result ");
    const result = at >= 0 ? (JSON.parse(output.slice(at + "@@result ".length)) as CommandResult) : undefined;
    if (!result?.ok) throw new Error(`pulumi ${what.op} of ${this.projectName} failed: ${result?.error ?? output.slice(-4000)}`);
    this.configured = true;
    return { ms: result.ms, cpuMs, totalCpuMs: result.ownCpuMs + result.childrenCpuMs, pluginProcesses, changes: result.changes };
  }
}
