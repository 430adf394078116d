import { providers } from "../provider";
import type { Measured } from "./setting";

export interface ProviderCpuFigures {
  /** Where it was measured on its own (with the listing), when and on what code. */
  measured?: Measured;
  /** Microseconds of CPU per check + diff of one resource, in process, per resource type. */
  checkAndDiffMicros: Record<string, number>;
}

/**
 * The provider's own CPU cost per operation, without the plugin's gRPC and protobuf marshalling or any
 * network: it tells how much of the time measured through the plugin is the provider's.
 */
export async function providerCpu(iterations = 20_000): Promise<ProviderCpuFigures> {
  const cases: [keyof typeof providers, Record<string, unknown>, Record<string, unknown>][] = [
    ["snapshotAutoConfig", { name: "c", interval: "1h", pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" }, {}],
    ["runTask", { organization: "o", name: "t", url: "https://hooks.example.com/t", description: "d" }, { taskId: "task-1" }],
    ["workspaceRunTask", { workspaceId: "ws-1", taskId: "task-1", enforcementLevel: "advisory" }, { workspaceTaskId: "wstask-1" }],
  ];
  const out: Record<string, number> = {};
  for (const [kind, news, outputsOnly] of cases) {
    const p = providers[kind];
    const checked = (await p.check({}, news)).inputs as Record<string, unknown>;
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) {
      const inputs = (await p.check(checked, news)).inputs as Record<string, unknown>;
      await p.diff("id", { ...checked, ...outputsOnly }, inputs);
    }
    out[kind] = Math.round((Number(process.hrtime.bigint() - started) / 1e3 / iterations) * 10) / 10;
  }
  return { checkAndDiffMicros: out };
}
