import { DynamicPlugin } from "./plugin";
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
  /** The program's directory: the plugin runs there and resolves the package from its node_modules. */
  programDir: string;
  stateFile: string;
  /** The stack config, as `pulumi config` holds it (secrets decrypted, as the engine hands them over). */
  config: Record<string, string>;
  env?: NodeJS.ProcessEnv;
}

export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * A stand-in for the Pulumi engine, small enough to read: it drives the dynamic provider plugin through the
 * calls `pulumi preview`, `up`, `refresh` and `destroy` make, in the engine's order, keeping a state file of
 * inputs and outputs. Each command starts a fresh plugin process and configures it with the stack config, as
 * each `pulumi` command does. Replacements are create-before-delete, and the old resource is deleted with the
 * provider text stored in its state. Secrets are stripped before calls and re-marked after them.
 */
export class Engine {
  /** All the plugin printed, across commands. */
  pluginOutput = "";
  /** Every error message the plugin returned, across commands. */
  errors: string[] = [];

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
      for (const reg of program) {
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
        state.save();
      }
      for (const r of [...state.resources].reverse()) {
        if (program.some((p) => p.name === r.name)) continue;
        await plugin.delete(r.urn, r.id, r.outputs);
        state.remove(r.name);
        state.save();
        steps.push({ op: "delete", name: r.name });
      }
      // Replaced resources go last, each with the provider text of its own state.
      for (const old of replaced) await plugin.delete(old.urn, old.id, old.outputs);
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
        state.save();
      }
      return steps;
    });
  }

  /** `pulumi destroy`: deletes in reverse dependency order, with each resource's stored provider text. */
  async destroy(): Promise<Step[]> {
    return this.command(async (plugin, state) => {
      const steps: Step[] = [];
      for (const r of [...state.resources].reverse()) {
        await plugin.delete(r.urn, r.id, r.outputs);
        state.remove(r.name);
        state.save();
        steps.push({ op: "delete", name: r.name });
      }
      return steps;
    });
  }

  private async command<T>(body: (plugin: DynamicPlugin, state: StackState) => Promise<T>): Promise<T> {
    const plugin = await DynamicPlugin.start(this.options.programDir, this.options.env);
    try {
      await plugin.configure(this.options.config);
      return await body(plugin, this.state());
    } catch (err) {
      this.errors.push(err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      await plugin.stop();
      this.pluginOutput += plugin.output;
    }
  }

  private async check(plugin: DynamicPlugin, reg: Registration, old: ResourceState | undefined, news: Record<string, unknown>) {
    const { inputs, failures } = await plugin.check(urnOf(reg), old?.inputs ?? {}, news);
    if (failures.length > 0) {
      throw new Error(`${reg.name}: invalid arguments: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    }
    return inputs;
  }

  private async plan(plugin: DynamicPlugin, reg: Registration, old: ResourceState, checked: Record<string, unknown>): Promise<Step> {
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
    };
  }
}

export function urnOf(reg: { type: string; name: string }): string {
  return `urn:pulumi:conformance::conformance-fixture::${reg.type}::${reg.name}`;
}

/** `@id:<name>` placeholders become the id in state, or unknown when the resource is not (yet) there. */
function resolveIds(value: unknown, state: StackState, pending: Set<string>): any {
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
