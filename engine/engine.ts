import type { PluginLauncher, ProviderPlugin } from "./plugin/providerPlugin";
import type { ResourceProviderClient } from "./plugin/resourceProviderClient";
import { secretOutputKeys, stripSecrets } from "./secrets";
import { StackState, type ResourceState } from "./state";

/** What the program registered for one resource, as captured under mocks (see fixture/capture.js). */
export interface Registration {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  additionalSecretOutputs: string[];
  dependencies: string[];
}

export type StepOp = "create" | "update" | "replace" | "same" | "delete" | "refresh" | "gone";

export interface Step {
  op: StepOp;
  name: string;
  /** For refresh: whether the outputs changed (drift). For replace/update: the diff's replaced keys. */
  detail?: string[] | boolean;
}

export interface EngineOptions {
  /** Starts the provider plugin, once per command (e.g. dynamicProviderPlugin(programDir)). */
  plugin: PluginLauncher;
  stateFile: string;
  /** The stack config, as `pulumi config` holds it (secrets decrypted, as the engine hands them over). */
  config: Record<string, string>;
  /** Resource operations in flight at once, dependencies respected (`pulumi up --parallel`). Default 1. */
  parallelism?: number;
}

export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * A stand-in for the Pulumi engine, small enough to read: it drives a provider plugin through the calls
 * `pulumi preview`, `up`, `refresh` and `destroy` make, in the engine's order, keeping a state file of inputs
 * and outputs. Each command starts a fresh plugin process and configures it with the stack config, as each
 * `pulumi` command does. Replacements are create-before-delete, and the old resource is deleted with the
 * provider text stored in its state. Secrets are stripped before calls and re-marked after them, as the engine
 * does for a provider that declines them (the dynamic provider plugin does).
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

  setConfig(config: Record<string, string>): void {
    this.options.config = config;
  }

  /** `pulumi preview`: Check and Diff only; returns the planned steps. */
  async preview(program: Registration[]): Promise<Step[]> {
    return this.command(async (plugin, state) => {
      const steps: Step[] = [];
      const pendingIds = new Set<string>();
      for (const reg of program) {
        const old = state.get(reg.name);
        const { plain } = stripSecrets(resolveIds(reg.inputs, state, pendingIds));
        const checked = await this.check(plugin, reg, old, plain);
        if (!old) {
          steps.push({ op: "create", name: reg.name });
          pendingIds.add(reg.name);
          continue;
        }
        const step = await this.plan(plugin, reg, old, checked);
        if (step.op === "replace") pendingIds.add(reg.name);
        steps.push(step);
      }
      for (const r of state.resources) if (!program.some((p) => p.name === r.name)) steps.push({ op: "delete", name: r.name });
      return steps;
    });
  }

  /** `pulumi up`: creates, updates, replaces and deletes until the state matches the program. */
  async up(program: Registration[]): Promise<Step[]> {
    return this.command(async (plugin, state) => {
      const steps: Step[] = [];
      const replaced: ResourceState[] = [];
      await this.inDependencyOrder(program, async (reg) => {
        const old = state.get(reg.name);
        const { plain, secretKeys } = stripSecrets(resolveIds(reg.inputs, state, new Set()));
        const checked = await this.check(plugin, reg, old, plain);
        const step = old ? await this.plan(plugin, reg, old, checked) : { op: "create" as const, name: reg.name };
        steps.push(step);
        if (step.op === "same") {
          // The engine keeps the old outputs (and their provider text) and records the new inputs.
          state.put({ ...old!, inputs: checked, secretInputs: secretKeys });
        } else if (step.op === "update") {
          const outputs = await plugin.update(urnOf(reg), old!.id, old!.outputs, checked);
          state.put(this.record(reg, old!.id, checked, outputs, secretKeys));
        } else {
          if (step.op === "replace") replaced.push(old!);
          const { id, outputs } = await plugin.create(urnOf(reg), checked);
          state.put(this.record(reg, id, checked, outputs, secretKeys));
        }
      });
      const removed = state.resources.filter((r) => !program.some((p) => p.name === r.name));
      await this.inReverseDependencyOrder(removed, async (r) => {
        await plugin.delete(r.urn, r.id, r.outputs);
        state.remove(r.name);
        steps.push({ op: "delete", name: r.name });
      });
      // Replaced resources go last, each with the provider text of its own state.
      await this.inReverseDependencyOrder(replaced, (old) => plugin.delete(old.urn, old.id, old.outputs));
      return steps;
    });
  }

  /** `pulumi refresh`: reads every resource; an empty id means it is gone and leaves the state. */
  async refresh(): Promise<Step[]> {
    return this.command(async (plugin, state) => {
      const steps: Step[] = [];
      for (const r of [...state.resources]) {
        const read = await plugin.read(r.urn, r.id, r.outputs, r.inputs);
        if (!read.id) {
          state.remove(r.name);
          steps.push({ op: "gone", name: r.name });
        } else {
          const drift = JSON.stringify(sorted(read.outputs)) !== JSON.stringify(sorted(r.outputs));
          const inputs = read.inputs ?? r.inputs;
          state.put({ ...r, id: read.id, outputs: read.outputs, inputs, secretOutputs: secretOutputKeys(read.outputs, r.secretInputs, r.additionalSecretOutputs) });
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
      await this.inReverseDependencyOrder([...state.resources], async (r) => {
        await plugin.delete(r.urn, r.id, r.outputs);
        state.remove(r.name);
        steps.push({ op: "delete", name: r.name });
      });
      return steps;
    });
  }

  /** Runs `op` for every registration once its dependencies are done, `parallelism` at a time. */
  private async inDependencyOrder(regs: Registration[], op: (reg: Registration) => Promise<void>): Promise<void> {
    const done = new Map<string, Promise<void>>();
    const slots = new Semaphore(this.options.parallelism ?? 1);
    for (const reg of regs) {
      const deps = reg.dependencies.map((urn) => done.get(urn)).filter((p): p is Promise<void> => p !== undefined);
      done.set(urnOf(reg), Promise.all(deps).then(() => slots.run(() => op(reg))));
    }
    await Promise.all(done.values());
  }

  /** Runs `op` for every resource once everything that depends on it is done, `parallelism` at a time. */
  private async inReverseDependencyOrder<T extends { urn: string; dependencies?: string[] }>(items: T[], op: (item: T) => Promise<void>): Promise<void> {
    const done = new Map<string, Promise<void>>();
    const slots = new Semaphore(this.options.parallelism ?? 1);
    for (const item of [...items].reverse()) {
      const dependents = items.filter((other) => other.dependencies?.includes(item.urn)).map((d) => done.get(d.urn)).filter((p): p is Promise<void> => p !== undefined);
      done.set(item.urn, Promise.all(dependents).then(() => slots.run(() => op(item))));
    }
    await Promise.all(done.values());
  }

  private async command<T>(body: (plugin: ResourceProviderClient, state: StackState) => Promise<T>): Promise<T> {
    let plugin: ProviderPlugin | undefined;
    const state = this.state();
    try {
      plugin = await this.options.plugin.start();
      const { acceptSecrets } = await plugin.client.configure(this.options.config);
      if (acceptSecrets) throw new Error("the plugin accepts secrets: this driver strips them before every call, as the engine does only for a provider that declines them");
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

  private async check(plugin: ResourceProviderClient, reg: Registration, old: ResourceState | undefined, news: Record<string, unknown>) {
    const { inputs, failures } = await plugin.check(urnOf(reg), old?.inputs ?? {}, news);
    if (failures.length > 0) {
      throw new Error(`${reg.name}: invalid arguments: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    }
    return inputs;
  }

  private async plan(plugin: ResourceProviderClient, reg: Registration, old: ResourceState, checked: Record<string, unknown>): Promise<Step> {
    const diff = await plugin.diff(urnOf(reg), old.id, old.outputs, checked);
    if (diff.changes === "unknown") throw new Error(`${reg.name}: the provider answered an unknown diff (every provider change would update it)`);
    if (diff.changes === "none") return { op: "same", name: reg.name };
    if (diff.replaces.length > 0) return { op: "replace", name: reg.name, detail: diff.replaces };
    return { op: "update", name: reg.name };
  }

  private record(reg: Registration, id: string, inputs: Record<string, unknown>, outputs: Record<string, unknown>, secretInputs: string[]): ResourceState {
    return {
      urn: urnOf(reg),
      type: reg.type,
      name: reg.name,
      id,
      inputs,
      outputs,
      secretInputs,
      secretOutputs: secretOutputKeys(outputs, secretInputs, reg.additionalSecretOutputs),
      additionalSecretOutputs: reg.additionalSecretOutputs,
      dependencies: reg.dependencies,
    };
  }
}

/** At most `size` tasks at once. */
class Semaphore {
  private waiting: (() => void)[] = [];
  private active = 0;
  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

export function urnOf(reg: { type: string; name: string }): string {
  return `urn:pulumi:conformance::conformance-fixture::${reg.type}::${reg.name}`;
}

/** `@id:<name>` placeholders become the id in state, or unknown when the resource is not (yet) there. */
function resolveIds<T>(value: T, state: StackState, pending: Set<string>): T;
function resolveIds(value: unknown, state: StackState, pending: Set<string>): unknown {
  if (typeof value === "string" && value.startsWith("@id:")) {
    const name = value.slice(4);
    const r = state.get(name);
    return r && !pending.has(name) ? r.id : UNKNOWN;
  }
  if (Array.isArray(value)) return value.map((v) => resolveIds(v, state, pending));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveIds(v, state, pending)]));
  return value;
}

function sorted(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => k !== "__provider").sort(([a], [b]) => a.localeCompare(b)));
}
