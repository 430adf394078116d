import { inDependencyOrder, inReverseDependencyOrder } from "./order";
import type { Registration } from "./registration";
import { UNKNOWN } from "./registration";
import { secret } from "./plugin/nativeProviderClient";
import { startNativeProviderPlugin, type NativeProviderPlugin } from "./plugin/nativeProviderPlugin";

type Props = Record<string, unknown>;
type PackageName = "snapshot" | "runtask";

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
}

interface Held {
  resource: NativeResource;
  id: string;
  inputs: Props;
  outputs: Props;
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

/**
 * A stand-in for the engine driving the two provider plugins, small enough to read: each command starts both
 * plugins afresh and configures them (keys without their namespace, the token marked secret); `up` checks, diffs
 * and creates, updates or replaces (create before delete); `destroy` deletes dependents first. State is kept in
 * memory. CPU and peak memory of the plugins are recorded per command, for benchmarks.
 */
export class NativeEngine {
  private readonly state = new Map<string, Held>();
  /** CPU milliseconds both plugins spent on the last command's operations (their start excluded). */
  lastOperationsCpuMs: number | undefined;
  /** Milliseconds the last command's operations took. */
  lastOperationsMs = 0;
  /** Peak resident memory of the larger plugin in the last command, in KiB. */
  lastPeakRssKb: number | undefined;

  /** Further environment of the plugins the next commands start. */
  env: NodeJS.ProcessEnv | undefined;

  constructor(private readonly options: { programDir: string; config: Record<string, string>; parallelism?: number; env?: NodeJS.ProcessEnv }) {
    this.env = options.env;
  }

  async up(program: NativeResource[]): Promise<void> {
    await this.command(async (plugins) => {
      const replaced: Held[] = [];
      await inDependencyOrder(program, this.options.parallelism ?? 1, async (resource) => {
        const plugin = plugins[packageOf(resource.token)];
        const old = this.state.get(resource.urn);
        const news = this.resolveIds(resource.inputs);
        const { inputs, failures } = await plugin.client.check(resource.urn, old?.inputs ?? {}, news);
        if (failures.length > 0) throw new Error(`${resource.name}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
        if (old) {
          const diff = await plugin.client.diff(resource.urn, old.id, old.outputs, inputs, old.inputs);
          if (diff.changes === "none") return void this.state.set(resource.urn, { ...old, inputs });
          if (diff.replaces.length === 0) {
            const outputs = await plugin.client.update(resource.urn, old.id, old.outputs, inputs);
            return void this.state.set(resource.urn, { resource, id: old.id, inputs, outputs });
          }
          replaced.push(old);
        }
        const { id, outputs } = await plugin.client.create(resource.urn, inputs);
        this.state.set(resource.urn, { resource, id, inputs, outputs });
      });
      await inReverseDependencyOrder(
        replaced.map((h) => ({ ...h, urn: h.resource.urn, dependencies: h.resource.dependencies })),
        this.options.parallelism ?? 1,
        (h) => plugins[packageOf(h.resource.token)].client.delete(h.resource.urn, h.id, h.outputs),
      );
    });
  }

  async destroy(): Promise<void> {
    await this.command(async (plugins) => {
      const held = [...this.state.values()].map((h) => ({ ...h, urn: h.resource.urn, dependencies: h.resource.dependencies }));
      await inReverseDependencyOrder(held, this.options.parallelism ?? 1, async (h) => {
        await plugins[packageOf(h.resource.token)].client.delete(h.urn, h.id, h.outputs);
        this.state.delete(h.urn);
      });
    });
  }

  /** What the engine holds for a resource: its id, inputs and outputs (secrets marked). */
  held(urn: string): { id: string; inputs: Props; outputs: Props } | undefined {
    return this.state.get(urn);
  }

  private resolveIds(inputs: Props): Props {
    return Object.fromEntries(
      Object.entries(inputs).map(([k, v]) => {
        if (typeof v !== "string" || !v.startsWith("@id:")) return [k, v];
        const target = [...this.state.values()].find((h) => h.resource.name === v.slice(4));
        return [k, target ? target.id : UNKNOWN];
      }),
    );
  }

  private async command(body: (plugins: Record<PackageName, NativeProviderPlugin>) => Promise<void>): Promise<void> {
    const names: PackageName[] = ["snapshot", "runtask"];
    const started = await Promise.all(names.map((n) => startNativeProviderPlugin(this.options.programDir, n, this.env)));
    const plugins = Object.fromEntries(names.map((n, i) => [n, started[i]])) as Record<PackageName, NativeProviderPlugin>;
    try {
      for (const name of names) await plugins[name].client.configure(this.configOf(name));
      const cpu = () =>
        started.reduce<number | undefined>(
          (sum, p) => (sum === undefined || p.process.cpuMs() === undefined ? undefined : sum + p.process.cpuMs()!),
          0,
        );
      const before = cpu();
      const t0 = process.hrtime.bigint();
      await body(plugins);
      this.lastOperationsMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const after = cpu();
      this.lastOperationsCpuMs = before === undefined || after === undefined ? undefined : after - before;
      const rss = started.map((p) => p.process.peakRssKb()).filter((k): k is number => k !== undefined);
      this.lastPeakRssKb = rss.length ? Math.max(...rss) : undefined;
    } finally {
      await Promise.all(started.map((p) => p.stop()));
    }
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
