import type { ProviderCpuFigures } from "./providerCpu";
import { PHASES, type PhaseFigures, type ThroughputFigures } from "./throughput";

const pct = (x: number) => `${Math.round(x * 100)}%`;
const ms = (x: number | undefined) => (x === undefined ? "-" : x.toFixed(2));

/**
 * What bounds a phase's request rate besides parallelism / latency: the plugin is one Node.js thread, so it
 * cannot run more operations per second than 1000 / its CPU milliseconds per operation; and the plugin, the
 * engine driver and the emulator together cannot use more than the machine's cores.
 */
export function ceilings(p: PhaseFigures, n: number, cores: number): { plugin?: number; machine?: number } {
  const { plugin, engine, emulator } = p.cpuPerOperationMs;
  if (plugin === undefined || p.requests === 0) return {};
  const requestsPerOp = p.requests / n;
  return {
    plugin: (requestsPerOp * 1000) / plugin,
    machine: (requestsPerOp * cores * 1000) / (plugin + engine + emulator),
  };
}

export function renderThroughput(figures: ThroughputFigures[], cores: number, providerCpu: ProviderCpuFigures): string[] {
  const lines: string[] = [];
  lines.push(
    "| resources | parallelism | phase | operations (ms) | ops/s (range) | requests/s | of bound | plugin CPU ms/op (null provider) | engine | emulator | plugin peak RSS (MB) |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const t of figures) {
    for (const phase of PHASES) {
      const p = t[phase];
      const [lo, hi] = t.spread[phase];
      const c = p.cpuPerOperationMs;
      lines.push(
        `| ${t.resources} | ${t.parallelism} | ${phase} | ${p.ms} | ${p.operationsPerSecond} (${lo}–${hi}) | ${p.requestsPerSecond} | ${p.requests ? pct(p.ofBound) : "-"} | ` +
          `${ms(c.plugin)} (${ms(t.nullProviderPluginCpuMs?.[phase])}) | ${ms(c.engine)} | ${ms(c.emulator)} | ${p.peakPluginRssMb ?? "-"} |`,
      );
    }
  }
  const runs = figures[0]?.runs ?? 1;
  lines.push(
    "",
    `Each configuration ran ${runs} time${runs === 1 ? "" : "s"} (plugin, emulator and state started afresh); a phase shows its run of median`,
    "time, and the range of operations per second over the runs. Operations exclude the plugin's start, which",
    "every `pulumi` command pays once (see start-up). Mixed resources: a third each of snapshot configurations,",
    "run tasks, and attachments (which wait for their task, as in a real program). CPU is per resource",
    "operation, from /proc: in the plugin process (beside it, the same phase with a provider that does nothing",
    "and sends no request: the plugin's own gRPC and protobuf cost), in the engine driver, and in the emulator,",
    "which runs in a process of its own as a remote service would.",
    "",
  );
  const largest = Math.max(...figures.map((t) => t.resources));
  const cpu = Object.entries(providerCpu.checkAndDiffMicros).map(([k, v]) => `${k} ${v} µs`).join(", ");
  lines.push("**Against the bound.** At " + largest + " resources:", "");
  for (const t of figures.filter((x) => x.resources === largest)) {
    for (const phase of ["create", "update", "delete"] as const) {
      const p = t[phase];
      const c = ceilings(p, t.resources, cores);
      if (c.plugin === undefined || c.machine === undefined) continue;
      const bound = t.parallelism / 0.02;
      lines.push(
        `- parallelism ${t.parallelism}, ${phase}: ${p.requestsPerSecond} requests/s, ${pct(p.ofBound)} of the bound (${bound}/s). ` +
          `The plugin's CPU (${ms(p.cpuPerOperationMs.plugin)} ms per operation) caps one plugin process at ${Math.round(c.plugin)}/s (${pct(c.plugin / bound)}); ` +
          `the three processes' CPU on ${cores} cores caps the run at ${Math.round(c.machine)}/s (${pct(c.machine / bound)}).`,
      );
    }
  }
  lines.push(
    "",
    "Where a CPU ceiling is below the bound, the target of 90% of the bound cannot be met on this machine by any",
    "provider: the requests are not what takes the time. The null provider's column shows how much of the",
    "plugin's CPU is the plugin's own gRPC and protobuf handling, which every dynamic provider pays; the rest is",
    `ours: the HTTP client and the provider's code (check plus diff alone take ${cpu} of CPU in process).`,
    "",
  );
  return lines;
}
