import { inDependencyOrder, inReverseDependencyOrder } from "./order";
import { ResourceInitFailed } from "./plugin/initFailure";
import type { PluginLauncher, ProviderPlugin } from "./plugin/providerPlugin";
import type { ResourceProviderClient } from "./plugin/resourceProviderClient";
import { customTimeoutSeconds } from "./customTimeouts";
import { ignoringChanges } from "./ignoreChanges";
import { resolveIds, type Registration } from "./registration";
import { secretOutputKeys, stripSecrets } from "./secrets";
import { StackState, type ResourceState } from "./state";
import type { Step, StepEvent, StepOp } from "./steps";

export interface EngineOptions {
  /** Starts the provider plugin, once per command (e.g. dynamicProviderPlugin(programDir)). */
  plugin: PluginLauncher;
  stateFile: string;
  /** The stack config, as `pulumi config` holds it (secrets decrypted, as the engine hands them over). */
  config: Record<string, string>;
  /** Resource operations in flight at once, dependencies respected (`pulumi up --parallel`). Default 1. */
  parallelism?: number;
  /** Progress, one resource at a time (what the CLI displays). */
  onEvent?: (event: StepEvent) => void;
}

/**
 * A stand-in for the Pulumi engine, small enough to read: it drives a provider plugin through the calls
 * `pulumi preview`, `up`, `refresh` and `destroy` make, in the engine's order, keeping a state file of inputs
 * and outputs. Each command starts a fresh plugin process and configures it with the stack config, as each
 * `pulumi` command does. Replacements are create-before-delete, and the old resource is deleted with the
 * provider text stored in its state. Secrets are stripped before calls and re-marked after them, as the engine
 * does for a provider that declines them (the dynamic provider plugin does). A create or update that fails with the
 * partial-creation answer (`ErrorResourceInitFailed`) records the object it names with its init errors, and the next
 * `up` updates it whatever its diff, as pulumi/pulumi's `pkg/resource/plugin/provider_plugin.go` (`parseError`),
 * `pkg/resource/deploy/step.go` and `step_generator.go` (`hasInitErrors`) do.
 */
export class Engine {
  /** All the plugin printed, across commands. */
  pluginOutput = "";
  /** Every error message the plugin returned, across commands. */
  errors: string[] = [];
  /** Peak resident memory of the last command's plugin process, in KiB (Linux), for benchmarks. */
  lastPeakRssKb: number | undefined;
  /** Milliseconds the last command spent on resource operations (plugin start and stop excluded). */
  lastOperationsMs = 0;
  /**
   * CPU milliseconds the last command's resource operations took, in the plugin process and in this process
   * (the engine's share; the emulator's too when it runs here), for benchmarks. Undefined where /proc is absent.
   */
  lastOperationsCpuMs: { plugin: number | undefined; engine: number } = { plugin: undefined, engine: 0 };

  constructor(private readonly options: EngineOptions) {}

  state(): StackState {
    return StackState.load(this.options.stateFile);
  }

  /**
   * Writes the state for keeping after the driver is done with it: its secrets encrypted with `passphrase` (as the
   * Pulumi engine's passphrase secrets provider keeps them), readable by its owner only. `StackState.load` with the
   * same passphrase reads it back.
   */
  seal(passphrase: string): void {
    this.state().save(passphrase);
  }

  setConfig(config: Record<string, string>): void {
    this.options.config = config;
  }

  /** `pulumi preview`: Check and Diff only; returns the planned steps. */
  async preview(program: Registration[]): Promise<Step[]> {
    return this.command(async (plugin, state) => {
      const steps: Step[] = [];
      const plan = (step: Step, type: string) => {
        steps.push(step);
        this.emit("planned", step.op, type, step.name);
      };
      const pendingIds = new Set<string>();
      for (const reg of program) {
        const old = state.get(reg.name);
        const { plain } = stripSecrets(resolveIds(reg.inputs, state, pendingIds));
        const checked = await this.check(plugin, reg, old, ignoringChanges(plain, old?.inputs, reg.ignoreChanges));
        if (!old) {
          plan({ op: "create", name: reg.name }, reg.type);
          pendingIds.add(reg.name);
          continue;
        }
        const step = await this.plan(plugin, reg, old, checked);
        if (step.op === "replace") pendingIds.add(reg.name);
        plan(step, reg.type);
      }
      for (const r of state.resources)
        if (!program.some((p) => p.name === r.name)) plan({ op: "delete", name: r.name, retained: r.retainOnDelete || undefined }, r.type);
      return steps;
    });
  }

  /** `pulumi up`: creates, updates, replaces and deletes until the state matches the program. */
  async up(program: Registration[]): Promise<Step[]> {
    return this.command(async (plugin, state) => {
      const steps: Step[] = [];
      const replaced: ResourceState[] = [];
      await inDependencyOrder(program, this.parallelism, async (reg) => {
        const old = state.get(reg.name);
        const { plain, secretKeys } = stripSecrets(resolveIds(reg.inputs, state, new Set()));
        const checked = await this.check(plugin, reg, old, ignoringChanges(plain, old?.inputs, reg.ignoreChanges));
        const step = old ? await this.plan(plugin, reg, old, checked) : { op: "create" as const, name: reg.name };
        steps.push(step);
        if (step.op === "same") {
          // The engine keeps the old outputs (and their provider text) and records the new inputs.
          state.put({ ...old!, inputs: checked, secretInputs: secretKeys, retainOnDelete: reg.retainOnDelete });
          this.emit("done", "same", reg.type, reg.name, old!.id);
          return;
        }
        await this.step(
          step.op,
          reg,
          async () => {
            const timeouts = customTimeoutSeconds(reg.customTimeouts);
            // An object made or changed by a call that failed is recorded with the reasons as its init errors.
            const recordingInitFailure = async <T>(call: Promise<T>, id?: string): Promise<T> => {
              try {
                return await call;
              } catch (err) {
                if (err instanceof ResourceInitFailed) state.put(this.record(reg, id ?? err.id, checked, err.properties, secretKeys, err.reasons));
                throw err;
              }
            };
            if (step.op === "update") {
              const outputs = await recordingInitFailure(
                plugin.update(reg.urn, old!.id, old!.outputs, checked, { timeout: timeouts.update, ignoreChanges: reg.ignoreChanges }),
                old!.id,
              );
              state.put(this.record(reg, old!.id, checked, outputs, secretKeys));
              return old!.id;
            }
            if (step.op === "replace") replaced.push(old!);
            const { id, outputs } = await recordingInitFailure(plugin.create(reg.urn, checked, timeouts.create));
            state.put(this.record(reg, id, checked, outputs, secretKeys));
            return id;
          },
          (id) => id,
        );
      });
      const removed = state.resources.filter((r) => !program.some((p) => p.name === r.name));
      await inReverseDependencyOrder(removed, this.parallelism, async (r) => {
        await this.delete(plugin, r);
        state.remove(r.name);
        steps.push({ op: "delete", name: r.name, retained: r.retainOnDelete || undefined });
      });
      // Replaced resources go last, each with the provider text of its own state.
      await inReverseDependencyOrder(replaced, this.parallelism, (old) => this.delete(plugin, old));
      return steps;
    });
  }

  /** `pulumi refresh`: reads every resource; an empty id means it is gone and leaves the state. */
  async refresh(): Promise<Step[]> {
    return this.command(async (plugin, state) => {
      const steps: Step[] = [];
      for (const r of [...state.resources]) {
        // The event's id is empty when the resource is gone.
        const read = await this.step(
          "refresh",
          r,
          () => plugin.read(r.urn, r.id, r.outputs, r.inputs),
          (answer) => answer.id || undefined,
        );
        if (!read.id) {
          state.remove(r.name);
          steps.push({ op: "gone", name: r.name });
        } else {
          const drift = JSON.stringify(sorted(read.outputs)) !== JSON.stringify(sorted(r.outputs));
          const inputs = read.inputs ?? r.inputs;
          state.put({
            ...r,
            id: read.id,
            outputs: read.outputs,
            inputs,
            secretOutputs: secretOutputKeys(read.outputs, r.secretInputs, r.additionalSecretOutputs),
            // A read that succeeds clears init errors (step.go, RefreshStep.Apply).
            initErrors: undefined,
          });
          steps.push({ op: "refresh", name: r.name, detail: drift });
        }
      }
      return steps;
    });
  }

  /** `pulumi destroy`: deletes dependents before what they depend on, with each resource's stored provider text. */
  async destroy(): Promise<Step[]> {
    return this.command(async (plugin, state) => {
      const steps: Step[] = [];
      await inReverseDependencyOrder([...state.resources], this.parallelism, async (r) => {
        await this.delete(plugin, r);
        state.remove(r.name);
        steps.push({ op: "delete", name: r.name, retained: r.retainOnDelete || undefined });
      });
      return steps;
    });
  }

  private get parallelism(): number {
    return this.options.parallelism ?? 1;
  }

  private async command<T>(body: (plugin: ResourceProviderClient, state: StackState) => Promise<T>): Promise<T> {
    let plugin: ProviderPlugin | undefined;
    const state = this.state();
    try {
      plugin = await this.options.plugin.start();
      const { acceptSecrets } = await plugin.client.configure(this.options.config);
      if (acceptSecrets)
        throw new Error(
          "the plugin accepts secrets: this driver strips them before every call, as the engine does only for a provider that declines them",
        );
      const started = process.hrtime.bigint();
      const engineCpu = process.cpuUsage();
      const pluginCpu = plugin.process.cpuMs();
      const result = await body(plugin.client, state);
      this.lastOperationsMs = Number(process.hrtime.bigint() - started) / 1e6;
      const { user, system } = process.cpuUsage(engineCpu);
      const pluginCpuAfter = plugin.process.cpuMs();
      this.lastOperationsCpuMs = {
        plugin: pluginCpu === undefined || pluginCpuAfter === undefined ? undefined : pluginCpuAfter - pluginCpu,
        engine: (user + system) / 1000,
      };
      return result;
    } catch (err) {
      this.errors.push(err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      // What was done is recorded even when the command fails part way, as the engine's journal does.
      state.save();
      if (plugin) {
        this.lastPeakRssKb = plugin.process.peakRssKb();
        await plugin.stop();
        this.pluginOutput += plugin.output;
      }
    }
  }

  /** One resource operation, reported as started, then done (with the resource's id) or failed. */
  private async step<T>(
    op: StepOp,
    r: { type: string; name: string; retainOnDelete?: boolean },
    body: () => Promise<T>,
    idOf: (result: T) => string | undefined,
  ): Promise<T> {
    const event = { op, type: r.type, name: r.name, retained: (op === "delete" && r.retainOnDelete) || undefined };
    this.options.onEvent?.({ phase: "started", ...event });
    try {
      const result = await body();
      this.options.onEvent?.({ phase: "done", ...event, id: idOf(result) });
      return result;
    } catch (err) {
      this.options.onEvent?.({ phase: "failed", ...event, error: err instanceof Error ? err.message : String(err) });
      throw err;
    }
  }

  private emit(phase: StepEvent["phase"], op: StepOp, type: string, name: string, id?: string): void {
    this.options.onEvent?.({ phase, op, type, name, id });
  }

  /** Deletes with the provider text stored in the resource's state; a retained resource only leaves the state. */
  private delete(plugin: ResourceProviderClient, r: ResourceState): Promise<void> {
    return this.step(
      "delete",
      r,
      async () => (r.retainOnDelete ? undefined : plugin.delete(r.urn, r.id, r.outputs, customTimeoutSeconds(r.customTimeouts).delete)),
      () => r.id,
    );
  }

  private async check(plugin: ResourceProviderClient, reg: Registration, old: ResourceState | undefined, news: Record<string, unknown>) {
    const { inputs, failures } = await plugin.check(reg.urn, old?.inputs ?? {}, news);
    if (failures.length > 0) {
      throw new Error(`${reg.name}: invalid arguments: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    }
    return inputs;
  }

  private async plan(plugin: ResourceProviderClient, reg: Registration, old: ResourceState, checked: Record<string, unknown>): Promise<Step> {
    const diff = await plugin.diff(reg.urn, old.id, old.outputs, checked, old.inputs, reg.ignoreChanges);
    if (diff.changes === "unknown") throw new Error(`${reg.name}: the provider answered an unknown diff (every provider change would update it)`);
    // A resource with init errors is updated whatever its diff (step_generator.go, "hasInitErrors").
    if (diff.changes === "none") return old.initErrors?.length ? { op: "update", name: reg.name } : { op: "same", name: reg.name };
    if (diff.replaces.length > 0) return { op: "replace", name: reg.name, detail: diff.replaces };
    return { op: "update", name: reg.name };
  }

  private record(
    reg: Registration,
    id: string,
    inputs: Record<string, unknown>,
    outputs: Record<string, unknown>,
    secretInputs: string[],
    initErrors?: string[],
  ): ResourceState {
    return {
      urn: reg.urn,
      type: reg.type,
      name: reg.name,
      id,
      inputs,
      outputs,
      secretInputs,
      secretOutputs: secretOutputKeys(outputs, secretInputs, reg.additionalSecretOutputs),
      additionalSecretOutputs: reg.additionalSecretOutputs,
      dependencies: reg.dependencies,
      retainOnDelete: reg.retainOnDelete,
      customTimeouts: reg.customTimeouts,
      ...(initErrors?.length ? { initErrors } : {}),
    };
  }
}

function sorted(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(o)
      .filter(([k]) => k !== "__provider")
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
