import { statSync } from "node:fs";
import type { Fixture, ProgramSpec } from "../test/conformance/fixture";
import { timed, world } from "./harness";

export const LATENCY_MS = 20;

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
}

export interface ThroughputFigures {
  resources: number;
  parallelism: number;
  create: PhaseFigures;
  noOpUp: PhaseFigures;
  update: PhaseFigures;
  delete: PhaseFigures;
  /** Bytes per resource: the `__provider` text, and the whole state (inputs and outputs, text twice). */
  providerTextBytes: number;
  stateBytesPerResource: number;
}

/** A program of `n` resources: a third each of snapshot configurations, run tasks, and attachments of them. */
function program(n: number, version: number): ProgramSpec {
  const third = Math.ceil(n / 3);
  const spec: Required<Pick<ProgramSpec, "snapshots" | "runTasks" | "attachments">> = { snapshots: [], runTasks: [], attachments: [] };
  for (let i = 0; spec.snapshots.length + spec.runTasks.length + spec.attachments.length < n; i++) {
    if (i < third) spec.snapshots.push({ resource: `cfg-${i}`, args: { interval: "1h", retain: version, pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" } });
    else if (i < 2 * third) spec.runTasks.push({ resource: `task-${i}`, args: { url: `https://hooks.example.com/${i}`, description: `v${version}` } });
    else {
      const task = spec.runTasks[(i - 2 * third) % spec.runTasks.length].resource;
      spec.attachments.push({ resource: `attach-${i}`, task, args: { workspaceId: "ws-bench", enforcementLevel: version === 1 ? "advisory" : "mandatory" } });
    }
  }
  return spec;
}

export async function throughput(fixture: Fixture, n: number, parallelism: number): Promise<ThroughputFigures> {
  const w = await world(
    fixture,
    { faults: { latencyMs: LATENCY_MS }, runTask: { organizations: [{ name: "emulator-org", workspaces: [{ id: "ws-bench", name: "bench" }] }] } },
    parallelism,
  );
  const bound = parallelism / (LATENCY_MS / 1000);
  const phase = async (run: () => Promise<unknown>): Promise<PhaseFigures> => {
    w.emulator.requests.reset();
    const { ms: commandMs } = await timed(run);
    // Operations only: the plugin's start (the same for every stack size) is reported under start-up.
    const ms = w.engine.lastOperationsMs;
    const requests = w.emulator.requests.total();
    const rss = w.engine.lastPeakRssKb;
    return {
      commandMs: Math.round(commandMs),
      ms: Math.round(ms),
      requests,
      operationsPerSecond: Math.round((n / ms) * 1000),
      requestsPerSecond: Math.round((requests / ms) * 1000),
      ofBound: Math.round(((requests / ms) * 1000 * 100) / bound) / 100,
      peakPluginRssMb: rss === undefined ? undefined : Math.round(rss / 1024),
    };
  };
  try {
    const v1 = fixture.capture(program(n, 1));
    const v2 = fixture.capture(program(n, 2));
    const create = await phase(() => w.engine.up(v1));
    const state = w.engine.state();
    const providerTextBytes = Buffer.byteLength(String(state.resources[0].outputs.__provider));
    const stateBytesPerResource = Math.round(statSync((w.engine as unknown as { options: { stateFile: string } }).options.stateFile).size / n);
    const noOpUp = await phase(() => w.engine.up(v1));
    const update = await phase(() => w.engine.up(v2));
    const del = await phase(() => w.engine.destroy());
    return { resources: n, parallelism, create, noOpUp, update, delete: del, providerTextBytes, stateBytesPerResource };
  } finally {
    await w.close();
  }
}
