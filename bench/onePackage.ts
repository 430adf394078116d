import { NativeEngine, nativeProgram, type ConsumerProject } from "../engine";
import { startEmulatorProcess } from "./emulatorProcess";
import { benchConfig, median, stackOf } from "./harness";
import { LATENCY_MS } from "./throughput";

const PHASES = ["create", "noOpUp", "delete"] as const;

/** Plugin CPU milliseconds per operation of a program of run tasks alone: one package, so one provider plugin. */
export interface OnePackageFigures {
  resources: number;
  parallelism: number;
  runs: number;
  dynamic: Record<(typeof PHASES)[number], number>;
  native: Record<(typeof PHASES)[number], number>;
}

/**
 * The provider plugins against the dynamic plugin for a program of one package (`n` run tasks), rounds
 * interleaved, medians: the mixed program needs both plugins, two processes where the dynamic provider has one,
 * and this tells that cost apart from the cost of each plugin.
 */
export async function onePackage(fixture: ConsumerProject, n: number, parallelism: number, runs = 3): Promise<OnePackageFigures> {
  const regs = fixture.capture({
    runTasks: Array.from({ length: n }, (_, i) => ({ resource: `task-${i}`, args: { url: `https://h.example/${i}`, description: "v1" } })),
  });
  const program = nativeProgram(regs);
  const samples = { dynamic: [] as Record<string, number>[], native: [] as Record<string, number>[] };
  for (let round = 0; round < runs; round++) {
    for (const kind of ["dynamic", "native"] as const) {
      const emulator = await startEmulatorProcess({ snapshot: { takeSnapshots: false }, faults: { latencyMs: LATENCY_MS } });
      const figures: Record<string, number> = {};
      try {
        // Each kind's commands, and the plugin CPU of the last one.
        const dynamic = kind === "dynamic" ? stackOf(fixture, emulator.url, parallelism) : undefined;
        const native = kind === "native" ? new NativeEngine({ programDir: fixture.dir, parallelism, config: benchConfig(emulator.url) }) : undefined;
        const up = () => (dynamic ? dynamic.engine.up(regs) : native!.up(program));
        const cpuMs = () => (dynamic ? dynamic.engine.lastOperationsCpuMs.plugin : native!.lastOperationsCpuMs) ?? NaN;
        for (const [phase, command] of [
          ["create", up],
          ["noOpUp", up],
          ["delete", () => (dynamic ? dynamic.engine.destroy() : native!.destroy())],
        ] as const) {
          await command();
          figures[phase] = cpuMs() / n;
        }
        dynamic?.remove();
      } finally {
        await emulator.close();
      }
      samples[kind].push(figures);
    }
  }
  const medians = (rs: Record<string, number>[]) =>
    Object.fromEntries(PHASES.map((p) => [p, Math.round(median(rs.map((r) => r[p])) * 1000) / 1000])) as OnePackageFigures["dynamic"];
  return { resources: n, parallelism, runs, dynamic: medians(samples.dynamic), native: medians(samples.native) };
}
