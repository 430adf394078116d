import { inDependencyOrder, inReverseDependencyOrder } from "./order";
import { ResourceInitFailed } from "../test/support/plugin/initFailure";
import type { PluginLauncher, ProviderPlugin } from "./plugin/providerPlugin";
import type { DiffAnswer, ResourceProviderClient } from "./plugin/resourceProviderClient";
import { detailedChanges, plainChanges } from "./display";
import { deletesFirst, TARGETED_REPLACE, withReplaceOnChanges, type DiffDecision } from "./replacement";
import { customTimeoutSeconds } from "./customTimeouts";
import { ignoringChanges } from "./ignoreChanges";
import { resolveIds, UNKNOWN, withReplacedIds, type Registration, type Replaced } from "./registration";
import { secretOutputKeys, stripSecrets } from "./secrets";
import { StackState, type ResourceState } from "./state";
import type { Step, StepEvent, StepOp } from "./steps";

/** Options of `preview` and `up`, as the CLI's flags give them. */
export interface DeployOptions {
  /** `--replace`: the names of resources to replace whatever their diff. */
  replace?: string[];
}

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
 * `pulumi` command does. Replacements follow the engine's step generator (`deploy`), and an old resource is
 * deleted with the provider text stored in its state. Secrets are stripped before calls and re-marked after them, as
 * the engine does for a provider that declines them (the dynamic provider plugin does). A create or update that fails
 * with the partial-creation answer (`ErrorResourceInitFailed`) records the object it names with its init errors, and
 * the next `up` updates it whatever its diff, as pulumi/pulumi's `pkg/resource/plugin/provider_plugin.go`
 * (`parseError`), `pkg/resource/deploy/step.go` and `step_generator.go` (`hasInitErrors`) do.
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

  /** `pulumi preview`: Check and Diff only (and the second Check of a replacement); returns the planned steps. */
  async preview(program: Registration[], options: DeployOptions = {}): Promise<Step[]> {
    return this.command((plugin, state) => this.deploy(plugin, state, program, options, true));
  }

  /** `pulumi up`: creates, updates, replaces and deletes until the state matches the program. */
  async up(program: Registration[], options: DeployOptions = {}): Promise<Step[]> {
    return this.command((plugin, state) => this.deploy(plugin, state, program, options, false));
  }

  /**
   * `pulumi refresh`: reads every resource; an empty id means it is gone and leaves the state. The inputs Read
   * answers replace the state's; the step shows what changed as the CLI shows it, from the diff the engine makes of
   * the program's last inputs against what was read, inverted (pkg/resource/deploy/step.go, `RefreshStep.Apply`).
   */
  async refresh(): Promise<Step[]> {
    return this.command(async (plugin, state) => {
      const steps: Step[] = [];
      for (const r of state.resources.filter((r) => !r.delete)) {
        // The event's id is empty when the resource is gone.
        const read = await this.step(
          "refresh",
          r,
          () => plugin.read(r.urn, r.id, r.outputs, r.inputs),
          (answer) => answer.id || undefined,
        );
        if (!read.id) {
          state.remove(r);
          steps.push({ op: "gone", name: r.name });
          continue;
        }
        const inputs = read.inputs ?? r.inputs;
        const diff = await plugin.diff(r.urn, read.id, read.outputs, r.inputs, inputs, r.ignoreChanges);
        const before = { inputs: r.inputs, outputs: r.outputs };
        const after = { inputs, outputs: read.outputs };
        const secrets = [...r.secretInputs, ...r.secretOutputs];
        const changes = diff.detailed
          ? detailedChanges(diff.detailed.paths, diff.detailed.inputDiff, before, after, true, secrets)
          : plainChanges(before, after, true, secrets);
        state.put({
          ...r,
          id: read.id,
          outputs: read.outputs,
          inputs,
          secretOutputs: secretOutputKeys(read.outputs, r.secretInputs, r.additionalSecretOutputs),
          // A read that succeeds clears init errors (step.go, RefreshStep.Apply).
          initErrors: undefined,
        });
        steps.push({ op: "refresh", name: r.name, detail: diff.changes === "some", changes });
      }
      return steps;
    });
  }

  /** `pulumi destroy`: deletes dependents before what they depend on, with each resource's stored provider text. */
  async destroy(): Promise<Step[]> {
    return this.command(async (plugin, state) => {
      const steps: Step[] = [];
      await inReverseDependencyOrder([...state.resources], this.parallelism, async (r) => {
        // Deleted already by a replacement that did not finish: it leaves the state without a Delete
        // (step_generator.go, `RemovePendingReplaceStep`); a condemned old object is deleted whatever it was.
        if (r.delete || !r.pendingReplacement) await this.delete(plugin, r);
        state.remove(r);
        steps.push({ op: "delete", name: r.name, retained: r.retainOnDelete || undefined });
      });
      return steps;
    });
  }

  /**
   * One preview or up, each resource in dependency order, as pulumi/pulumi's step generator decides
   * (`pkg/resource/deploy/step_generator.go`):
   * - the old state by the resource's name, else by one of its `aliases` (then it takes the new name, and keeps its
   *   object);
   * - Check with the old inputs, where `ignoreChanges` put the old values; for `--replace` without them;
   * - Diff, unless the resource is a replace target (`isTargetedReplace`: a replacement blamed on the id, without
   *   the provider's `deleteBeforeReplace`), then `replaceOnChanges` (`applyReplaceOnChanges`);
   * - a replacement checks the program's inputs again without olds (`continueStepsFromDiff`), then either deletes
   *   the old object first (the `deleteBeforeReplace` option, else the provider's answer), with the dependents whose
   *   Diff replaces them once the inputs they took from it are unknown (`calculateDependentReplacements`; they are
   *   created again when their turn comes), or creates first and deletes the old object after every create and
   *   update, with the resources the program no longer has (`GenerateDeletes`).
   */
  private async deploy(plugin: ResourceProviderClient, state: StackState, program: Registration[], options: DeployOptions, preview: boolean) {
    const steps: Step[] = [];
    const targets = new Set(options.replace ?? []);
    // In a preview, the resources to be created or replaced, whose ids are unknown until then.
    const pendingIds = new Set<string>();
    const replaced = new Map<string, Replaced>();
    // Dependents of a delete-before-replace, deleted first and created again when their turn comes.
    const recreating = new Map<string, ResourceState>();
    const planned = (step: Step, type: string) => {
      steps.push(step);
      if (preview) this.emit("planned", step.op, type, step.name);
    };
    const each = async (reg: Registration) => {
      const old = recreating.get(reg.name) ?? this.oldOf(state, reg);
      const { plain, secretKeys } = stripSecrets(withReplacedIds(resolveIds(reg.inputs, state, pendingIds), reg, replaced));
      if (old && recreating.has(reg.name)) {
        // Deleted earlier as a dependent of a delete-before-replace: it is created again.
        const inputs = await this.check(plugin, reg, undefined, plain);
        planned({ op: "replace", name: reg.name, detail: ["dependency"], deleteBeforeReplace: true }, reg.type);
        if (!preview) await this.create(plugin, state, reg, inputs, secretKeys);
        return;
      }
      const targeted = old !== undefined && targets.has(reg.name);
      const news = ignoringChanges(plain, old?.inputs, reg.ignoreChanges);
      let inputs = await this.check(plugin, reg, targeted ? undefined : old, targeted ? plain : news);
      if (!old) {
        planned({ op: "create", name: reg.name }, reg.type);
        if (preview) return void pendingIds.add(reg.name);
        await this.create(plugin, state, reg, inputs, secretKeys);
        return;
      }
      const answer = targeted ? undefined : await plugin.diff(reg.urn, old.id, old.outputs, inputs, old.inputs, reg.ignoreChanges);
      if (answer?.changes === "unknown")
        throw new Error(`${reg.name}: the provider answered an unknown diff (every provider change would update it)`);
      const diff = answer ? withReplaceOnChanges(decisionOf(answer), reg.replaceOnChanges) : TARGETED_REPLACE;
      const changes = (next: Record<string, unknown>) => {
        const before = { inputs: old.inputs, outputs: old.outputs };
        const after = { inputs: next, outputs: {} };
        const secrets = [...old.secretOutputs, ...old.secretInputs, ...secretKeys];
        return answer?.detailed
          ? detailedChanges(answer.detailed.paths, answer.detailed.inputDiff, before, after, false, secrets)
          : plainChanges(before, after, false, secrets);
      };
      // A resource with init errors is updated whatever its diff (step_generator.go, `hasInitErrors`); one whose
      // object a delete-before-replace deleted is replaced whatever its diff (`old.PendingReplacement`).
      const pendingReplacement = old.pendingReplacement === true;
      if (diff.changes === "none" && !old.initErrors?.length && !pendingReplacement) {
        planned({ op: "same", name: reg.name }, reg.type);
        if (preview) return;
        // The engine keeps the old outputs (and their provider text) and records the new inputs.
        state.put({ ...old, ...this.optionsKept(reg), inputs, secretInputs: secretKeys });
        return this.emit("done", "same", reg.type, reg.name, old.id);
      }
      if (diff.replaces.length === 0 && !pendingReplacement) {
        planned({ op: "update", name: reg.name, changes: changes(inputs) }, reg.type);
        if (preview) return;
        await this.step(
          "update",
          reg,
          async () => {
            const timeout = customTimeoutSeconds(reg.customTimeouts).update;
            const outputs = await plugin.update(reg.urn, old.id, old.outputs, inputs, { timeout, ignoreChanges: reg.ignoreChanges });
            state.put(this.record(reg, old.id, inputs, outputs, secretKeys));
            return old.id;
          },
          (id) => id,
        );
        return;
      }
      // A replacement recomputes the defaults from the program's inputs alone; a targeted one has them already.
      if (!targeted) inputs = await this.check(plugin, reg, undefined, plain);
      const deleteBeforeReplace = deletesFirst(diff, reg.deleteBeforeReplace);
      // Pending replacement, its object and its dependents' were deleted by the replacement that did not finish.
      const dependents = deleteBeforeReplace && !pendingReplacement ? await this.dependentsReplacedWith(plugin, state, old) : [];
      planned(
        {
          op: "replace",
          name: reg.name,
          detail: diff.replaces,
          changes: changes(inputs),
          deleteBeforeReplace,
          dependents: dependents.map((d) => d.name),
        },
        reg.type,
      );
      if (preview) {
        pendingIds.add(reg.name);
        replaced.set(old.urn, { oldId: old.id, newId: UNKNOWN });
        for (const d of dependents) recreating.set(d.name, d);
        return;
      }
      if (deleteBeforeReplace) {
        // Each deleted object stays in the state, pending replacement, until its create succeeds (step.go,
        // `DeleteStep.Apply`): a create that fails leaves the state saying what the next `up` must create.
        for (const d of [...dependents].reverse()) {
          await this.delete(plugin, d);
          state.put({ ...d, pendingReplacement: true });
          recreating.set(d.name, d);
        }
        if (!pendingReplacement) {
          await this.delete(plugin, old);
          state.put({ ...old, pendingReplacement: true });
        }
      }
      const id = await this.create(plugin, state, reg, inputs, secretKeys, deleteBeforeReplace ? undefined : old);
      replaced.set(old.urn, { oldId: old.id, newId: id });
    };
    if (preview) for (const reg of program) await each(reg);
    else await inDependencyOrder(program, this.parallelism, each);
    // Resources the program no longer has, and old objects of replacements created first, go last, each deleted
    // with the provider text of its own state.
    const names = new Set(program.map((p) => p.name));
    const deletes = state.resources.filter((r) => r.delete || !names.has(r.name));
    for (const r of deletes) if (!r.delete) planned({ op: "delete", name: r.name, retained: r.retainOnDelete || undefined }, r.type);
    if (preview) return steps;
    await inReverseDependencyOrder(deletes, this.parallelism, async (r) => {
      // Deleted already by a replacement that did not finish: it leaves the state without a Delete
      // (step_generator.go, `RemovePendingReplaceStep`); a condemned old object is deleted whatever it was.
      if (r.delete || !r.pendingReplacement) await this.delete(plugin, r);
      state.remove(r);
    });
    return steps;
  }

  /** The old state of a registered resource: by its name, or by one of its aliases (it then takes the new name). */
  private oldOf(state: StackState, reg: Registration): ResourceState | undefined {
    const own = state.get(reg.name);
    if (own) return own;
    for (const alias of reg.aliases ?? []) {
      const found = state.resources.find((r) => !r.delete && (alias.urn ? r.urn === alias.urn : r.name === alias.name && r.type === reg.type));
      if (found) return state.rename(found, reg.name, reg.urn);
    }
    return undefined;
  }

  /**
   * The resources of the state that a delete-before-replace of `root` replaces too: those with an input taken from
   * a resource being replaced whose Diff, with that input unknown, answers a replacement (step_generator.go,
   * `calculateDependentReplacements`), in dependency order.
   */
  private async dependentsReplacedWith(plugin: ResourceProviderClient, state: StackState, root: ResourceState): Promise<ResourceState[]> {
    const replacing = new Set([root.urn]);
    const dependents: ResourceState[] = [];
    for (const r of state.resources.slice(state.resources.indexOf(root) + 1)) {
      if (r.delete) continue;
      const news = { ...r.inputs };
      let depends = false;
      for (const [key, urns] of Object.entries(r.propertyDependencies ?? {})) {
        if (urns.some((u) => replacing.has(u))) [news[key], depends] = [UNKNOWN, true];
      }
      if (!depends) continue;
      const diff = withReplaceOnChanges(decisionOf(await plugin.diff(r.urn, r.id, r.outputs, news, r.inputs, r.ignoreChanges)), r.replaceOnChanges);
      if (diff.replaces.length > 0) {
        dependents.push(r);
        replacing.add(r.urn);
      }
    }
    return dependents;
  }

  /**
   * Creates the resource; `replacing`, an old object that a replacement created first leaves to be deleted later,
   * stays in the state marked for its delete once the create succeeded (step.go, `CreateStep.Apply`), and is kept
   * as it was when the create fails.
   */
  private async create(
    plugin: ResourceProviderClient,
    state: StackState,
    reg: Registration,
    inputs: Record<string, unknown>,
    secretKeys: string[],
    replacing?: ResourceState,
  ): Promise<string> {
    return this.step(
      replacing ? "replace" : "create",
      reg,
      async () => {
        const { id, outputs } = await this.recordingInitFailure(
          state,
          reg,
          inputs,
          secretKeys,
          () => plugin.create(reg.urn, inputs, customTimeoutSeconds(reg.customTimeouts).create),
          { replacing },
        );
        if (replacing) state.condemn(replacing);
        state.put(this.record(reg, id, inputs, outputs, secretKeys));
        return id;
      },
      (id) => id,
    );
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

  /**
   * A create or update whose error carries the partial-creation answer made or changed its object: the object is
   * recorded with the reasons as its init errors (and, for a replacement created first, the old one marked for its
   * delete, as after a create that succeeded), then the error stands.
   */
  private async recordingInitFailure<T>(
    state: StackState,
    reg: Registration,
    inputs: Record<string, unknown>,
    secretKeys: string[],
    call: () => Promise<T>,
    made: { id?: string; replacing?: ResourceState } = {},
  ): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof ResourceInitFailed) {
        if (made.replacing) state.condemn(made.replacing);
        state.put(this.record(reg, made.id ?? err.id, inputs, err.properties, secretKeys, err.reasons));
      }
      throw err;
    }
  }

  /** Check, with the old inputs where there is an old state to go by (none before a replacement's create). */
  private async check(plugin: ResourceProviderClient, reg: Registration, old: ResourceState | undefined, news: Record<string, unknown>) {
    const { inputs, failures } = await plugin.check(reg.urn, old?.inputs ?? {}, news);
    if (failures.length > 0) {
      throw new Error(`${reg.name}: invalid arguments: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    }
    return inputs;
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
      ...this.optionsKept(reg),
      ...(initErrors?.length ? { initErrors } : {}),
    };
  }

  /** What the state keeps of a resource's options. */
  private optionsKept(reg: Registration): Partial<ResourceState> {
    return {
      retainOnDelete: reg.retainOnDelete,
      customTimeouts: reg.customTimeouts,
      ignoreChanges: reg.ignoreChanges,
      replaceOnChanges: reg.replaceOnChanges,
      propertyDependencies: reg.propertyDependencies,
    };
  }
}

/** The step generator's view of a Diff answer. */
function decisionOf(answer: DiffAnswer): DiffDecision {
  return {
    changes: answer.changes,
    replaces: answer.replaces,
    changed: answer.changed,
    detailed: answer.detailed?.paths ?? [],
    deleteBeforeReplace: answer.deleteBeforeReplace,
  };
}
