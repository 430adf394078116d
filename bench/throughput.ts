import { statSync } from "node:fs";
import { NativeEngine, nativeProgram, type ConsumerProject, type NativeResource, type Registration } from "../engine";
import { startEmulatorProcess } from "./emulatorProcess";
import { benchConfig, median, stackOf, timed } from "./harness";
import { mixedProgram } from "./mixedProgram";
import { withBareRequestProvider } from "./bareRequestProvider";
import { withSameRequestProvider } from "./sameRequestProvider";
import { withNullProvider } from "./nullProvider";

export const LATENCY_MS = 20;

export const PHASES = ["create", "noOpUp", "update", "delete"] as const;
export type Phase = (typeof PHASES)[number];

/** CPU milliseconds per resource operation, by process. */
export interface CpuPerOperation {
  /** The dynamic provider plugin: the plugin's own gRPC and protobuf work, our provider, its HTTP client. */
  plugin?: number;
  /** The engine driver (the stand-in for the Pulumi engine, which is not ours to speed up). */
  engine: number;
  /** The emulator (the stand-in for the remote service). */
  emulator: number;
}

export interface PhaseFigures {
  /** The whole command, plugin start included. */
  commandMs: number;
  /** The resource operations alone. */
  ms: number;
  requests: number;
  operationsPerSecond: number;
  requestsPerSecond: number;
  /** Requests per second against the bound: parallelism / latency. */
  ofBound: number;
  peakPluginRssMb?: number;
  cpuPerOperationMs: CpuPerOperation;
}

export interface ThroughputFigures {
  resources: number;
  parallelism: number;
  /** Runs made of each phase; the figures are those of the run with the median time. */
  runs: number;
  /** Operations per second of the fastest and the slowest run, by phase: how much the machine varied. */
  spread: Record<Phase, [number, number]>;
  create: PhaseFigures;
  noOpUp: PhaseFigures;
  update: PhaseFigures;
  delete: PhaseFigures;
  /**
   * Plugin CPU milliseconds per operation, by phase, with a provider that does nothing (the same program,
   * driver and plugin, no request): the floor that the plugin itself sets, whatever the provider.
   */
  nullProviderPluginCpuMs?: Record<Phase, number | undefined>;
  /**
   * The same with a provider that only sends as many bare requests per operation as ours, through undici: what
   * any provider making those requests with that client pays.
   */
  bareRequestPluginCpuMs?: Record<Phase, number | undefined>;
  /**
   * The same with a provider that sends exactly our requests (methods, paths, headers, JSON bodies) and parses
   * their answers, and does nothing else: what any provider pays that speaks these APIs over undici.
   */
  sameRequestPluginCpuMs?: Record<Phase, number | undefined>;
  /**
   * The same program on the provider plugins (`pulumi-resource-snapshot` and `pulumi-resource-runtask`, both
   * processes' CPU), driven as the engine drives them: CPU milliseconds per operation, and the larger plugin's peak
   * memory.
   */
  nativePluginCpuMs?: Record<Phase, number | undefined>;
  /** Our plugin's median CPU per operation over the runs (the phase figures are those of the median-time run). */
  oursPluginCpuMs?: Record<Phase, number | undefined>;
  nativePeakRssMb?: number;
  /** Bytes per resource: the `__provider` text, and the whole state (inputs and outputs, text twice). */
  providerTextBytes: number;
  stateBytesPerResource: number;
}

interface Run {
  phases: Record<Phase, PhaseFigures>;
  providerTextBytes: number;
  stateBytesPerResource: number;
}

/** One pass of create, no-op up, update and delete over `n` resources, against a fresh emulator process. */
async function run(fixture: ConsumerProject, versions: [Registration[], Registration[]], n: number, parallelism: number): Promise<Run> {
  const emulator = await startEmulatorProcess({
    snapshot: { takeSnapshots: false },
    faults: { latencyMs: LATENCY_MS },
    // Pinned to the emulator's former associate answer (201 with the document; its default is now the spec's
    // 204), so that figures compare with earlier runs.
    runTask: { organizations: [{ name: "emulator-org", workspaces: [{ id: "ws-bench", name: "bench" }] }], associateResponse: "201" },
  });
  const stack = stackOf(fixture, emulator.url, parallelism);
  const { engine } = stack;
  const bound = parallelism / (LATENCY_MS / 1000);
  const phase = async (command: () => Promise<unknown>): Promise<PhaseFigures> => {
    const before = await emulator.resetRequests();
    const { ms: commandMs } = await timed(command);
    const after = await emulator.stats();
    // Operations only: the plugin's start (the same for every stack size) is reported under start-up.
    const ms = engine.lastOperationsMs;
    const requests = after.requests;
    const rss = engine.lastPeakRssKb;
    const cpu = engine.lastOperationsCpuMs;
    const perOp = (total: number) => Math.round((total / n) * 1000) / 1000;
    return {
      commandMs: Math.round(commandMs),
      ms: Math.round(ms),
      requests,
      operationsPerSecond: Math.round((n / ms) * 1000),
      requestsPerSecond: Math.round((requests / ms) * 1000),
      ofBound: Math.round(((requests / ms) * 1000 * 100) / bound) / 100,
      peakPluginRssMb: rss === undefined ? undefined : Math.round(rss / 1024),
      // The emulator's figure spans the whole command: it has nothing to do while the plugin starts.
      cpuPerOperationMs: {
        plugin: cpu.plugin === undefined ? undefined : perOp(cpu.plugin),
        engine: perOp(cpu.engine),
        emulator: perOp(after.cpuMs - before.cpuMs),
      },
    };
  };
  try {
    const create = await phase(() => engine.up(versions[0]));
    const state = engine.state();
    const providerTextBytes = Buffer.byteLength(String(state.resources[0].outputs.__provider));
    const stateBytesPerResource = Math.round(statSync(stack.stateFile).size / n);
    const noOpUp = await phase(() => engine.up(versions[0]));
    const update = await phase(() => engine.up(versions[1]));
    const del = await phase(() => engine.destroy());
    return { phases: { create, noOpUp, update, delete: del }, providerTextBytes, stateBytesPerResource };
  } finally {
    stack.remove();
    await emulator.close();
  }
}

/** The same four phases on the provider plugins, against a fresh emulator process. */
async function runNative(
  fixture: ConsumerProject,
  versions: [NativeResource[], NativeResource[]],
  n: number,
  parallelism: number,
): Promise<{ cpu: Record<Phase, number | undefined>; peakRssKb?: number }> {
  const emulator = await startEmulatorProcess({
    snapshot: { takeSnapshots: false },
    faults: { latencyMs: LATENCY_MS },
    runTask: { organizations: [{ name: "emulator-org", workspaces: [{ id: "ws-bench", name: "bench" }] }], associateResponse: "201" },
  });
  const engine = new NativeEngine({ programDir: fixture.dir, parallelism, config: benchConfig(emulator.url) });
  const cpu = {} as Record<Phase, number | undefined>;
  let peakRssKb: number | undefined;
  try {
    for (const [phase, command] of [
      ["create", () => engine.up(versions[0])],
      ["noOpUp", () => engine.up(versions[0])],
      ["update", () => engine.up(versions[1])],
      ["delete", () => engine.destroy()],
    ] as const) {
      await command();
      cpu[phase] = engine.lastOperationsCpuMs === undefined ? undefined : Math.round((engine.lastOperationsCpuMs / n) * 1000) / 1000;
      peakRssKb = Math.max(peakRssKb ?? 0, engine.lastPeakRssKb ?? 0) || undefined;
    }
  } finally {
    await emulator.close();
  }
  return { cpu, peakRssKb };
}

/**
 * Create, no-op up, update and delete of `n` mixed resources at `parallelism`, in `runs` rounds, each round our
 * provider, the null provider, the bare-request and same-request providers and the provider plugins in turn, so that all
 * see the machine in the same state (its speed varies from minute to minute). Each phase reports its median run,
 * and the others' median CPU per operation.
 */
export async function throughput(fixture: ConsumerProject, n: number, parallelism: number, runs = 3): Promise<ThroughputFigures> {
  const versions: [Registration[], Registration[]] = [fixture.capture(mixedProgram(n, 1)), fixture.capture(mixedProgram(n, 2))];
  const natives: [NativeResource[], NativeResource[]] = [nativeProgram(versions[0]), nativeProgram(versions[1])];
  const all: Run[] = [];
  const floors: Run[] = [];
  const bares: Run[] = [];
  const sames: Run[] = [];
  const nativeRuns: Awaited<ReturnType<typeof runNative>>[] = [];
  for (let i = 0; i < runs; i++) {
    all.push(await run(fixture, versions, n, parallelism));
    floors.push(await run(fixture, [withNullProvider(versions[0]), withNullProvider(versions[1])], n, parallelism));
    bares.push(await run(fixture, [withBareRequestProvider(versions[0]), withBareRequestProvider(versions[1])], n, parallelism));
    sames.push(await run(fixture, [withSameRequestProvider(versions[0]), withSameRequestProvider(versions[1])], n, parallelism));
    nativeRuns.push(await runNative(fixture, natives, n, parallelism));
  }
  const medianOf = (values: (number | undefined)[]) => (values.some((v) => v === undefined) ? undefined : median(values as number[]));
  const pluginCpu = (rs: Run[]) =>
    Object.fromEntries(PHASES.map((p) => [p, medianOf(rs.map((r) => r.phases[p].cpuPerOperationMs.plugin))])) as Record<Phase, number | undefined>;
  const pick = (p: Phase): PhaseFigures => {
    const middle = median(all.map((r) => r.phases[p].ms));
    return all.find((r) => r.phases[p].ms === middle)!.phases[p];
  };
  const rates = (p: Phase) => all.map((r) => r.phases[p].operationsPerSecond);
  const spread = Object.fromEntries(PHASES.map((p) => [p, [Math.min(...rates(p)), Math.max(...rates(p))]])) as ThroughputFigures["spread"];
  return {
    resources: n,
    parallelism,
    runs,
    spread,
    create: pick("create"),
    noOpUp: pick("noOpUp"),
    update: pick("update"),
    delete: pick("delete"),
    oursPluginCpuMs: pluginCpu(all),
    nullProviderPluginCpuMs: pluginCpu(floors),
    bareRequestPluginCpuMs: pluginCpu(bares),
    sameRequestPluginCpuMs: pluginCpu(sames),
    nativePluginCpuMs: Object.fromEntries(PHASES.map((p) => [p, medianOf(nativeRuns.map((r) => r.cpu[p]))])) as Record<Phase, number | undefined>,
    nativePeakRssMb: Math.round(Math.max(...nativeRuns.map((r) => r.peakRssKb ?? 0)) / 1024) || undefined,
    providerTextBytes: all[0].providerTextBytes,
    stateBytesPerResource: all[0].stateBytesPerResource,
  };
}
