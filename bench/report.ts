import type { ListingFigures } from "./listing";
import type { ProviderCpuFigures } from "./providerCpu";
import type { RequestCounts } from "./requestsPerOperation";
import type { StartupFigures } from "./startup";
import type { ThroughputFigures } from "./throughput";

export interface BenchResults {
  date: string;
  machine: { cpus: number; cpu?: string; memoryGiB: number; node: string };
  requests: Record<string, RequestCounts>;
  startup: StartupFigures;
  throughput: ThroughputFigures[];
  listing: ListingFigures;
  providerCpu: ProviderCpuFigures;
}

/**
 * Requests the Terraform providers make for the same operations, counted from their source (see
 * shared background research): a plan refreshes every resource (one read each) even when nothing changed;
 * the snapshot resource re-reads after every write; the workspace run task create reads the task and the
 * workspace before its POST.
 */
const TERRAFORM: Record<string, RequestCounts & { source: string }> = {
  SnapshotAutoConfig: { create: 2, noOpUp: 1, update: 2, refresh: 1, adopt: 1, delete: 1, source: "terraform-provider-vault raft_snapshot_agent_config: PUT then GET; import = GET" },
  RunTask: { create: 1, noOpUp: 1, update: 1, refresh: 1, adopt: 1, delete: 1, source: "terraform-provider-tfe organization_run_task: POST; PATCH; import pages the task list (1 page here)" },
  WorkspaceRunTask: { create: 3, noOpUp: 1, update: 1, refresh: 1, adopt: 3, delete: 1, source: "terraform-provider-tfe workspace_run_task: GET task, GET workspace, POST; import resolves task, workspace, list" },
};

const OPS: (keyof RequestCounts)[] = ["create", "noOpUp", "update", "refresh", "adopt", "delete"];

export function renderReport(r: BenchResults): string {
  const lines: string[] = [];
  lines.push("# Benchmarks", "");
  lines.push(`Measured ${r.date.slice(0, 10)} on ${r.machine.cpus} cores (${r.machine.cpu ?? "unknown CPU"}), ${r.machine.memoryGiB} GiB, Node ${r.machine.node}.`, "");
  lines.push("## Method", "");
  lines.push(
    "Every figure comes from the real `@pulumi/pulumi/cmd/dynamic-provider` plugin process, driven through the",
    "engine's sequences by the conformance suite's engine driver (`test/conformance/engine/`), in a consumer",
    "project where the packed package is installed, against the bundled emulator on loopback. Requests are",
    "counted at the emulator. For throughput the emulator adds 20 ms to every request, so the bound on requests",
    "per second is parallelism / 20 ms. Rerun with `npm run bench` (about a minute; `npm run bench -- --quick`",
    "for a smaller run); results go to `bench/results/latest.json` and this page.",
    "",
  );
  lines.push("## Requests per operation", "");
  lines.push("| resource | " + OPS.join(" | ") + " |", "|---|" + OPS.map(() => "---").join("|") + "|");
  for (const [kind, c] of Object.entries(r.requests)) {
    lines.push(`| ${kind} | ${OPS.map((op) => `${c[op]} (Terraform ${TERRAFORM[kind]?.[op] ?? "?"})`).join(" | ")} |`);
  }
  lines.push("", "Terraform counts, from the providers' source:", "");
  for (const [kind, t] of Object.entries(TERRAFORM)) lines.push(`- ${kind}: ${t.source}.`);
  lines.push(
    "",
    "A no-op `up` makes no request: `diff` compares the program with the state, and the engine refreshes only on",
    "`pulumi refresh` (or `up --refresh`). A snapshot configuration's create reads first, so that an existing",
    "configuration is never overwritten silently; adoption is that read plus the write.",
    "",
  );
  lines.push("## Throughput at scale", "");
  lines.push("| resources | parallelism | phase | command (ms) | operations (ms) | requests | ops/s | requests/s | of bound | plugin peak RSS (MB) |", "|---|---|---|---|---|---|---|---|---|---|");
  for (const t of r.throughput) {
    for (const phase of ["create", "noOpUp", "update", "delete"] as const) {
      const p = t[phase];
      lines.push(`| ${t.resources} | ${t.parallelism} | ${phase} | ${p.commandMs} | ${p.ms} | ${p.requests} | ${p.operationsPerSecond} | ${p.requestsPerSecond} | ${p.requests ? `${Math.round(p.ofBound * 100)}%` : "-"} | ${p.peakPluginRssMb ?? "-"} |`);
    }
  }
  lines.push(
    "",
    "`command` includes starting the plugin process, as every `pulumi` command does; rates are of the",
    "operations alone. Mixed resources: a third each of",
    "snapshot configurations, run tasks, and attachments (which wait for their task, as in a real program).",
    "",
  );
  const big1000 = r.throughput.filter((t) => t.resources === Math.max(...r.throughput.map((x) => x.resources)));
  const cpu = Object.entries(r.providerCpu.checkAndDiffMicros).map(([k, v]) => `${k} ${v} µs`).join(", ");
  lines.push(
    "**Against the bound.** " +
      big1000.map((t) => `At ${t.resources} resources and parallelism ${t.parallelism}, creates reach ${Math.round(t.create.ofBound * 100)}% of the bound and deletes ${Math.round(t.delete.ofBound * 100)}%`).join("; ") +
      ". The target of 90% is not met on this machine, and the figures say why: the run is CPU-bound, not",
    "latency-bound. The plugin process, the engine driver and the emulator share two cores, and a no-op `up`,",
    "which sends no request at all, already costs about a millisecond of CPU per resource in the plugin's gRPC",
    `and protobuf handling. The provider's own share is small: check plus diff take ${cpu} of CPU in process`,
    "(measured below the plugin, without marshalling). Cost per resource does not grow with the stack: time per",
    "operation at 1,000 resources is at or below that at 100.",
    "",
  );
  lines.push("## Start-up", "");
  lines.push(
    `Median of ${r.startup.runs} runs, from starting the plugin to the first completed Check: ${r.startup.trivialMs} ms with a`,
    `provider that does nothing, ${r.startup.providerMs} ms with ours: **${r.startup.addedMs} ms added** by loading our code (target: under 100 ms).`,
    "",
  );
  lines.push("## State size", "");
  const big = r.throughput[r.throughput.length - 1];
  lines.push(
    `\`__provider\` text: **${big.providerTextBytes} bytes** per resource (target: under 2 KB); it is stored twice per resource`,
    `(inputs and outputs). Whole state: ${big.stateBytesPerResource} bytes per resource at ${big.resources} resources.`,
    "",
  );
  lines.push("## Listing", "");
  lines.push(
    `\`listRunTasks\` over ${r.listing.tasks} tasks: ${r.listing.requests} requests (page size 100), ${r.listing.ms} ms with ${r.listing.latencyMs} ms per request.`,
    "",
  );
  return lines.join("\n");
}
