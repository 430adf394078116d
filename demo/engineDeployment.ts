import { createRequire } from "node:module";
import { join, sep } from "node:path";
import type { ConfigMap, EngineEvent, OpMap, OutputMap, Stack } from "@pulumi/pulumi/automation";
import { describeEngineEvent } from "../automation/progress";
import type { ConsumerProject } from "../toolchain/consumerProject";
import { offlineEngineEnv, type PulumiEngine } from "../toolchain/pulumiEngine";
import type { StateFolder } from "./stateFolder";

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
  say: (line: string) => void;
  verbose: boolean;
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
    await stack.setAllConfig(options.config);
    return new Deployment(stack, options);
  }

  /**
   * A preview. With `diff`, what the CLI prints, its diff of each resource included (the engine's own view of an
   * edit); otherwise a line per planned step.
   */
  async preview(diff: boolean): Promise<OpMap> {
    const result = await this.command(() =>
      this.stack.preview({ diff, onEvent: diff ? this.diagnosticsOnly() : this.progress(), onOutput: diff ? this.printer() : this.verboseOutput() }),
    );
    return result.changeSummary;
  }

  async up(): Promise<{ changes: OpMap; outputs: OutputMap }> {
    const result = await this.command(() => this.stack.up({ onEvent: this.progress(), onOutput: this.verboseOutput() }));
    return { changes: result.summary.resourceChanges ?? {}, outputs: result.outputs };
  }

  async destroy(): Promise<OpMap> {
    const result = await this.command(() => this.stack.destroy({ onEvent: this.progress(), onOutput: this.verboseOutput() }));
    return result.summary.resourceChanges ?? {};
  }

  /** Removes the stack from the backend (its resources must be gone). */
  removeStack(): Promise<void> {
    return this.stack.workspace.removeStack(this.options.stack);
  }

  /** An operation; its failure is the engine's errors, as it reported them, rather than the CLI's whole output. */
  private async command<T>(run: () => Promise<T>): Promise<T> {
    this.errors = [];
    try {
      return await run();
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      const reported = this.errors.length > 0 ? this.errors : text.split("\n").filter((l) => /^error: /.test(l));
      throw new Error(reported.length > 0 ? reported.join("\n") : text, { cause: err });
    }
  }

  /**
   * A line per step and diagnostic, as automation/progress.ts words them, less what the demo's own lines say (the
   * summary), the default providers' steps and the SDK's debug messages; errors kept for the failure.
   */
  private progress(): (event: EngineEvent) => void {
    return (event) => {
      this.keepError(event);
      if (isOwnSetUp(event) || event.summaryEvent || isDebug(event) || isDefaultProvider(event)) return;
      const line = describeEngineEvent(event);
      if (line) this.options.say(`  ${line}`);
    };
  }

  /** Only errors kept: the CLI's output says the rest. */
  private diagnosticsOnly(): (event: EngineEvent) => void {
    return (event) => this.keepError(event);
  }

  private keepError(event: EngineEvent): void {
    const d = event.diagnosticEvent;
    if (d && d.severity === "error" && d.message.trim()) {
      const where = d.urn ? `${d.urn.slice(d.urn.lastIndexOf("::") + 2)}: ` : "";
      this.errors.push(`${where}${d.message.trim()}`);
    }
  }

  /** The CLI's output, line by line, indented, without the notes on the plugins the demo put on PATH. */
  private printer(): (text: string) => void {
    let pending = "";
    return (text) => {
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (!OWN_SET_UP.test(line)) this.options.say(`  ${line}`);
    };
  }

  private verboseOutput(): ((text: string) => void) | undefined {
    return this.options.verbose ? (text) => process.stdout.write(text) : undefined;
  }
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
