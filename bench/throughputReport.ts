import type { ProviderCpuFigures } from "./providerCpu";
import { PHASES, type PhaseFigures, type ThroughputFigures } from "./throughput";

const pct = (x: number) => `${Math.round(x * 100)}%`;
const ms = (x: number | undefined) => (x === undefined ? "-" : x.toFixed(2));

/**
 * What bounds a phase's request rate besides parallelism / latency: the plugin is one Node.js thread, so it
 * cannot run more operations per second than 1000 / its CPU milliseconds per operation (with our provider, and
 * with the null provider: what no dynamic provider can beat); and the plugin, the engine driver and the
 * emulator together cannot use more than the machine's cores. Requests per second, like the bound.
 */
export function ceilings(p: PhaseFigures, n: number, cores: number, nullPluginMs: number | undefined): { plugin?: number; anyProvider?: number; machine?: number } {
  const { plugin, engine, emulator } = p.cpuPerOperationMs;
  if (plugin === undefined || p.requests === 0) return {};
  const requestsPerOp = p.requests / n;
  return {
    plugin: (requestsPerOp * 1000) / plugin,
    anyProvider: nullPluginMs ? (requestsPerOp * 1000) / nullPluginMs : undefined,
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
  lines.push(...scaling(figures), "");
  const largest = Math.max(...figures.map((t) => t.resources));
  const cpu = Object.entries(providerCpu.checkAndDiffMicros).map(([k, v]) => `${k} ${v} µs`).join(", ");
  lines.push(`**Against the bound.** At ${largest} resources, in requests per second:`, "");
  const verdicts = { unreachable: [] as string[], ours: [] as string[], met: [] as string[] };
  for (const t of figures.filter((x) => x.resources === largest)) {
    for (const phase of ["create", "update", "delete"] as const) {
      const p = t[phase];
      const nullMs = t.nullProviderPluginCpuMs?.[phase];
      const c = ceilings(p, t.resources, cores, nullMs);
      if (c.plugin === undefined || c.machine === undefined) continue;
      const bound = t.parallelism / 0.02;
      const name = `${phase} at parallelism ${t.parallelism}`;
      lines.push(
        `- ${name}: ${p.requestsPerSecond}/s, ${pct(p.ofBound)} of the bound (${bound}/s). One plugin process's CPU caps it at ` +
          `${Math.round(c.plugin)}/s (${pct(c.plugin / bound)}) with our provider (${ms(p.cpuPerOperationMs.plugin)} ms per operation)` +
          (c.anyProvider === undefined ? "" : ` and at ${Math.round(c.anyProvider)}/s (${pct(c.anyProvider / bound)}) with one that does nothing (${ms(nullMs)} ms)`) +
          `; the three processes on ${cores} cores cap it at ${Math.round(c.machine)}/s (${pct(c.machine / bound)}).`,
      );
      if (p.ofBound >= 0.9) verdicts.met.push(name);
      else if (c.anyProvider !== undefined && c.anyProvider < 0.9 * bound) verdicts.unreachable.push(name);
      else verdicts.ours.push(name);
    }
  }
  lines.push("");
  if (verdicts.met.length) lines.push(`The target of 90% of the bound is met for ${verdicts.met.join(", ")}.`);
  if (verdicts.unreachable.length) {
    lines.push(
      `For ${verdicts.unreachable.join(", ")}, no dynamic provider can reach 90% on this machine: the plugin's own gRPC`,
      "and protobuf handling, which a provider that does nothing pays too, already costs more CPU per operation than",
      "one thread has at that rate.",
    );
  }
  if (verdicts.ours.length) {
    lines.push(
      `For ${verdicts.ours.join(", ")}, the plugin's own floor would allow it, and our provider's share of the plugin's`,
      "CPU (the HTTP client's requests, and its code: check plus diff alone take " + cpu + " in process) is what",
      "keeps the figure below 90%.",
    );
  }
  lines.push("");
  return lines;
}

/** Whether the cost per resource stays flat as the stack grows: milliseconds of operations per resource, by size. */
function scaling(figures: ThroughputFigures[]): string[] {
  const lines = ["**Cost per resource as the stack grows** (milliseconds of operations per resource, create / update / delete):", ""];
  for (const parallelism of [...new Set(figures.map((t) => t.parallelism))]) {
    const rows = figures.filter((t) => t.parallelism === parallelism).sort((a, b) => a.resources - b.resources);
    const per = (t: ThroughputFigures, p: "create" | "update" | "delete") => (t[p].ms / t.resources).toFixed(1);
    lines.push(`- parallelism ${parallelism}: ` + rows.map((t) => `${t.resources} resources ${per(t, "create")} / ${per(t, "update")} / ${per(t, "delete")}`).join("; ") + ".");
  }
  const grows = figures.some((t) =>
    figures.some((u) => u.parallelism === t.parallelism && u.resources > t.resources && (["create", "update", "delete"] as const).some((p) => u[p].ms / u.resources > (t[p].ms / t.resources) * 1.1)),
  );
  lines.push(
    "",
    grows
      ? "The cost per resource grows with the stack somewhere above: see the rows concerned."
      : "It never grows with the stack: it falls, as the plugin's start-up work and its warm-up are shared by more resources.",
  );
  return lines;
}
