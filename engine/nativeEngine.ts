import { inDependencyOrder, inReverseDependencyOrder } from "./order";
import type { Registration } from "./registration";
import { UNKNOWN } from "./registration";
import { secret } from "./plugin/nativeProviderClient";
import { startNativeProviderPlugin, type NativeProviderPlugin } from "./plugin/nativeProviderPlugin";
import { ignoringChanges } from "./ignoreChanges";
import { ResourceInitFailed } from "./plugin/initFailure";

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
}

interface Held {
  resource: NativeResource;
  id: string;
  inputs: Props;
  outputs: Props;
  /** The reasons of a create or update that failed after its object was made or changed: the next `up` updates it. */
  initErrors?: string[];
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
 *   (`pkg/resource/plugin/provider_plugin.go`, `parseError`; `step.go`; `step_generator.go`, `hasInitErrors`).
 * Creates and replacements are create before delete; `destroy` deletes dependents first. State is kept in memory.
 * CPU and peak memory of the plugins are recorded per command, for benchmarks.
 */
export class NativeEngine {
  private readonly state = new Map<string, Held>();
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

  /** `pulumi preview`: what `up` would do, changing nothing; settings may be unknown. */
  preview(program: NativeResource[], providers: NativeProviderResource[] = []): Promise<NativeStep[]> {
    return this.command(providers, true, (resolved) => this.apply(program, resolved, true));
  }

  /** `pulumi up`: creates, imports, updates or replaces until the state matches the program. */
  up(program: NativeResource[], providers: NativeProviderResource[] = []): Promise<NativeStep[]> {
    return this.command(providers, false, (resolved) => this.apply(program, resolved, false));
  }

  /** `pulumi refresh`: reads every resource; an empty id means it is gone. The inputs stay the program's. */
  refresh(providers: NativeProviderResource[] = []): Promise<NativeStep[]> {
    return this.command(providers, false, async (resolved) => {
      const steps: NativeStep[] = [];
      for (const held of [...this.state.values()]) {
        const { plugin } = resolved(held.resource);
        const read = await plugin.client.read(held.resource.urn, held.id, held.outputs, held.inputs);
        if (!read.id) {
          this.state.delete(held.resource.urn);
          steps.push({ name: held.resource.name, op: "gone" });
        } else {
          // A read that succeeds clears init errors (step.go, RefreshStep.Apply).
          this.state.set(held.resource.urn, { ...held, id: read.id, outputs: read.outputs, initErrors: undefined });
          steps.push({ name: held.resource.name, op: "refresh" });
        }
      }
      return steps;
    });
  }

  async destroy(providers: NativeProviderResource[] = []): Promise<NativeStep[]> {
    return this.command(providers, false, async (resolved) => {
      const steps: NativeStep[] = [];
      const held = [...this.state.values()].map((h) => ({ ...h, urn: h.resource.urn, dependencies: h.resource.dependencies }));
      await inReverseDependencyOrder(held, this.options.parallelism ?? 1, async (h) => {
        await resolved(h.resource).plugin.client.delete(h.urn, h.id, h.outputs, h.resource.customTimeouts?.delete);
        this.state.delete(h.urn);
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

  /** One resource's step of a preview or an up, in dependency order. */
  private async apply(program: NativeResource[], providerOf: (r: NativeResource) => Provider, preview: boolean): Promise<NativeStep[]> {
    const steps: NativeStep[] = [];
    const replaced: Held[] = [];
    await inDependencyOrder(program, this.options.parallelism ?? 1, async (resource) => {
      const { plugin, configured } = providerOf(resource);
      let old = this.state.get(resource.urn);
      let imported = false;
      if (!old && resource.importId) {
        old = await this.importOf(resource, plugin);
        imported = true;
      }
      const named = (name: string) => [...this.state.values()].find((h) => h.resource.name === name);
      const given = resource.evaluate ? await resource.evaluate(named) : this.resolveIds(resource.inputs, preview);
      const news = ignoringChanges(given, old?.inputs, resource.ignoreChanges);
      const inputs = configured ? await this.checked(plugin, resource, old?.inputs ?? {}, news) : news;
      // An object made or changed by a call that failed is kept with the reasons as its init errors (step.go).
      const recordingInitFailure = async <T>(call: Promise<T>, id?: string): Promise<T> => {
        try {
          return await call;
        } catch (err) {
          if (err instanceof ResourceInitFailed)
            this.state.set(resource.urn, { resource, id: id ?? err.id, inputs, outputs: err.properties, initErrors: err.reasons });
          throw err;
        }
      };
      if (!old) {
        steps.push({ name: resource.name, op: "create" });
        if (preview) return;
        const { id, outputs } = await recordingInitFailure(plugin.client.create(resource.urn, inputs, resource.customTimeouts?.create));
        return void this.state.set(resource.urn, { resource, id, inputs, outputs });
      }
      const diff = configured
        ? await plugin.client.diff(resource.urn, old.id, old.outputs, inputs, old.inputs, resource.ignoreChanges)
        : { changes: "unknown" as const, replaces: [], diffs: [] };
      const base = imported ? "import" : "same";
      // A resource with init errors is updated whatever its diff (step_generator.go, "hasInitErrors").
      if (diff.changes === "none" && !old.initErrors?.length) {
        steps.push({ name: resource.name, op: base });
        if (!preview) this.state.set(resource.urn, { ...old, resource, inputs });
        return;
      }
      if (diff.replaces.length > 0) {
        if (resource.importId) {
          const message =
            "previously-imported resources that still specify an ID may not be replaced; please remove the `import` declaration from your program;\n" +
            diff.replaces.map((k) => `${k}: ${JSON.stringify(old!.inputs[k])} => ${JSON.stringify(inputs[k])}`).join("\n");
          throw new Error(`${resource.name}: ${message}`);
        }
        steps.push({ name: resource.name, op: "replace", changed: diff.diffs });
        if (preview) return;
        replaced.push(old);
        const { id, outputs } = await recordingInitFailure(plugin.client.create(resource.urn, inputs, resource.customTimeouts?.create));
        return void this.state.set(resource.urn, { resource, id, inputs, outputs });
      }
      steps.push({ name: resource.name, op: imported ? "import" : "update", changed: diff.diffs });
      if (preview) return;
      const outputs = await recordingInitFailure(
        plugin.client.update(resource.urn, old.id, old.outputs, inputs, {
          timeout: resource.customTimeouts?.update,
          ignoreChanges: resource.ignoreChanges,
          oldInputs: old.inputs,
        }),
        old.id,
      );
      this.state.set(resource.urn, { resource, id: old.id, inputs, outputs });
    });
    if (!preview) {
      await inReverseDependencyOrder(
        replaced.map((h) => ({ ...h, urn: h.resource.urn, dependencies: h.resource.dependencies })),
        this.options.parallelism ?? 1,
        (h) => providerOf(h.resource).plugin.client.delete(h.resource.urn, h.id, h.outputs, h.resource.customTimeouts?.delete),
      );
    }
    return steps;
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

  private resolveIds(inputs: Props, preview: boolean): Props {
    return Object.fromEntries(
      Object.entries(inputs).map(([k, v]) => {
        if (typeof v !== "string" || !v.startsWith("@id:")) return [k, v];
        const target = [...this.state.values()].find((h) => h.resource.name === v.slice(4));
        return [k, target ? target.id : preview ? UNKNOWN : v];
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
