import { inDependencyOrder, inReverseDependencyOrder } from "./order";
import type { Registration } from "./registration";
import { UNKNOWN } from "./registration";
import { reveal, secret, secretKeys, type NativeDiff } from "../test/support/plugin/pluginClient";
import { startNativeProviderPlugin, type NativeProviderPlugin } from "../test/support/plugin/pluginProcess";
import { ignoringChanges } from "./ignoreChanges";
import { ResourceInitFailed } from "../test/support/plugin/initFailure";
import { detailedChanges, type PropertyChange, type Sides } from "./display";
import { deletesFirst, TARGETED_REPLACE, withReplaceOnChanges, type DiffDecision } from "./replacement";

type Props = Record<string, unknown>;
export type PackageName = "snapshot" | "runtask";

/** A resource as a program in any language declares it to the provider plugins. */
export interface NativeResource {
  urn: string;
  /** `runtask:index:RunTask`. */
  token: string;
  name: string;
  /** Inputs; `@id:<name>` stands for the id of the resource of that name (unknown while it is to be created). */
  inputs: Props;
  /** URNs of the resources it depends on. */
  dependencies: string[];
  /** The `ignoreChanges` resource option: property paths whose changes are not to be made. */
  ignoreChanges?: string[];
  /** The `customTimeouts` resource option, in seconds. */
  customTimeouts?: { create?: number; update?: number; delete?: number };
  /** The `import` resource option: the id of an existing object to take over on the first `up`. */
  importId?: string;
  /** The name of an explicit provider resource of the program (`provider:` option); else the package's default one. */
  provider?: string;
  /**
   * Inputs the program computes once the engine hands it the ids and outputs of the resources they name (a YAML
   * program's `${scanner.id}`), in place of `inputs`; `resources` answers for those in the state, by name.
   */
  evaluate?: (resources: (name: string) => { id: string; outputs: Props } | undefined) => Promise<Props>;
  /** The `deleteBeforeReplace` option, where the program sets it. */
  deleteBeforeReplace?: boolean;
  /** The `replaceOnChanges` option. */
  replaceOnChanges?: string[];
  /** The `aliases` option: the names (same type) the resource had before. */
  aliases?: string[];
}

/** An explicit provider resource of the program: `new runtask.Provider("acme", { address, token, organization })`. */
export interface NativeProviderResource {
  name: string;
  package: PackageName;
  /** Its settings, keys without the namespace; a `knownAtUp` value is unknown in a preview (computed by the program). */
  inputs: Props;
}

const KNOWN_AT_UP = "@knownAtUp";

/**
 * A provider setting the program computes from a resource it has yet to make (an output): unknown during a preview,
 * `value` once the resource exists (at `up`).
 */
export function knownAtUp(value: unknown): Props {
  return { [KNOWN_AT_UP]: value };
}

/** What a command did, or plans to do, to one resource. */
export interface NativeStep {
  name: string;
  op: "create" | "import" | "update" | "replace" | "same" | "delete" | "refresh" | "gone";
  /** The properties an update or replace changes (the detailed diff's keys). */
  changed?: string[];
  /** For update, replace and refresh: each property that changes, with its two values, as the CLI shows them. */
  changes?: PropertyChange[];
  /** For replace: whether the old object is deleted before the new one is created. */
  deleteBeforeReplace?: boolean;
  /** For a delete-before-replace: the resources deleted before it and created again, as depending on it. */
  dependents?: string[];
}

/** Options of `preview` and `up`, as the CLI's flags give them. */
export interface NativeDeployOptions {
  /** `--replace`: the names of resources to replace whatever their diff. */
  replace?: string[];
}

interface Held {
  resource: NativeResource;
  id: string;
  inputs: Props;
  outputs: Props;
  /** The reasons of a create or update that failed after its object was made or changed: the next `up` updates it. */
  initErrors?: string[];
  /**
   * Deleted by a delete-before-replace whose create has not succeeded yet (`PendingReplacement`, step.go,
   * `DeleteStep.Apply`): the next `up` creates it without deleting it again; gone from the program, it leaves the
   * state without a Delete (step_generator.go, `RemovePendingReplaceStep`).
   */
  pendingReplacement?: true;
}

/** The tokens of the provider plugins for the dynamic resources' types (`pulumi-nodejs:dynamic/runtask:RunTask`). */
export function nativeProgram(registrations: Registration[]): NativeResource[] {
  const urnOf = (r: Registration) => r.urn.replace(r.type, tokenOf(r.type));
  const byUrn = new Map(registrations.map((r) => [r.urn, urnOf(r)]));
  return registrations.map((r) => {
    const { __provider: _p, ...inputs } = r.inputs;
    return {
      urn: urnOf(r),
      token: tokenOf(r.type),
      name: r.name,
      inputs: Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined && v !== null)),
      dependencies: r.dependencies.map((d) => byUrn.get(d) ?? d),
    };
  });
}

function tokenOf(dynamicType: string): string {
  const [, module, type] = /^pulumi-nodejs:dynamic\/(\w+):(\w+)$/.exec(dynamicType) ?? [];
  if (!module) throw new Error(`not a dynamic resource type: ${dynamicType}`);
  return `${module}:index:${type}`;
}

/** A configured (or, with settings unknown in a preview, unconfigured) provider plugin of the command. */
interface Provider {
  plugin: NativeProviderPlugin;
  /** False while a setting is unknown (a preview): the engine then neither configures it nor calls it for resources. */
  configured: boolean;
}

/**
 * A stand-in for the engine driving the two provider plugins, small enough to read, following the engine's source
 * (pulumi/pulumi):
 * - each command starts a plugin per package for the default providers, configured from the stack config (keys
 *   without their namespace, the token marked secret), and one per explicit provider resource, as
 *   `pkg/host/host.go` (`Provider`) loads a plugin for every provider resource;
 * - an explicit provider's settings are checked with unknowns allowed (`pkg/resource/deploy/providers/registry.go`,
 *   `Check`: `CheckConfig` with `AllowUnknowns: true`); with a setting unknown (a preview) the plugin is not
 *   configured and its resources are neither checked nor diffed by it (`pkg/resource/plugin/provider_plugin.go`,
 *   `Configure`, `Check` and `Diff` when the configuration is not known);
 * - `ignoreChanges` puts the old inputs at the ignored paths of the new ones before Check, and goes with Diff and
 *   Update (`pkg/resource/deploy/step_generator.go`, `processIgnoreChanges`, `diffResource`);
 * - `customTimeouts` go with Create, Update and Delete as their `timeout`;
 * - the `import` option reads the object by its id, keeps the id Read answers, and then checks and diffs the program
 *   against it; a replacement of it is refused (`pkg/resource/deploy/step.go`, `ImportStep.Apply`;
 *   `step_generator.go`, "previously-imported resources that still specify an ID may not be replaced");
 * - `cancel` sends Cancel to every plugin of the command in progress, as the engine does on Ctrl-C;
 * - a Create or Update failing with `ErrorResourceInitFailed` in its status details (the partial-creation answer)
 *   keeps the object it names with the reasons as init errors, and the next `up` updates it whatever its diff
 *   (`pkg/resource/plugin/provider_plugin.go`, `parseError`; `step.go`; `step_generator.go`, `hasInitErrors`);
 * - replacements, moves (`aliases`), `--replace` targets and refresh as `apply` and `refresh` say.
 * `destroy` deletes dependents first. State is kept in memory.
 * CPU and peak memory of the plugins are recorded per command, for benchmarks.
 */
export class NativeEngine {
  private readonly state = new Map<string, Held>();
  /** Old objects of replacements created first, still to be deleted. */
  private readonly condemned: Held[] = [];
  /** The plugins of the command in progress (for `cancel`). */
  private running: NativeProviderPlugin[] = [];
  /** CPU milliseconds both plugins spent on the last command's operations (their start excluded). */
  lastOperationsCpuMs: number | undefined;
  /** Milliseconds the last command's operations took. */
  lastOperationsMs = 0;
  /** Peak resident memory of the larger plugin in the last command, in KiB. */
  lastPeakRssKb: number | undefined;
  /** All the plugins printed, across commands. */
  pluginOutput = "";

  /** Further environment of the plugins the next commands start. */
  env: NodeJS.ProcessEnv | undefined;

  constructor(private readonly options: { programDir: string; config: Record<string, string>; parallelism?: number; env?: NodeJS.ProcessEnv }) {
    this.env = options.env;
  }

  /**
   * Takes a state kept by an earlier run (its resources, ids, inputs and outputs), as a stack's checkpoint is read
   * when a command starts: for tests of a stack made by an earlier version of the plugins.
   */
  loadState(held: { resource: NativeResource; id: string; inputs: Props; outputs: Props }[]): void {
    this.state.clear();
    for (const h of held) this.state.set(h.resource.urn, h);
  }

  /** `pulumi preview`: what `up` would do, changing nothing; settings may be unknown. */
  preview(program: NativeResource[], providers: NativeProviderResource[] = [], options: NativeDeployOptions = {}): Promise<NativeStep[]> {
    return this.command(providers, true, (resolved) => this.apply(program, resolved, true, options));
  }

  /** `pulumi up`: creates, imports, updates or replaces until the state matches the program. */
  up(program: NativeResource[], providers: NativeProviderResource[] = [], options: NativeDeployOptions = {}): Promise<NativeStep[]> {
    return this.command(providers, false, (resolved) => this.apply(program, resolved, false, options));
  }

  /**
   * `pulumi refresh`: reads every resource; an empty id means it is gone. The inputs Read answers replace the
   * state's, and the step shows the changes as the CLI does: the diff of the program's last inputs against what was
   * read, inverted (pkg/resource/deploy/step.go, `RefreshStep.Apply`; `pkg/engine/detailedDiff.go`).
   */
  refresh(providers: NativeProviderResource[] = []): Promise<NativeStep[]> {
    return this.command(providers, false, async (resolved) => {
      const steps: NativeStep[] = [];
      for (const held of [...this.state.values()]) {
        const { plugin } = resolved(held.resource);
        const read = await plugin.client.read(held.resource.urn, held.id, held.outputs, held.inputs);
        if (!read.id) {
          this.state.delete(held.resource.urn);
          steps.push({ name: held.resource.name, op: "gone" });
          continue;
        }
        const inputs = read.inputs ?? held.inputs;
        const diff = await plugin.client.diff(held.resource.urn, read.id, read.outputs, held.inputs, inputs, held.resource.ignoreChanges);
        const changes = detailedChanges(
          Object.keys(diff.detailed),
          diff.inputDiff,
          sides(held.inputs, held.outputs),
          sides(inputs, read.outputs),
          true,
          [...secretKeys(held.outputs), ...secretKeys(read.outputs)],
        );
        // A read that succeeds clears init errors (step.go, RefreshStep.Apply).
        this.state.set(held.resource.urn, { ...held, id: read.id, inputs, outputs: read.outputs, initErrors: undefined });
        steps.push({ name: held.resource.name, op: "refresh", changes });
      }
      return steps;
    });
  }

  async destroy(providers: NativeProviderResource[] = []): Promise<NativeStep[]> {
    return this.command(providers, false, async (resolved) => {
      const steps: NativeStep[] = [];
      const held = [...this.state.values(), ...this.condemned].map((h) => ({
        ...h,
        held: h,
        urn: h.resource.urn,
        dependencies: h.resource.dependencies,
      }));
      await inReverseDependencyOrder(held, this.options.parallelism ?? 1, async (h) => {
        // Deleted already by a replacement that did not finish: it leaves the state without a Delete.
        if (this.condemned.includes(h.held) || !h.pendingReplacement) {
          await resolved(h.resource).plugin.client.delete(h.urn, h.id, h.outputs, h.resource.customTimeouts?.delete);
        }
        this.forget(h.held);
        steps.push({ name: h.resource.name, op: "delete" });
      });
      return steps;
    });
  }

  /** The engine's Cancel (Ctrl-C) to every plugin of the command in progress. */
  async cancel(): Promise<void> {
    await Promise.all(this.running.map((p) => p.client.cancel().catch(() => undefined)));
  }

  /** What the engine holds for a resource: its id, inputs and outputs (secrets marked), and its init errors. */
  held(urn: string): { id: string; inputs: Props; outputs: Props; initErrors?: string[] } | undefined {
    return this.state.get(urn);
  }

  /** Old objects of replacements created first, still to be deleted (the engine's `Delete: true` resources). */
  pendingDeletes(): { urn: string; id: string }[] {
    return this.condemned.map((h) => ({ urn: h.resource.urn, id: h.id }));
  }

  /**
   * One resource's step of a preview or an up, in dependency order, as pulumi/pulumi's step generator decides
   * (`pkg/resource/deploy/step_generator.go`): the old state by URN or by an alias; Check with the old inputs (none
   * for a replace target); Diff, unless the resource is a replace target (`isTargetedReplace`: replaced, blamed on
   * the id, with no `deleteBeforeReplace` from the provider), then `applyReplaceOnChanges`; a replacement checks the
   * program's inputs again without olds (`continueStepsFromDiff`) and deletes the old object first (the option, else
   * the provider's `deleteBeforeReplace`, with the dependents it replaces: `calculateDependentReplacements`) or after
   * every create and update, with the resources the program no longer has.
   */
  private async apply(
    program: NativeResource[],
    providerOf: (r: NativeResource) => Provider,
    preview: boolean,
    options: NativeDeployOptions,
  ): Promise<NativeStep[]> {
    const steps: NativeStep[] = [];
    const targets = new Set(options.replace ?? []);
    const pending = new Set<string>();
    // Dependents of a delete-before-replace, deleted first and created again when their turn comes.
    const recreating = new Map<string, Held>();
    await inDependencyOrder(program, this.options.parallelism ?? 1, async (resource) => {
      const { plugin, configured } = providerOf(resource);
      let old = recreating.get(resource.urn) ?? this.oldOf(resource);
      let imported = false;
      if (!old && resource.importId) {
        old = await this.importOf(resource, plugin);
        imported = true;
      }
      const named = (name: string) => [...this.state.values()].find((h) => h.resource.name === name);
      const given = resource.evaluate ? await resource.evaluate(named) : this.resolveIds(resource.inputs, preview, pending);
      if (old && recreating.has(resource.urn)) {
        // Deleted earlier as a dependent of a delete-before-replace: it is created again.
        const inputs = configured ? await this.checked(plugin, resource, {}, given) : given;
        steps.push({ name: resource.name, op: "replace", deleteBeforeReplace: true });
        if (!preview) await this.create(plugin, resource, inputs);
        return;
      }
      const targeted = old !== undefined && !imported && targets.has(resource.name);
      const news = targeted ? given : ignoringChanges(given, old?.inputs, resource.ignoreChanges);
      let inputs = configured ? await this.checked(plugin, resource, targeted ? {} : (old?.inputs ?? {}), news) : news;
      if (!old) {
        steps.push({ name: resource.name, op: "create" });
        if (preview) return void pending.add(resource.name);
        return void (await this.create(plugin, resource, inputs));
      }
      const answer =
        targeted || !configured ? undefined : await plugin.client.diff(resource.urn, old.id, old.outputs, inputs, old.inputs, resource.ignoreChanges);
      const diff = targeted
        ? TARGETED_REPLACE
        : answer
          ? withReplaceOnChanges(decisionOf(answer), resource.replaceOnChanges)
          : { ...TARGETED_REPLACE, replaces: [] };
      const changesTo = (next: Props) =>
        answer
          ? detailedChanges(Object.keys(answer.detailed), answer.inputDiff, sides(old.inputs, old.outputs), sides(next, {}), false, [
              ...secretKeys(old.outputs),
              ...secretKeys(next),
            ])
          : undefined;
      const base = imported ? "import" : "same";
      // A resource with init errors is updated whatever its diff (step_generator.go, "hasInitErrors"); one whose
      // object a delete-before-replace deleted is replaced whatever its diff (`old.PendingReplacement`).
      const pendingReplacement = old.pendingReplacement === true;
      if (diff.changes === "none" && !old.initErrors?.length && !pendingReplacement) {
        steps.push({ name: resource.name, op: base });
        if (!preview) this.state.set(resource.urn, { ...old, resource, inputs });
        return;
      }
      if (diff.replaces.length === 0 && !pendingReplacement) {
        steps.push({ name: resource.name, op: imported ? "import" : "update", changed: answer?.diffs, changes: changesTo(inputs) });
        if (preview) return;
        const outputs = await this.recordingInitFailure(
          resource,
          inputs,
          () =>
            plugin.client.update(resource.urn, old.id, old.outputs, inputs, {
              timeout: resource.customTimeouts?.update,
              ignoreChanges: resource.ignoreChanges,
              oldInputs: old.inputs,
            }),
          { id: old.id },
        );
        return void this.state.set(resource.urn, { resource, id: old.id, inputs, outputs });
      }
      if (resource.importId) {
        const message =
          "previously-imported resources that still specify an ID may not be replaced; please remove the `import` declaration from your program;\n" +
          diff.replaces.map((k) => `${k}: ${JSON.stringify(old.inputs[k])} => ${JSON.stringify(inputs[k])}`).join("\n");
        throw new Error(`${resource.name}: ${message}`);
      }
      // A replacement recomputes the defaults from the program's inputs alone; a targeted one has them already.
      if (!targeted && configured) inputs = await this.checked(plugin, resource, {}, given);
      const deleteBeforeReplace = deletesFirst(diff, resource.deleteBeforeReplace);
      // Pending replacement, its object and its dependents' were deleted by the replacement that did not finish.
      const dependents = deleteBeforeReplace && !pendingReplacement ? await this.dependentsReplacedWith(old, program, providerOf) : [];
      steps.push({
        name: resource.name,
        op: "replace",
        changed: answer?.diffs,
        changes: changesTo(inputs),
        deleteBeforeReplace,
        dependents: dependents.map((d) => d.resource.name),
      });
      if (preview) {
        pending.add(resource.name);
        for (const d of dependents) recreating.set(d.resource.urn, d);
        return;
      }
      if (deleteBeforeReplace) {
        // Each deleted object stays in the state, pending replacement, until its create succeeds (step.go,
        // `DeleteStep.Apply`): a create that fails leaves the state saying what the next `up` must create.
        for (const d of [...dependents].reverse()) {
          await providerOf(d.resource).plugin.client.delete(d.resource.urn, d.id, d.outputs, d.resource.customTimeouts?.delete);
          this.state.set(d.resource.urn, { ...d, pendingReplacement: true });
          recreating.set(d.resource.urn, d);
        }
        if (!pendingReplacement) {
          await plugin.client.delete(old.resource.urn, old.id, old.outputs, old.resource.customTimeouts?.delete);
          this.state.set(old.resource.urn, { ...old, pendingReplacement: true });
        }
      }
      // Created first, the old object stays to be deleted, once the create made the new one (step.go, `CreateStep.Apply`).
      await this.create(plugin, resource, inputs, deleteBeforeReplace ? undefined : old);
    });
    // Resources the program no longer has, and old objects of replacements created first, go last.
    const urns = new Set(program.map((r) => r.urn));
    const removed = [...this.state.values()].filter((h) => !urns.has(h.resource.urn));
    for (const h of removed) steps.push({ name: h.resource.name, op: "delete" });
    if (!preview) {
      await inReverseDependencyOrder(
        [...removed, ...this.condemned].map((h) => ({ ...h, held: h, urn: h.resource.urn, dependencies: h.resource.dependencies })),
        this.options.parallelism ?? 1,
        async (h) => {
          // Deleted already by a replacement that did not finish: it leaves the state without a Delete
          // (step_generator.go, `RemovePendingReplaceStep`); a condemned old object is deleted whatever it was.
          const condemned = this.condemned.includes(h.held);
          if (condemned || !h.pendingReplacement) {
            await providerOf(h.resource).plugin.client.delete(h.resource.urn, h.id, h.outputs, h.resource.customTimeouts?.delete);
          }
          this.forget(h.held);
        },
      );
    }
    return steps;
  }

  /** Creates the resource; `replacing`, an old object created before, is kept for its delete once the new one is made. */
  private async create(plugin: NativeProviderPlugin, resource: NativeResource, inputs: Props, replacing?: Held): Promise<void> {
    const { id, outputs } = await this.recordingInitFailure(
      resource,
      inputs,
      () => plugin.client.create(resource.urn, inputs, resource.customTimeouts?.create),
      { replacing },
    );
    if (replacing) this.condemned.push(replacing);
    this.state.set(resource.urn, { resource, id, inputs, outputs });
  }

  /**
   * A create or update whose error carries the partial-creation answer made or changed its object: it is kept with
   * the reasons as its init errors (and the old object of a replacement created first kept for its delete), then the
   * error stands.
   */
  private async recordingInitFailure<T>(
    resource: NativeResource,
    inputs: Props,
    call: () => Promise<T>,
    made: { id?: string; replacing?: Held } = {},
  ): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof ResourceInitFailed) {
        if (made.replacing) this.condemned.push(made.replacing);
        this.state.set(resource.urn, { resource, id: made.id ?? err.id, inputs, outputs: err.properties, initErrors: err.reasons });
      }
      throw err;
    }
  }

  /** The old state of a resource: by its URN, or by one of its aliases (it then takes the new URN, keeping its object). */
  private oldOf(resource: NativeResource): Held | undefined {
    const own = this.state.get(resource.urn);
    if (own) return own;
    for (const name of resource.aliases ?? []) {
      const found = [...this.state.values()].find((h) => h.resource.name === name && h.resource.token === resource.token);
      if (found) {
        this.state.delete(found.resource.urn);
        const moved = { ...found, resource };
        this.state.set(resource.urn, moved);
        return moved;
      }
    }
    return undefined;
  }

  /**
   * What a delete-before-replace of `root` replaces too: the resources of the state with an input taken from one
   * being replaced (`@id:<name>`), whose Diff answers a replacement once that input is unknown
   * (step_generator.go, `calculateDependentReplacements`), in the program's order.
   */
  private async dependentsReplacedWith(root: Held, program: NativeResource[], providerOf: (r: NativeResource) => Provider): Promise<Held[]> {
    const replacing = new Set([root.resource.name]);
    const dependents: Held[] = [];
    for (const resource of program) {
      const held = this.state.get(resource.urn);
      if (!held || held === root) continue;
      const news = { ...held.inputs };
      let depends = false;
      for (const [key, value] of Object.entries(held.resource.inputs)) {
        if (typeof value === "string" && value.startsWith("@id:") && replacing.has(value.slice(4))) [news[key], depends] = [UNKNOWN, true];
      }
      if (!depends) continue;
      const { plugin } = providerOf(held.resource);
      const answer = await plugin.client.diff(held.resource.urn, held.id, held.outputs, news, held.inputs, held.resource.ignoreChanges);
      if (withReplaceOnChanges(decisionOf(answer), held.resource.replaceOnChanges).replaces.length > 0) {
        dependents.push(held);
        replacing.add(held.resource.name);
      }
    }
    return dependents;
  }

  /** A deleted resource leaves the state, or the list of old objects waiting for their delete. */
  private forget(h: Held): void {
    const i = this.condemned.findIndex((c) => c.id === h.id && c.resource.urn === h.resource.urn);
    if (i >= 0) this.condemned.splice(i, 1);
    else this.state.delete(h.resource.urn);
  }

  /** The import option: the object read by its id alone; the engine keeps the id Read answers (step.go). */
  private async importOf(resource: NativeResource, plugin: NativeProviderPlugin): Promise<Held> {
    const read = await plugin.client.read(resource.urn, resource.importId!);
    if (!read.id) throw new Error(`${resource.name}: resource '${resource.importId}' does not exist`);
    if (!read.inputs) throw new Error(`${resource.name}: provider does not support importing resources`);
    return { resource, id: read.id, inputs: read.inputs, outputs: read.outputs };
  }

  private async checked(plugin: NativeProviderPlugin, resource: NativeResource, olds: Props, news: Props): Promise<Props> {
    const { inputs, failures } = await plugin.client.check(resource.urn, olds, news);
    if (failures.length > 0) throw new Error(`${resource.name}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    return inputs;
  }

  /** `@id:<name>`: the id of that resource in the state; unknown in a preview until it is created or replaced. */
  private resolveIds(inputs: Props, preview: boolean, pending: Set<string>): Props {
    return Object.fromEntries(
      Object.entries(inputs).map(([k, v]) => {
        if (typeof v !== "string" || !v.startsWith("@id:")) return [k, v];
        const name = v.slice(4);
        const target = [...this.state.values()].find((h) => h.resource.name === name);
        return [k, target && !pending.has(name) ? target.id : preview ? UNKNOWN : v];
      }),
    );
  }

  /**
   * Starts the plugins of a command: the default provider of each package, and one per explicit provider, which is
   * checked with unknowns allowed and configured only once its settings are known; then runs `body`.
   */
  private async command<T>(
    providers: NativeProviderResource[],
    preview: boolean,
    body: (providerOf: (resource: NativeResource) => Provider) => Promise<T>,
  ): Promise<T> {
    const names: PackageName[] = ["snapshot", "runtask"];
    const defaults = await Promise.all(names.map((n) => startNativeProviderPlugin(this.options.programDir, n, this.env)));
    const explicit = await Promise.all(providers.map((p) => startNativeProviderPlugin(this.options.programDir, p.package, this.env)));
    this.running = [...defaults, ...explicit];
    try {
      const byPackage = new Map<string, Provider>();
      for (const [i, name] of names.entries()) {
        await defaults[i].client.configure(this.configOf(name));
        byPackage.set(name, { plugin: defaults[i], configured: true });
      }
      const byName = new Map<string, Provider>();
      for (const [i, p] of providers.entries()) byName.set(p.name, await this.providerResource(p, explicit[i], preview));
      const providerOf = (resource: NativeResource): Provider => {
        const provider = resource.provider ? byName.get(resource.provider) : byPackage.get(packageOf(resource.token));
        if (!provider) throw new Error(`${resource.name}: no provider ${resource.provider ?? packageOf(resource.token)}`);
        return provider;
      };
      const cpu = () =>
        this.running.reduce<number | undefined>(
          (sum, p) => (sum === undefined || p.process.cpuMs() === undefined ? undefined : sum + p.process.cpuMs()!),
          0,
        );
      const before = cpu();
      const t0 = process.hrtime.bigint();
      const result = await body(providerOf);
      this.lastOperationsMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const after = cpu();
      this.lastOperationsCpuMs = before === undefined || after === undefined ? undefined : after - before;
      const rss = this.running.map((p) => p.process.peakRssKb()).filter((k): k is number => k !== undefined);
      this.lastPeakRssKb = rss.length ? Math.max(...rss) : undefined;
      return result;
    } finally {
      const running = this.running;
      this.running = [];
      await Promise.all(running.map((p) => p.stop()));
      for (const p of running) this.pluginOutput += p.process.output;
    }
  }

  /** An explicit provider resource, as registry.go's Check and Create (or Update) handle it. */
  private async providerResource(p: NativeProviderResource, plugin: NativeProviderPlugin, preview: boolean): Promise<Provider> {
    const settings = Object.fromEntries(
      Object.entries(p.inputs).map(([k, v]) => {
        const known = v !== null && typeof v === "object" && KNOWN_AT_UP in v ? (preview ? UNKNOWN : (v as Props)[KNOWN_AT_UP]) : v;
        return [k, k === "token" && known !== UNKNOWN ? secret(known) : known];
      }),
    );
    const failures = await plugin.client.checkConfig(settings);
    if (failures.length > 0) throw new Error(`provider ${p.name}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    if (Object.values(settings).includes(UNKNOWN)) return { plugin, configured: false };
    await plugin.client.configure(settings);
    return { plugin, configured: true };
  }

  /** A plugin's configuration as the engine sends it: its namespace's keys, without the namespace. */
  private configOf(name: PackageName): Props {
    const prefix = `${name}:`;
    return Object.fromEntries(
      Object.entries(this.options.config)
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, v]) => [k.slice(prefix.length), k.endsWith(":token") ? secret(v) : v]),
    );
  }
}

function packageOf(token: string): PackageName {
  return token.split(":")[0] as PackageName;
}

/** The step generator's view of a Diff answer. */
function decisionOf(answer: NativeDiff): DiffDecision {
  return {
    changes: answer.changes,
    replaces: answer.replaces,
    changed: answer.diffs,
    detailed: Object.keys(answer.detailed),
    deleteBeforeReplace: answer.deleteBeforeReplace,
  };
}

/** A resource's two sides, secrets revealed (the changes shown mask them). */
function sides(inputs: Props, outputs: Props): Sides {
  return { inputs: reveal(inputs), outputs: reveal(outputs) };
}
