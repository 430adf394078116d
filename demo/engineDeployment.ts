import { createRequire } from "node:module";
import { join, sep } from "node:path";
import { stripVTControlCharacters } from "node:util";
import type { ConfigMap, EngineEvent, OpMap, OpType, OutputMap, Stack } from "@pulumi/pulumi/automation";
import { linkedInterrupt } from "../automation/abort";
import { describeEngineEvent } from "../automation/progress";
import type { ConsumerProject } from "../toolchain/consumerProject";
import { offlineEngineEnv, type PulumiEngine } from "../toolchain/pulumiEngine";
import type { KeptStackShell } from "./keptStackShell";
import type { StateFolder } from "./stateFolder";
import { ADOPT_PENDING_CREATES } from "../provider/takeover/pendingCreates";
import { stackLocks } from "./stoppedRun";
import { adoptable, holderIn, pendingCreates, unrecordedPendingCreates, type PendingCreate } from "../provider/takeover/stackStates";

type Automation = typeof import("@pulumi/pulumi/automation");

/** What runs: a Node.js program (its main file, relative to the staged project) or the staged project's Pulumi.yaml. */
export type StagedProgram = { runtime: "nodejs"; main: string } | { runtime: "yaml" };

export interface DeploymentOptions {
  engine: PulumiEngine;
  /** The staged project: the program, and the packed package installed beside it. */
  project: ConsumerProject;
  program: StagedProgram;
  projectName: string;
  stack: string;
  config: ConfigMap;
  /** Environment of the CLI, the plugins and the program beyond this process's; an undefined value unsets one. */
  env: NodeJS.ProcessEnv;
  state: StateFolder;
  /** The commands to print for the kept stack. */
  shell: KeptStackShell;
  say: (line: string) => void;
  verbose: boolean;
  /** Aborted on Ctrl-C: each command's CLI is then interrupted, unless the Ctrl-C reached it already. */
  interrupt: AbortSignal;
}

/**
 * How long an interrupted command waits for the CLI to say that a SIGINT reached it already (a Ctrl-C in a terminal
 * reaches the CLI and the demo at once) before it interrupts the CLI itself.
 */
const CTRL_C_GRACE_MS = 1_500;

/** What a command of the engine did, besides its own result: the stack resource's step, which its counts include. */
export interface Counted<T> {
  result: T;
  /** The step of the stack resource (`pulumi:pulumi:Stack`), where the engine reported one. */
  stackOp?: OpType;
}

/**
 * A stack run through the Pulumi engine with the Automation API, as users run theirs. A Node.js program runs inline,
 * in this process: the user's module is loaded for each operation by the staged project's own `require`, so that one
 * copy of `@pulumi/pulumi` serves the Automation API and the program (the engine's dynamic provider plugin resolves
 * it, and the package, from the program's directory, the working directory). A YAML program runs as `pulumi` runs
 * it in the staged project's folder, with the provider plugins on PATH. The state is the state folder's file backend.
 */
export class Deployment {
  private errors: string[] = [];
  private stackOp?: OpType;
  /** The CLI's standard error, where it says what failed outside the engine's events (a YAML program's errors). */
  private stderr = "";
  /** Whether the CLI said that a SIGINT reached it ("^C received"). */
  private cliInterrupted = false;
  /** The pending creates (of a stopped run) the next up takes over, until it has. */
  private recovering: PendingCreate[] = [];

  private constructor(
    private readonly stack: Stack,
    private readonly options: DeploymentOptions,
  ) {}

  static async open(options: DeploymentOptions): Promise<Deployment> {
    const { project, state } = options;
    const env = offlineEngineEnv(
      options.engine,
      { home: state.home, backend: state.backend, passphrase: state.secret("passphrase"), extraPath: [project.binDir] },
      process.env,
    );
    for (const [key, value] of Object.entries({ ...env, ...options.env })) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    // The inline program's directory is this process's working directory, where the engine starts the plugins.
    process.chdir(project.dir);
    const requireFromProject = createRequire(join(project.dir, "package.json"));
    const { LocalWorkspace } = requireFromProject("@pulumi/pulumi/automation") as Automation;
    const stack =
      options.program.runtime === "nodejs"
        ? await LocalWorkspace.createOrSelectStack(
            {
              stackName: options.stack,
              projectName: options.projectName,
              program: inlineProgram(project.dir, options.program.main, requireFromProject),
            },
            { workDir: project.dir },
          )
        : await LocalWorkspace.createOrSelectStack({ stackName: options.stack, workDir: project.dir });
    await clearStaleLocks(stack, options);
    await stack.setAllConfig(options.config);
    const deployment = new Deployment(stack, options);
    await deployment.findPendingCreates();
    return deployment;
  }

  /**
   * The creates a stopped run left pending in the kept state (stoppedRun.ts), which the next up takes over with the
   * provider's recovery (provider/takeover/pendingCreates.ts): exactly these resources, each the object of its own identity,
   * never one that another stack of the backend holds (the emulator serves every stack of the project). Says so.
   */
  private async findPendingCreates(): Promise<void> {
    const pending = pendingCreates((await this.stack.exportStack()).deployment).filter(adoptable);
    if (pending.length === 0) return;
    const others = (await this.stack.workspace.listStacks()).filter((s) => s.name.split("/").pop() !== this.options.stack && s.resourceCount !== 0);
    const held = new Map<string, string>();
    for (const other of others) {
      const state = (await this.stack.workspace.exportStack(other.name)).deployment;
      for (const create of pending) {
        const holder = holderIn(state, create)?.urn;
        if (holder && !held.has(create.urn)) held.set(create.urn, `${resourceName(holder)} of stack ${other.name.split("/").pop()}`);
      }
    }
    this.recovering = pending.filter((p) => !held.has(p.urn));
    const names = (creates: PendingCreate[]) => creates.map((p) => resourceName(p.urn)).join(", ");
    if (this.recovering.length > 0) {
      const one = this.recovering.length === 1;
      this.options.say(
        `  a stopped run left ${one ? "a create" : `${this.recovering.length} creates`} pending (${names(this.recovering)}): the up takes over ` +
          `the object${one ? "" : "s"} the service made for ${one ? "it" : "them"}, if any, then clears the pending create${one ? "" : "s"}`,
      );
    }
    for (const [urn, holder] of held) {
      this.options.say(`  the pending create of ${resourceName(urn)} is left to its up: ${holder} holds an object of its identity`);
    }
  }

  /**
   * A preview. With `diff`, what the CLI prints, its diff of each resource included (the engine's own view of an
   * edit); otherwise a line per planned step.
   */
  async preview(diff: boolean): Promise<Counted<OpMap>> {
    return this.command(async (run) => {
      const result = await this.stack.preview({ ...run, diff, onEvent: this.events(!diff), onOutput: this.output(diff) });
      return result.changeSummary;
    });
  }

  /**
   * An up; after a stopped run, one that takes over the objects of its pending creates, naming their resources in
   * the provider's variable, then clears those pending creates, once every pending create is recorded.
   */
  async up(): Promise<Counted<{ changes: OpMap; outputs: OutputMap }>> {
    const recovering = this.recovering.map((p) => p.urn);
    if (recovering.length > 0) this.stack.workspace.envVars[ADOPT_PENDING_CREATES] = recovering.join(" ");
    let up: Counted<{ changes: OpMap; outputs: OutputMap }>;
    try {
      up = await this.command(async (run) => {
        const result = await this.stack.up({ ...run, onEvent: this.events(true), onOutput: this.output(false) });
        return { changes: result.summary.resourceChanges ?? {}, outputs: result.outputs };
      });
    } finally {
      delete this.stack.workspace.envVars[ADOPT_PENDING_CREATES];
    }
    if (recovering.length > 0) await this.clearPendingCreates(recovering);
    return up;
  }

  /**
   * Clears the pending creates the up recorded. The engine clears every pending create of the stack at once
   * (`pulumi refresh --clear-pending-creates`, whatever `--target` says, even where the refresh then fails on a
   * target: pkg/cmd/pulumi/operations/refresh.go), so only where each is recorded now: one of a resource the up did
   * not record (the program no longer declares it) stays, for the user to look into.
   */
  private async clearPendingCreates(recovered: string[]): Promise<void> {
    const unrecorded = unrecordedPendingCreates((await this.stack.exportStack()).deployment);
    this.recovering = [];
    if (unrecorded.length > 0) {
      const names = unrecorded.map((p) => resourceName(p.urn)).join(", ");
      this.options.say(
        `  the pending creates stay: this up did not record ${names} (not in the program?); once you have looked into ` +
          `what its create made, \`pulumi refresh --clear-pending-creates\` clears them`,
      );
      return;
    }
    await this.command((run) => this.stack.refresh({ ...run, clearPendingCreates: true, target: recovered, onOutput: this.output(false) }));
    const one = recovered.length === 1;
    this.options.say(`  cleared the pending create${one ? "" : "s"} of ${recovered.map(resourceName).join(", ")}, recorded now`);
  }

  async destroy(): Promise<Counted<OpMap>> {
    return this.command(async (run) => {
      const result = await this.stack.destroy({ ...run, onEvent: this.events(true), onOutput: this.output(false) });
      return result.summary.resourceChanges ?? {};
    });
  }

  /** Whether the stack's state holds anything but the stack resource: what a destroy would delete. */
  async holdsResources(): Promise<boolean> {
    const deployment = (await this.stack.exportStack()).deployment as { resources?: { type: string }[] };
    const resources = (deployment.resources ?? []).filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"));
    return resources.length > 0;
  }

  /** Removes the stack from the backend (its resources must be gone). */
  removeStack(): Promise<void> {
    return this.stack.workspace.removeStack(this.options.stack);
  }

  /**
   * An operation, interrupted on Ctrl-C, its output without colour where the demo's is not a terminal. Its failure
   * is what the engine reported, each error once: the errors of its diagnostics, else the CLI's standard error (where
   * a YAML program's errors are), rather than the Automation API's dump of the CLI's whole output.
   */
  private async command<T>(
    body: (run: { signal: AbortSignal; color: "always" | "never"; onError: (text: string) => void }) => Promise<T>,
  ): Promise<Counted<T>> {
    this.errors = [];
    this.stackOp = undefined;
    this.stderr = "";
    this.cliInterrupted = false;
    const link = linkedInterrupt(this.options.interrupt, () => this.cliInterrupted, CTRL_C_GRACE_MS);
    try {
      const result = await body({
        signal: link.signal,
        color: process.stdout.isTTY ? "always" : "never",
        onError: (text) => (this.stderr += text),
      });
      return { result, stackOp: this.stackOp };
    } catch (err) {
      throw new Error(this.failure(err), { cause: err });
    } finally {
      link.dispose();
    }
  }

  private failure(err: unknown): string {
    const errors = [...new Set(this.errors)];
    if (errors.length > 0) return errors.join("\n");
    const stderr = this.stderr
      .split("\n")
      .map((line) => (process.stdout.isTTY ? line : stripVTControlCharacters(line)))
      .filter((line) => !OWN_SET_UP.test(line))
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
    if (stderr) return stderr;
    return err instanceof Error ? err.message : String(err);
  }

  /**
   * What the engine reports: the stack resource's step noted, errors kept for the failure (not printed: the failure
   * says them, once) and, with `lines`, a line per step and diagnostic, as automation/progress.ts words them, less
   * what the demo's own lines say (the summary), the default providers' steps and the SDK's debug messages.
   */
  private events(lines: boolean): (event: EngineEvent) => void {
    return (event) => {
      const step = event.resourcePreEvent?.metadata;
      if (step?.type === "pulumi:pulumi:Stack") this.stackOp = step.op;
      if (this.keepError(event) || !lines) return;
      if (isOwnSetUp(event) || event.summaryEvent || isDebug(event) || isDefaultProvider(event)) return;
      const line = describeEngineEvent(event);
      if (line) this.options.say(`  ${line}`);
    };
  }

  private keepError(event: EngineEvent): boolean {
    const d = event.diagnosticEvent;
    if (!d || d.severity !== "error") return false;
    const message = process.stdout.isTTY ? d.message.trim() : stripVTControlCharacters(d.message).trim();
    if (message) {
      const where = d.urn ? `${d.urn.slice(d.urn.lastIndexOf("::") + 2)}: ` : "";
      this.errors.push(`${where}${message}`);
    }
    return true;
  }

  /**
   * The CLI's standard output: with `print`, line by line, indented, without the notes on the plugins the demo put on
   * PATH; else only with --verbose. Either way its word that a SIGINT reached it is noted.
   */
  private output(print: boolean): (text: string) => void {
    let pending = "";
    return (text) => {
      if (text.includes("^C received")) this.cliInterrupted = true;
      if (!print) {
        if (this.options.verbose) process.stdout.write(text);
        return;
      }
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      // The demo says what a Ctrl-C does itself (interruption.ts).
      for (const line of lines) if (!OWN_SET_UP.test(line) && !line.includes("^C received")) this.options.say(`  ${line}`);
    };
  }
}

/**
 * Clears the lock a `pulumi` command killed on this stack left (its process gone): the CLI would refuse the stack,
 * naming `pulumi cancel`, which the user may not have on PATH. A lock of a command that still runs stops the run,
 * with the command that clears it where that command is not running after all.
 */
async function clearStaleLocks(stack: Stack, options: DeploymentOptions): Promise<void> {
  const locks = stackLocks(options.state.backend, options.projectName, options.stack);
  if (locks.length === 0) return;
  const running = locks.filter((l) => l.running);
  if (running.length > 0) {
    const who = running.map((l) => `pid ${l.pid} on ${l.hostname}`).join(", ");
    throw new Error(
      `the stack is locked by a \`pulumi\` command that still runs (${who}): let it end, or stop it. If it is not running ` +
        `after all, clear the lock with:\n  ${options.shell.environment()}\n  ${options.shell.command(["cancel", "--yes", "--stack", options.shell.stack])}`,
    );
  }
  await stack.cancel();
  options.say(`  cleared the lock of a \`pulumi\` command that was stopped (pid ${locks.map((l) => l.pid).join(", ")}, no longer running)`);
}

/** `RunTask scanner` for a resource's URN. */
function resourceName(urn: string): string {
  const [type, name] = urn.split("::").slice(-2);
  return `${type.slice(type.lastIndexOf(":") + 1)} ${name}`;
}

/** The engine's note on each plugin found on PATH, which is where the demo puts the package's plugins. */
const OWN_SET_UP = /using pulumi-resource-[\w-]+ from \$PATH/;

function isOwnSetUp(event: EngineEvent): boolean {
  return event.diagnosticEvent !== undefined && OWN_SET_UP.test(event.diagnosticEvent.message);
}

/** The SDK's debug messages, which the event stream carries although the Automation API's types leave them out. */
function isDebug(event: EngineEvent): boolean {
  return (event.diagnosticEvent?.severity as string | undefined) === "debug";
}

/** A step of a default provider, which the engine makes for resources that name none (the CLI leaves them out too). */
function isDefaultProvider(event: EngineEvent): boolean {
  const urn = (event.resourcePreEvent ?? event.resOutputsEvent ?? event.resOpFailedEvent)?.metadata.urn ?? "";
  return /::pulumi:providers:[\w-]+::default(_[\w-]+)?$/.test(urn);
}

/**
 * The program of an inline stack: the user's main module, loaded afresh for each operation (its files dropped from
 * the module cache, not the packages'), run as the Node.js language host runs one: a module that exports a
 * function is called and its result is the stack outputs, else its exports are.
 */
function inlineProgram(dir: string, main: string, requireFromProject: NodeJS.Require): () => Promise<Record<string, unknown> | void> {
  return async () => {
    for (const key of Object.keys(requireFromProject.cache)) {
      if (key.startsWith(dir + sep) && !key.includes(`${sep}node_modules${sep}`)) delete requireFromProject.cache[key];
    }
    const exported: unknown = await requireFromProject(join(dir, main));
    const fn =
      typeof exported === "function"
        ? exported
        : exported !== null && typeof exported === "object" && "default" in exported && typeof exported.default === "function"
          ? exported.default
          : undefined;
    const outputs: unknown = fn ? await fn() : exported;
    return outputs !== null && typeof outputs === "object" ? (outputs as Record<string, unknown>) : undefined;
  };
}
