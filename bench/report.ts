import type { Breakdown, FieldBytes, Profile } from "./breakdown";
import { cpuRatio, PHASES, waitingCpuRatios, type EngineComparison, type Phase } from "./engineComparison";
import type { EngineProfile } from "./engineProfile";
import type { ExecutableFigures } from "./executables";
import type { FloorRow } from "./floor";
import type { ListingFigures } from "./listing";
import type { CpuByRole } from "./processTree";
import type { ProviderCpuFigures } from "./providerCpu";
import { PROXY_ROUTES, type ProxyComparison, type ProxyPhaseSummary } from "./proxyComparison";
import type { ResourceKind } from "./programs";
import { IMPORT_IDS, type RequestCounts, type RequestFigures } from "./requestsPerOperation";
import { median, type Measured } from "./setting";
import type { StartupFigures } from "./startup";

export interface BenchResults {
  date: string;
  /** How long the whole run took. */
  minutes: number;
  machine: {
    cpus: number;
    cpu?: string;
    memoryGiB: number;
    node: string;
    pulumi: string;
    /** Load averages (1, 5, 15 minutes) as the run started and ended: the machine is shared. */
    loadAverage: { start: number[]; end: number[] };
  };
  /** `measured` where it was measured on its own. */
  comparison: EngineComparison & { measured?: Measured };
  /** `measured` where it was measured on its own. */
  mixed: EngineComparison & { measured?: Measured };
  /** Where the dynamic resources' state bytes and CPU go (absent from runs before it was measured). */
  breakdown?: Breakdown & { measured?: Measured };
  /** Through an authenticating proxy against direct (absent from runs before it was measured). */
  proxy?: ProxyComparison;
  floor: FloorRow[];
  engineProfile?: EngineProfile;
  requests: RequestFigures;
  startup: StartupFigures;
  /** Absent from results written before the executables existed. */
  executables?: ExecutableFigures;
  listing: ListingFigures;
  providerCpu: ProviderCpuFigures;
}

const PHASE_NAMES: Record<Phase, string> = { up: "`up`", noOpUp: "no-op `up`", destroy: "`destroy`" };
const s1 = (ms: number) => (ms / 1000).toFixed(1);
const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * Requests the Terraform providers make for the same operations, counted from their source: a plan refreshes
 * every resource (one read each) even when nothing changed; the snapshot resource re-reads after every write; the
 * workspace run task create reads the task and the workspace before its POST. Terraform has no adopt: its way to
 * take over an object is import, which ends with the resource's Read (the plugin framework's documentation: "The Read
 * method is also executed after resource import").
 */
const TERRAFORM: Record<ResourceKind, Partial<RequestCounts> & { source: string }> = {
  SnapshotAutoConfig: {
    create: 2,
    noOpUp: 1,
    update: 2,
    refresh: 1,
    import: 1,
    delete: 1,
    source: "terraform-provider-vault raft_snapshot_agent_config: PUT then GET; import takes the name as the id, then its Read GETs",
  },
  RunTask: {
    create: 1,
    noOpUp: 1,
    update: 1,
    refresh: 1,
    import: 2,
    delete: 1,
    source: "terraform-provider-tfe organization_run_task: POST; PATCH; import pages the task list (1 page here), then its Read GETs the task",
  },
  WorkspaceRunTask: {
    create: 3,
    noOpUp: 1,
    update: 1,
    refresh: 1,
    import: 4,
    delete: 1,
    source:
      "terraform-provider-tfe workspace_run_task: GET task, GET workspace, POST; import resolves the task (its list), the workspace, the " +
      "workspace's list, then its Read GETs the association",
  },
};

const OPS: (keyof RequestCounts)[] = ["create", "noOpUp", "update", "refresh", "adopt", "import", "delete"];

export function renderReport(r: BenchResults): string {
  const c = r.comparison;
  const m = r.machine;
  const lines: string[] = ["# Benchmarks", ""];
  lines.push(
    `Measured ${r.date.slice(0, 10)} on ${m.cpus} cores (${m.cpu ?? "unknown CPU"}), ${m.memoryGiB} GiB, Node ${m.node}, Pulumi CLI ${m.pulumi},`,
    `in ${r.minutes} minutes. The machine was shared with other work: load average ${m.loadAverage.start.join(", ")} at the start,`,
    `${m.loadAverage.end.join(", ")} at the end (1, 5 and 15 minutes; ${m.cpus} cores). Absolute times are those of a busy machine; the`,
    "ratios, measured in interleaved rounds, are the figures to compare.",
    "",
  );
  const alone = measuredAlone(r);
  if (alone.length) {
    lines.push(
      `Measured on their own since, each on the code of its day, and saying when, on what commit and under what load: ${alone.join(", ")}.`,
      "",
    );
  }
  lines.push(...whatToExpect(r), ...method(r), "## Ours against the engine's floor", "");
  if (c.measured) lines.push(measuredLine(c.measured), "");
  lines.push(...renderComparison(c), "");
  lines.push(...renderMixed(r.mixed));
  if (r.breakdown) lines.push(...renderBreakdown(r.breakdown));
  lines.push(...renderWhatHolds(c, r.mixed));
  if (r.proxy) lines.push(...renderProxyComparison(r.proxy), "");
  lines.push(
    ...floorSection(r),
    ...renderRequests(r.requests, r.date),
    ...renderStartup(r.startup),
    ...(r.executables ? renderExecutables(r.executables) : []),
    ...stateSection(r),
    ...renderListing(r.listing, r.providerCpu),
  );
  return lines.join("\n");
}

/** The comparison on the mixed program. */
export function renderMixed(mixed: BenchResults["mixed"]): string[] {
  return [
    `The same on a mixed program (${mixed.resources} resources: a third each of snapshot configurations, run tasks, and attachments of`,
    `those tasks; both packages, so two plugin processes for the provider plugins; ${mixed.rounds} round${mixed.rounds === 1 ? "" : "s"}):`,
    ...(mixed.measured ? [measuredLine(mixed.measured)] : []),
    "",
    ...ratioTable(mixed),
    "",
    mixed.rounds === 1 ? "One run of each: a wall time here is one command's, moved by whatever else ran then; read the CPU ratios.\n" : "",
  ];
}

/** The comparison on run tasks measured on its own: dated, then its tables. */
export function renderComparisonAlone(c: BenchResults["comparison"]): string[] {
  return [...(c.measured ? [measuredLine(c.measured), ""] : []), ...renderComparison(c)];
}

const KINDS = ["SnapshotAutoConfig", "RunTask", "WorkspaceRunTask"] as const;

/** Where the bytes of a state and the CPU of the program's and the plugin's processes go, dynamic against null. */
export function renderBreakdown(b: NonNullable<BenchResults["breakdown"]>): string[] {
  const lines = [
    "## Where the bytes and the CPU go",
    "",
    ...(b.measured ? [measuredLine(b.measured), ""] : []),
    `The mixed program of ${b.resources} resources, once with the dynamic resources and once with the null provider: the state file`,
    "after `up`, and the CPU profiles (Node's `--cpu-prof`) of the program's process and of the dynamic provider plugin's",
    "during that `up` and the no-op `up` after it.",
    "",
    "Bytes per resource in the state file (compact JSON, as the file backend writes it), by top-level field of a resource,",
    "and within `inputs` and `outputs` by key, dynamic / null (— where the field is absent):",
    "",
    "| kind | in all | field: dynamic / null bytes |",
    "|---|---|---|",
  ];
  const pair = (d?: number, n?: number) => `${d ?? "—"} / ${n ?? "—"}`;
  const fieldsOf = (x: Partial<Record<string, FieldBytes>>, side: "fields" | "inputs" | "outputs") => {
    const keys = new Set([...Object.keys(x.dynamic?.[side] ?? {}), ...Object.keys(x.null?.[side] ?? {})]);
    return [...keys]
      .sort((a, b) => (x.dynamic?.[side][b] ?? x.null?.[side][b] ?? 0) - (x.dynamic?.[side][a] ?? x.null?.[side][a] ?? 0))
      .map((k) => `\`${k}\` ${pair(x.dynamic?.[side][k], x.null?.[side][k])}`)
      .join(", ");
  };
  for (const kind of KINDS) {
    const x = b.state[kind];
    if (!x.dynamic && !x.null) continue;
    lines.push(`| ${kind} | ${pair(x.dynamic?.total, x.null?.total)} | ${fieldsOf(x, "fields")} |`);
    lines.push(`| ${kind} \`inputs\` | | ${fieldsOf(x, "inputs")} |`);
    lines.push(`| ${kind} \`outputs\` | | ${fieldsOf(x, "outputs")} |`);
  }
  for (const phase of ["noOpUp", "up"] as const) {
    const p = b.profiles[phase];
    lines.push(
      "",
      `CPU milliseconds the profiles sampled in ${PHASE_NAMES[phase]}, by part (what the code running belongs to; a function's own time, not`,
      "what it calls), dynamic / null:",
      "",
      "| process | in all | parts: dynamic / null ms |",
      "|---|---|---|",
    );
    for (const role of ["program", "plugin"] as const) {
      const d = p.dynamic?.[role];
      const n = p.null?.[role];
      const parts = new Set([...Object.keys(d?.parts ?? {}), ...Object.keys(n?.parts ?? {})]);
      const cells = [...parts]
        .sort((a, c) => (d?.parts[c] ?? 0) + (n?.parts[c] ?? 0) - (d?.parts[a] ?? 0) - (n?.parts[a] ?? 0))
        .map((k) => `${k} ${pair(round(d?.parts[k]), round(n?.parts[k]))}`)
        .join("; ");
      lines.push(`| ${role === "program" ? "the program's" : "the dynamic provider plugin's"} | ${pair(round(d?.ms), round(n?.ms))} | ${cells} |`);
    }
  }
  const tops: [string, Profile | undefined][] = [
    ["the program's process in a no-op `up`, dynamic", b.profiles.noOpUp.dynamic?.program],
    ["the dynamic provider plugin in an `up`, dynamic", b.profiles.up.dynamic?.plugin],
  ];
  for (const [what, profile] of tops) {
    if (!profile) continue;
    lines.push(
      "",
      `The heaviest functions of ${what} (own time, ms): ${profile.top.map((t) => `\`${t.fn}\` (${t.where}) ${round(t.ms)}`).join(", ")}.`,
    );
  }
  const ratio = (kind: (typeof KINDS)[number]) => {
    const x = b.state[kind];
    return x.dynamic && x.null ? `${kind} ${(x.dynamic.total / x.null.total).toFixed(2)}×` : `${kind} —`;
  };
  lines.push(
    "",
    `**Reading.** A dynamic resource's state is ${KINDS.map(ratio).join(", ")} the null provider's. Its provider text is one`,
    '`require` of its shim (`exports.handler=()=>require("pulumi-snapshot-runtask/shim/<kind>")`, against the closure',
    "serializer's 268 to 299 bytes), stored in its inputs and its outputs; what it keeps beyond the null provider's is its",
    "arguments in their checked form (every default filled in, as the service applies it), the credentials' names",
    "as additional secret outputs (SnapshotAutoConfig) and its longer type token, repeated in its URN and its parent's",
    "fields. The stack trace and source position the SDK records are the same for both, and the largest field of all.",
    "",
    "In the program's process, each key a resource registers costs the SDK an Output of four promises, and each promise",
    "a stack trace (`debuggablePromise`, `@pulumi/pulumi/runtime/debuggable.js`, captures `new Error().stack` for its",
    "leak report): the null provider's resources register their arguments, `resourceName` and `__provider` (4 keys for a",
    "run task), ours the outputs that can hold a value with `__provider` and `__resourceUrn` (9 for a run task, 12 for a",
    "snapshot configuration of one cloud type). That, and loading the package's SDK (its field tables and zod), is what the",
    "program's process spends beyond the null provider's in an `up`; the closure serializer, which the null provider's",
    "resources run, ours no longer do. The dynamic provider plugin runs our provider core: loading it and undici, each",
    "resource's check and diff, and in an `up` its requests and the progress it reports to the engine. The null provider's",
    "plugin is killed by the engine as the command ends, before Node writes its profile, so only ours is shown; its CPU",
    "is in the comparison's tables above.",
    "",
  );
  return lines;
}

/** The CPU target of the dynamic resources against the null provider's, for every command. */
export const CPU_TARGET = 1.05;

/**
 * What holds the targets in this run and what would reach them, from the comparisons' own figures: where a CPU
 * ratio is above the target, what the dynamic resources spend beyond the null provider's, by process.
 */
export function renderWhatHolds(comparison: EngineComparison, mixed: EngineComparison): string[] {
  const programs = [comparison, mixed];
  const name = (c: EngineComparison) => (c.program === "run tasks" ? `${c.resources} run tasks` : `the mixed program of ${c.resources} resources`);
  const missed = programs.flatMap((c) => PHASES.filter((p) => cpuRatio(c, p, "dynamic") > CPU_TARGET).map((p) => [c, p] as const));
  const extra = (c: EngineComparison, p: Phase) => {
    const d = c.phases[p].dynamic;
    const n = c.phases[p].null;
    const by = (role: keyof CpuByRole) => (d.cpuMs[role] - n.cpuMs[role]) / 1000;
    const perRequest = d.requests
      ? `, for ${d.requests} requests (${((d.cpuMs.plugin - n.cpuMs.plugin) / d.requests).toFixed(1)} ms of the plugin's CPU each)`
      : ", which sends no request";
    return (
      `${PHASE_NAMES[p]} of ${name(c)}: ${plusSeconds((d.totalCpuMs - n.totalCpuMs) / 1000)} s in all against the ${(((CPU_TARGET - 1) * n.totalCpuMs) / 1000).toFixed(1)} s the target allows; ` +
      `the CLI ${plusSeconds(by("engine"))}, the program's process ${plusSeconds(by("language"))}, the dynamic provider plugin ${plusSeconds(by("plugin"))}${perRequest}`
    );
  };
  const lines = [
    "**What holds the targets, and what would reach them.** CPU of all the command's processes, dynamic / null, in this",
    `run: ${programs.map((c) => `${name(c)} ${PHASES.map((p) => cpuRatio(c, p, "dynamic").toFixed(2)).join(" / ")}`).join("; ")} (\`up\`, no-op`,
    `\`up\`, \`destroy\`; the target ${CPU_TARGET.toFixed(2)}); the state per resource ${programs.map((c) => `${(c.stateBytesPerResource.dynamic / c.stateBytesPerResource.null).toFixed(2)}×`).join(" and ")} the null provider's.`,
  ];
  if (!missed.length) return [...lines, "Every target is met.", ""];
  const up = mixed.phases.up;
  const pluginAlone = (up.dynamic.cpuMs.plugin - up.null.cpuMs.plugin) / 1000;
  const programUp = (up.dynamic.cpuMs.language - up.null.cpuMs.language) / 1000;
  const cliUp = (up.dynamic.cpuMs.engine - up.null.cpuMs.engine) / 1000;
  const allowed = ((CPU_TARGET - 1) * up.null.totalCpuMs) / 1000;
  lines.push(
    "Where a ratio is above the target, the CPU seconds the dynamic resources spend beyond the null provider's (medians):",
    "",
    ...missed.map(([c, p]) => `- ${extra(c, p)}.`),
    "",
    ...waitingControl(mixed),
    "The null provider sends no request and checks nothing. Each request costs the plugin undici's and our HTTP core's",
    "work, and the JIT compilation and garbage collection of that work on V8's threads beside the main one; each",
    "resource, its check and diff against the field tables, the holds recorded for the takeover checks",
    "(provider/takeover/heldObjects.ts) and the larger inputs the SDK's plugin decodes and encodes. Where the checkpoints",
    "weigh most (1000 resources, every checkpoint writing the whole state) a state smaller than the null provider's",
    `pays for that work. On ${mixed.resources} resources the plugin's extra in the \`up\` alone (${pluginAlone.toFixed(1)} s) is ${pluginAlone > allowed ? "more" : "less"} than the target`,
    `allows (${allowed.toFixed(1)} s)${
      pluginAlone <= allowed
        ? "."
        : cpuRatio(mixed, "up", "dynamic") <= CPU_TARGET
          ? `, and the \`up\` is within it only as the program's process spends ${plusSeconds(programUp)} s against the null provider's and the CLI ${plusSeconds(cliUp)} s.`
          : ": no provider that sends the requests reaches the null provider's CPU there unless it saves elsewhere what they cost."
    } The`,
    `provider plugins send the same requests and come to ${PHASES.map((p) => cpuRatio(mixed, p, "plugin").toFixed(2)).join(" / ")} on the mixed program: their state is`,
    `${mixed.stateBytesPerResource.plugin} bytes a resource against the dynamic resources' ${mixed.stateBytesPerResource.dynamic}, and the CLI's checkpoints save what the requests cost.`,
    "",
    "What would reach it, each not done for what it would cost users: a dynamic resource's state of the provider",
    "plugins' size, which would mean dropping what the SDK's dynamic provider plugin needs (the provider text in the",
    "inputs, which it also copies into the outputs, and the `pulumi-nodejs:dynamic/` type token the engine starts it",
    "for, repeated in the URN and the parent's fields); fewer registered keys, which would mean outputs a user reads no",
    "longer being Outputs of the resource; setting `Error.stackTraceLimit` to 0 while a resource registers, which would",
    "save the stack traces of the SDK's promises (captured for a leak report printed only with",
    "`PULUMI_DEBUG_PROMISE_LEAKS`) and leave the state as it is (the SDK lifts the limit for the stack trace and source",
    "position it records), at the cost of the stack of the error a failed registration throws, which points at the",
    "program's line (the package leaves those stacks unformatted instead, sdk/promiseStacks.ts: formatting was half",
    "of what they cost, 0.27 s of the program's sampled CPU over the null provider's in a no-op `up` of 1000 run tasks",
    "on 2026-12-03, two promises for each registered key; capturing them is the other half); sending fewer requests, which the takeover's proof needs (see",
    "[requests per operation](#requests-per-operation)); and turning V8's optimizing compilers off in the dynamic",
    "provider plugin's process (`--no-opt` through `v8.setFlagsFromString` when the provider loads), which on 2026-12-03",
    "took 0.04–0.19 s off the plugin's CPU in the mixed program's commands (a tenth of it in the `up`), but leaves",
    "unoptimised the code of every other dynamic provider the process serves, and changes V8's flags after start,",
    "which V8 does not promise to honour.",
    "",
  );
  return lines;
}

function plusSeconds(x: number): string {
  return `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}`;
}

/** The waiting null provider against the null provider, where the run had it: whether waiting is what costs. */
function waitingControl(mixed: EngineComparison): string[] {
  const w = mixed.waiting;
  if (!w) return [];
  const ratios = PHASES.map((p) => waitingCpuRatios(mixed, p)!);
  const list = (f: (r: { all: number; engine: number; plugin: number }) => number) => ratios.map((r) => f(r).toFixed(2)).join(" / ");
  const within = ratios.every((r) => r.all <= CPU_TARGET);
  return [
    `The control: the null provider waiting ${w.createWaitMs} ms in each create and ${w.deleteWaitMs} ms in each delete (at least as long as ours`,
    `wait on the service), doing nothing else, in the same rounds of the mixed program, took ${list((r) => r.all)} of the null`,
    `provider's CPU (the CLI ${list((r) => r.engine)}, the dynamic provider plugin ${list((r) => r.plugin)}): ${
      within
        ? "the time the requests take does not by itself hold the ratios; their work does."
        : "above the target, so the time the requests take (a longer command, calls held open) holds the ratios too."
    }`,
    "",
  ];
}

const round = (x: number | undefined) => (x === undefined ? undefined : Math.round(x));

/** The sections of the page measured on their own, after the full run. */
function measuredAlone(r: BenchResults): string[] {
  const day = r.date.slice(0, 10);
  const named: [string, Measured | undefined][] = [
    ["[the comparison on run tasks](#ours-against-the-engines-floor)", r.comparison.measured],
    ["[the mixed program's comparison](#ours-against-the-engines-floor)", r.mixed.measured],
    ["[where the bytes and the CPU go](#where-the-bytes-and-the-cpu-go)", r.breakdown?.measured],
    ["[through a proxy](#through-a-proxy)", r.proxy?.measured],
    ["[requests per operation](#requests-per-operation)", r.requests.measured],
    ["[start-up](#start-up)", r.startup.measured],
    ["[the plugins' executables](#the-plugins-executables)", r.executables?.measured],
    ["[listing, and the provider's own work](#listing-and-the-providers-own-work)", r.listing.measured],
  ];
  return named.filter(([, m]) => m && m.date.slice(0, 10) !== day).map(([name, m]) => `${name} (${m!.date.slice(0, 10)})`);
}

/** When a section measured on its own was measured, on what commit, and under what load. */
function measuredLine(m: Measured): string {
  const on = m.commit ? ` on commit ${m.commit}` : "";
  return `Measured ${m.date.slice(0, 10)}${on}, load average ${m.loadAverage.start.join(", ")} at the start, ${m.loadAverage.end.join(", ")} at the end.`;
}

/** Each route through an authenticating proxy against direct, the two paired command by command. */
export function renderProxyComparison(p: ProxyComparison): string[] {
  const name = { dynamic: "dynamic", plugin: "provider plugins" } as const;
  const range = (x: ProxyPhaseSummary) => x.msRatioRange.map((v) => v.toFixed(2)).join("–");
  const up = p.phases.up;
  const lines = [
    "## Through a proxy",
    "",
    `- **An \`up\` through an authenticating proxy took ${up.dynamic.msRatio.toFixed(2)}× the time of the same \`up\` without one with the dynamic`,
    `  resources, ${up.plugin.msRatio.toFixed(2)}× with the provider plugins** (${p.resources} resources, the medians of ${p.rounds} paired rounds, whose`,
    `  ratios ranged ${range(up.dynamic)} and ${range(up.plugin)}); the CPU of the command's processes and the proxy's together,`,
    `  ${up.dynamic.withProxyCpuRatio.toFixed(2)}× and ${up.plugin.withProxyCpuRatio.toFixed(2)}× that of the command's without one.`,
    "",
    `The mixed program (${p.resources} resources, both services) with \`SERVICE_PROXY_ADDR\` and \`RUNTASK_PROXY_ADDR\` naming an HTTP proxy with`,
    "Basic authentication (the npm `proxy` package, a process of its own), against the same program without them. Each",
    "round takes, for each route, a stack of each way through the engine a command at a time, the two one after the other",
    "(which goes first alternating from round to round), each against an emulator process of its own, so that each pair",
    "meets the machine in nearly the same state; a ratio is the median of the rounds' ratios, through the proxy over",
    "direct. The emulator is on loopback, addressed over HTTP, so the proxy reads and forwards every request, the heavier",
    "of its two ways (to an `https://` service it opens a tunnel per connection and forwards bytes). The CPU is the",
    "kernel's count of the command's processes (the CLI, the program, the plugins), the proxy process's added on the",
    "proxied side.",
    measuredLine(p.measured),
    "",
    "| phase | route | direct (s) | through the proxy (s) | through / direct | the rounds' ratios | CPU with the proxy's: through / direct | the proxy's CPU (s) | requests forwarded |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const phase of PHASES) {
    for (const route of PROXY_ROUTES) {
      const x = p.phases[phase][route];
      lines.push(
        `| ${PHASE_NAMES[phase]} | ${name[route]} | ${s1(x.ms.direct)} | ${s1(x.ms.proxied)} | **${x.msRatio.toFixed(2)}** | ${range(x)} | ` +
          `${x.withProxyCpuRatio.toFixed(2)} | ${s1(x.proxyCpuMs)} | ${x.forwarded} |`,
      );
    }
  }
  return lines;
}

function whatToExpect(r: BenchResults): string[] {
  const c = r.comparison;
  const p = c.phases;
  const floorBig = r.floor[r.floor.length - 1];
  const floorSmall = r.floor[0];
  const addedByCli = (p.up.dynamic.cpuMs.engine - p.up.null.cpuMs.engine) / (p.up.dynamic.totalCpuMs - p.up.null.totalCpuMs);
  const faster = floorBig.checkpoints.up.msPerResource > 1.2 * floorSmall.checkpoints.up.msPerResource;
  return [
    "## What to expect",
    "",
    `- **An \`up\` of ${c.resources} resources took ${s1(p.up.dynamic.ms)} s with the dynamic resources and ${s1(p.up.plugin.ms)} s with the`,
    `  provider plugins, against ${s1(p.up.null.ms)} s for a provider that does nothing** (--parallel ${c.parallel}, ${c.latencyMs} ms per request).`,
    `  A no-op \`up\`: ${s1(p.noOpUp.dynamic.ms)} s / ${s1(p.noOpUp.plugin.ms)} s / ${s1(p.noOpUp.null.ms)} s; \`destroy\`: ${s1(p.destroy.dynamic.ms)} s / ${s1(p.destroy.plugin.ms)} s / ${s1(p.destroy.null.ms)} s.`,
    `- **Ours over a provider that does nothing**, wall time: dynamic ${ratioList(c, "dynamic")}, provider plugins`,
    `  ${ratioList(c, "plugin")} (${PHASES.map((x) => PHASE_NAMES[x]).join(", ")}); CPU of all the command's processes: dynamic`,
    `  ${cpuRatioList(c, "dynamic")}, provider plugins ${cpuRatioList(c, "plugin")}. On this shared machine wall time moves with`,
    "  whatever else runs (see each variant's range below); CPU moves less. The provider plugins' processes take",
    `  ${pct(p.up.plugin.pluginShare)} of the CPU of an \`up\` (the dynamic provider plugin ${pct(p.up.dynamic.pluginShare)}); the rest is the CLI's, and the program's process's.`,
    `  Of the CPU the dynamic resources add to an \`up\`, ${pct(addedByCli)} is the CLI's: its CPU is ${(p.up.dynamic.cpuMs.engine / p.up.null.cpuMs.engine).toFixed(2)}× the null provider's for the dynamic`,
    `  resources, whose state is ${(c.stateBytesPerResource.dynamic / c.stateBytesPerResource.null).toFixed(2)}× as large (${c.stateBytesPerResource.dynamic} bytes per resource against ${c.stateBytesPerResource.null}: outputs in their`,
    "  normalised form, every default filled in), and every checkpoint writes all of it.",
    `- **The engine's floor ${faster ? "grows faster than the stack" : "grows with the stack"}.** An \`up\` of a provider that does nothing took`,
    `  ${r.floor.map((f) => `${s1(f.checkpoints.up.ms)} s for ${f.resources} resources`).join(", ")}: ${floorSmall.checkpoints.up.msPerResource} ms per resource`,
    `  at ${floorSmall.resources}, ${floorBig.checkpoints.up.msPerResource} at ${floorBig.resources}. With the file backend the CLI writes the whole state after every step,`,
    "  one write at a time, each as large as the stack (see [the floor](#the-engines-floor-and-why-it-grows)); with those",
    `  writes left to the end (\`PULUMI_SKIP_CHECKPOINTS=true\`) the same \`up\` took ${floorSmall.skipCheckpoints.up.msPerResource} and ${floorBig.skipCheckpoints.up.msPerResource} ms per resource.`,
    "  Plan on these figures for a stack's size rather than on a cost per resource; splitting a large stack into",
    "  several smaller ones shortens every command, as each writes a smaller state.",
    "",
  ];
}

function method(r: BenchResults): string[] {
  const c = r.comparison;
  return [
    "## Method",
    "",
    "Every command goes through the real Pulumi engine: the `pulumi` CLI that `npm run engine` builds, with a file",
    "backend in a temporary folder, run by an inline Automation API program (a Node.js process of its own) in a consumer",
    "project where the packed package is installed, as a user installs it; the plugins are found on PATH as the",
    "engine finds them (`pulumi-resource-pulumi-nodejs` for dynamic resources, the package's `pulumi-resource-*`).",
    `Each command is a fresh CLI, program and plugin processes, with \`--parallel ${c.parallel}\`. The emulator runs in a`,
    `process of its own, as a remote service would, and adds ${c.latencyMs} ms to every request, so that parallelism bounds`,
    `throughput as it does against a real service (${c.parallel} requests in flight: at most ${Math.round((c.parallel * 1000) / c.latencyMs)} requests a second).`,
    "",
    "Three variants of one program run in each round, each starting the round in turn, so that all see the machine",
    "in the same state:",
    "",
    "- **dynamic**: the package's dynamic resources (`RunTask`, ...), served by the dynamic provider plugin and our provider core;",
    "- **provider plugins**: `pulumi.CustomResource`s of the plugins' tokens (`runtask:index:RunTask`, ...) in the same",
    "  Node.js program, served by `pulumi-resource-runtask` (and `pulumi-resource-snapshot`);",
    "- **null**: dynamic resources of a provider that does nothing and sends no request, installed as a module as",
    "  ours is, so that its provider text in the state is the size of ours (the yardstick: the engine's own cost).",
    "",
    "Times are those of the Automation API's call (`stack.up()`, `stack.destroy()`). CPU is read from /proc for every",
    "process under the program's process, every 100 ms, by role: the CLI (the engine), the program's process (the",
    "language side: the program, the SDK, the Automation API), and the plugin processes (with the script and `node -e`",
    "that start the dynamic one). The kernel's own count of the CPU of the whole tree is given beside it: the",
    "difference is what processes spent after their last reading. Requests are counted at the emulator.",
    "",
    `\`npm run bench\` runs everything (the sizes of this page; ${Math.round(r.minutes)} minutes here); \`npm run bench --`,
    "--quick` a smaller run in a few minutes that writes `bench/results/quick.*` and leaves this page alone;",
    "`-- --compare [program] [resources] [rounds]` the comparison alone; `-- --floor <resources>...` the floor alone (both",
    "printed). `-- --mixed` (the mixed program's comparison), `-- --proxy [resources] [rounds]`, `-- --requests`,",
    "`-- --startup`, `-- --executables` and `-- --listing` each measure one section alone and write it, dated, into",
    "`bench/results/latest.json` and this page, keeping the rest (with `--quick` as well: smaller, printed only);",
    "`-- --render` writes this page again from `bench/results/latest.json`.",
    "",
  ];
}

function ratioList(c: EngineComparison, v: "dynamic" | "plugin"): string {
  return PHASES.map((p) => `${c.ratios[p][v].toFixed(2)}×`).join(" / ");
}

function cpuRatioList(c: EngineComparison, v: "dynamic" | "plugin"): string {
  return PHASES.map((p) => `${cpuRatio(c, p, v).toFixed(2)}×`).join(" / ");
}

function ratioTable(c: EngineComparison): string[] {
  const lines = [
    "| phase | null (s) | dynamic (s) | provider plugins (s) | dynamic / null | plugins / null | CPU: dynamic / null | CPU: plugins / null | requests: dynamic / plugins |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const p of PHASES) {
    const x = c.phases[p];
    lines.push(
      `| ${PHASE_NAMES[p]} | ${s1(x.null.ms)} | ${s1(x.dynamic.ms)} | ${s1(x.plugin.ms)} | **${c.ratios[p].dynamic.toFixed(2)}** | **${c.ratios[p].plugin.toFixed(2)}** | ` +
        `${cpuRatio(c, p, "dynamic").toFixed(2)} | ${cpuRatio(c, p, "plugin").toFixed(2)} | ${x.dynamic.requests} / ${x.plugin.requests} |`,
    );
  }
  return lines;
}

/** The comparison's tables: times and ratios, then CPU by process. */
export function renderComparison(c: EngineComparison): string[] {
  const lines = [
    `${c.resources} ${c.program === "run tasks" ? "run tasks (one package)" : "resources of a mixed program"}, \`--parallel ${c.parallel}\`, median of ${c.rounds} round${c.rounds === 1 ? "" : "s"}; a ratio is the median of the`,
    "rounds' ratios.",
    "",
    ...ratioTable(c),
    "",
    "CPU seconds of the command's processes, by role, and the plugins' share:",
    "",
    "| phase | variant | time (s), range | CLI | program | plugins | sampled (kernel's count) | plugins' share | plugin processes | emulator |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  const name = { dynamic: "dynamic", plugin: "provider plugins", null: "null" } as const;
  for (const p of PHASES) {
    for (const v of ["dynamic", "plugin", "null"] as const) {
      const x = c.phases[p][v];
      const sampled = sum(x.cpuMs);
      const emulator = median(c.samples.map((sample) => sample[v][p].emulatorCpuMs));
      lines.push(
        `| ${PHASE_NAMES[p]} | ${name[v]} | ${s1(x.ms)} (${s1(x.msRange[0])}–${s1(x.msRange[1])}) | ${s1(x.cpuMs.engine)} | ${s1(x.cpuMs.language)} | ${s1(x.cpuMs.plugin)} | ` +
          `${s1(sampled)} (${s1(x.totalCpuMs)}) | ${pct(x.pluginShare)} | ${x.pluginProcesses} | ${s1(emulator)} |`,
      );
    }
  }
  return lines;
}

function floorSection(r: BenchResults): string[] {
  const lines = [
    "## The engine's floor, and why it grows",
    "",
    "The null provider's commands as the stack grows, as users run them and with `PULUMI_SKIP_CHECKPOINTS=true` (the",
    "engine then keeps the state in memory and writes it once, at the end of the command). Milliseconds per resource,",
    "and the CLI's CPU seconds:",
    "",
    "| resources | `up` ms/resource | skipping checkpoints | no-op `up` | skipping | `destroy` | skipping | CLI CPU, `up` (s) | skipping |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const f of r.floor) {
    const a = f.checkpoints;
    const b = f.skipCheckpoints;
    lines.push(
      `| ${f.resources} | ${a.up.msPerResource} | ${b.up.msPerResource} | ${a.noOpUp.msPerResource} | ${b.noOpUp.msPerResource} | ${a.destroy.msPerResource} | ${b.destroy.msPerResource} | ` +
        `${s1(a.up.engineCpuMs)} | ${s1(b.up.engineCpuMs)} |`,
    );
  }
  const first = r.floor[0];
  const last = r.floor[r.floor.length - 1];
  const growth = (x: number, y: number) => (y / x).toFixed(1);
  lines.push(
    "",
    `From ${first.resources} to ${last.resources} resources (${growth(first.resources, last.resources)}× as many), an \`up\` of the null provider took`,
    `${growth(first.checkpoints.up.ms, last.checkpoints.up.ms)}× as long and \`destroy\` ${growth(first.checkpoints.destroy.ms, last.checkpoints.destroy.ms)}×; skipping checkpoints, ${growth(first.skipCheckpoints.up.ms, last.skipCheckpoints.up.ms)}× and`,
    `${growth(first.skipCheckpoints.destroy.ms, last.skipCheckpoints.destroy.ms)}×. A no-op \`up\` changes nothing, writes no checkpoint, and grows with the stack:`,
    `${growth(first.checkpoints.noOpUp.ms, last.checkpoints.noOpUp.ms)}×. The CLI's CPU in an \`up\` went from ${s1(first.checkpoints.up.engineCpuMs)} to ${s1(last.checkpoints.up.engineCpuMs)} s`,
    `(${growth(first.checkpoints.up.engineCpuMs, last.checkpoints.up.engineCpuMs)}×), skipping checkpoints from ${s1(first.skipCheckpoints.up.engineCpuMs)} to ${s1(last.skipCheckpoints.up.engineCpuMs)} s. Each size ran once (the largest size's default run`,
    "is the comparison's last round of the null provider); times move with the machine's load, CPU less.",
    "",
    "**Why.** With the file backend, the engine's snapshot manager (`pkg/backend/snapshot.go`) saves the whole",
    "state after every change of it, a step's start (an operation pending) and its end alike, and serves these one at",
    "a time: a step does not finish until its save is written (`SnapshotManager.mutate` waits for",
    "`defaultServiceLoop`). Each save serialises every resource to JSON, takes its MD5, copies the previous file to",
    "a backup and writes the new one (`diy.saveStack`), so each costs in proportion to the stack and a command of",
    "N steps costs in proportion to N². A no-op `up` changes nothing and so writes no checkpoint; the state a",
    "`destroy` writes shrinks as it goes, so it grows less than an `up`.",
  );
  const profile = r.engineProfile;
  if (profile) {
    lines.push(
      "",
      `The CLI's own profiler (\`--profiling\`, read with \`go tool pprof\`) during an \`up\` of ${profile.resources} resources of the null provider`,
      `sampled ${profile.cpuSeconds.toFixed(1)} CPU seconds in the CLI, of which, by the functions each part runs under:`,
      "",
      "| part | function | share of the CLI's CPU |",
      "|---|---|---|",
      ...profile.shares.map((x) => `| ${x.part} | \`${x.function}\` | ${pct(x.share)} |`),
    );
  }
  lines.push(
    "",
    "`PULUMI_SKIP_CHECKPOINTS` is not a setting to run with: a command interrupted with it leaves a state that knows",
    "nothing of what it did, so objects it created are unknown to the next one (the package's `adopt` can take them",
    "back, and `pulumi refresh` cannot). It is here to show where the time goes. The file backend writes whole states;",
    "the CLI's Pulumi Cloud backend records each step's change in a journal instead (`pkg/backend/httpstate/journal`),",
    "where the service supports it: not measured here, where no service is reached.",
    "",
  );
  return lines;
}

/** Requests per operation; `runDate`, the full run's, is theirs where they were not measured alone. */
export function renderRequests(x: RequestFigures, runDate: string): string[] {
  const lines = [
    "## Requests per operation",
    "",
    "Through the engine, one resource of each kind in one stack, each command's requests counted at the emulator by",
    "route; dynamic resources / provider plugins, then Terraform's count for the same operation where it has one.",
    x.measured ? measuredLine(x.measured) : `Measured ${runDate.slice(0, 10)}, in the full run.`,
    "",
    `| resource | ${OPS.join(" | ")} |`,
    `|---|${OPS.map(() => "---").join("|")}|`,
  ];
  const count = (n: number | undefined) => (n === undefined ? "—" : String(n));
  for (const kind of Object.keys(TERRAFORM) as ResourceKind[]) {
    const cell = (op: keyof RequestCounts) => {
      const terraform = TERRAFORM[kind][op];
      return `${count(x.dynamic[kind][op])} / ${count(x.plugin[kind][op])}${terraform === undefined ? "" : ` (Terraform ${terraform})`}`;
    };
    lines.push(`| ${kind} | ${OPS.map(cell).join(" | ")} |`);
  }
  lines.push("", "Terraform counts, from the providers' source:", "");
  for (const [kind, t] of Object.entries(TERRAFORM)) lines.push(`- ${kind}: ${t.source}.`);
  lines.push(
    "",
    "A no-op `up` makes no request: `diff` compares the program with the state, and the engine refreshes only on",
    "`pulumi refresh` (or `up --refresh`). A snapshot configuration's create reads first, so that an existing",
    "configuration is never overwritten silently. An attachment's create lists the workspace's attachments before its",
    "POST, so that the one it makes is told from those of its task already there; the emulator answers the POST with the",
    "new attachment's document, as the real service does (under `letterOfSpec`, 204 and no body, as the spec's status",
    "table says, and the provider lists them again to learn the new one's id: one request more). Adoption is an `up`",
    "with `adopt: true` from a state that has never seen the objects: its check reads the object to say what the create",
    "will take over (a notice the CLI shows, in a preview too), then the create looks it up again and writes it at most",
    "once: the configuration, whose read shows the program's settings, not at all; the task in one PATCH, as its HMAC key,",
    "which the program gives and no read shows, is sent; the attachment in one PATCH, whose answer shows its settings.",
    `An import is \`pulumi import\` through the provider plugins (the engine cannot read a dynamic resource by its id,`,
    `pulumi/pulumi#16175), each by one of its id forms: ${Object.entries(IMPORT_IDS)
      .map(([kind, id]) => `${kind === "SnapshotAutoConfig" ? "a configuration" : kind === "RunTask" ? "a task" : "an attachment"} by ${id.form}`)
      .join(", ")}: a task's organization,`,
    "which the spec gives only as an id while tasks are made and listed under the organization's name, is found by the",
    "task list that holds it.",
    "",
  );
  return lines;
}

export function renderStartup(x: StartupFigures): string[] {
  const { check, create, createFirstCommand: cold, plugin, runs } = x;
  return [
    "## Start-up",
    "",
    ...(x.measured ? [measuredLine(x.measured), ""] : []),
    `Each plugin started as the engine starts it (found on PATH, the engine's address as its argument, its port read`,
    `from its stdout) and driven over gRPC to its first answers; median of ${runs} runs each, the null provider's and ours`,
    "alternating. What our code adds (loading it and running it first) is the difference of the medians from the",
    "moment the plugin printed its port: the plugin's own start, the same for both, varies from run to run with the",
    "machine's load. The engine starts one plugin process per provider per command.",
    "",
    "| first operation | null provider (ms) | ours (ms) | added (ms) |",
    "|---|---|---|---|",
    `| Check (a preview's first answer) | ${check.nullProviderMs} | ${check.providerMs} | **${check.addedMs}** |`,
    `| Check, then Create (an up's first resource) | ${create.nullProviderMs} | ${create.providerMs} | **${create.addedMs}** |`,
    `| the same, first command after installation (empty compile cache) | ${cold.nullProviderMs} | ${cold.providerMs} | ${cold.addedMs} |`,
    "",
    `The provider plugin \`pulumi-resource-snapshot\` from its process's start: first answer ${plugin.firstAnswerMs} ms, first Check`,
    `${plugin.checkMs} ms, first Create ${plugin.createMs} ms, against ${create.providerMs} ms to the dynamic plugin's first Create: it loads gRPC,`,
    "the protobuf messages and its own bundle, not the whole Pulumi SDK.",
    "",
  ];
}

/** The plugins' standalone executables against the npm package's scripts. */
export function renderExecutables(x: ExecutableFigures): string[] {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  const e = x.engine;
  return [
    "## The plugins' executables",
    "",
    "The standalone executables of `npm run plugins` (Node.js single executables, no Node.js needed to run them) against",
    "the npm package's scripts (`node` running `dist/plugin/bin/<name>.js`, its compile cache filled by a first run), in",
    "one run, alternating; the ratio is the executable's over the script's (below 1: the executable is faster). Each",
    "round takes a stack of each through the engine a command at a time, the two one after the other; the wall-time",
    "ratio is the median of the rounds' ratios. The plugins' share of a command is small, and a shared machine moves",
    "its wall time more than they can: the CPU rows say what the executables change.",
    measuredLine(x.measured),
    "",
    "| what | executable | script | ratio |",
    "|---|---|---|---|",
    `| start-up of \`pulumi-resource-runtask\`, to its first answer (median of ${x.startup.runs}, ms) | ${x.startup.executableMs} | ${x.startup.scriptMs} | **${x.startup.ratio.toFixed(2)}** |`,
    ...PHASES.map(
      (p) =>
        `| ${PHASE_NAMES[p]} of ${e.resources} resources of both plugins (median of ${e.rounds} round${e.rounds === 1 ? "" : "s"}, s) | ${s1(e.ms[p].executable)} | ${s1(e.ms[p].script)} | **${e.ratios[p].toFixed(2)}** |`,
    ),
    ...PHASES.map(
      (p) =>
        `| CPU of the plugin processes in ${PHASE_NAMES[p]} (s) | ${s1(e.pluginCpuMs[p].executable)} | ${s1(e.pluginCpuMs[p].script)} | ${(e.pluginCpuMs[p].executable / e.pluginCpuMs[p].script).toFixed(2)} |`,
    ),
    ...PHASES.flatMap((p) =>
      e.totalCpuMs
        ? [
            `| CPU of all the command's processes in ${PHASE_NAMES[p]} (s) | ${s1(e.totalCpuMs[p].executable)} | ${s1(e.totalCpuMs[p].script)} | ${(e.totalCpuMs[p].executable / e.totalCpuMs[p].script).toFixed(2)} |`,
          ]
        : [],
    ),
    "",
    "| plugin | executable (MB) | archive (MB) |",
    "|---|---|---|",
    ...x.sizes.map((z) => `| \`${z.plugin}\` | ${mb(z.executableBytes)} | ${mb(z.archiveBytes)} |`),
    "",
    `Nearly all of it is Node.js itself (the binary the executables are made from is ${mb(x.nodeBinaryBytes)} MB before its symbols`,
    "are stripped); the plugin's bundled script is 2 MB of it. Installed, each version of each plugin takes an executable's",
    "size in the plugin cache; the archive is what a download moves.",
    "",
  ];
}

function stateSection(r: BenchResults): string[] {
  const c = r.comparison;
  return [
    "## State size",
    "",
    `\`__provider\` text: **${c.providerTextBytes.dynamic ?? "-"} bytes** per resource (the null provider's: ${c.providerTextBytes.null ?? "-"}); it is stored twice per`,
    `resource (inputs and outputs). Whole state file after \`up\` of ${c.resources} run tasks, bytes per resource: dynamic`,
    `${c.stateBytesPerResource.dynamic}, provider plugins ${c.stateBytesPerResource.plugin}, null ${c.stateBytesPerResource.null}. Every checkpoint writes all of it.`,
    "",
  ];
}

export function renderListing(listing: ListingFigures, providerCpu: ProviderCpuFigures): string[] {
  const cpu = Object.entries(providerCpu.checkAndDiffMicros)
    .map(([k, v]) => `${k} ${v} µs`)
    .join(", ");
  const dated = (m?: Measured) => (m ? [measuredLine(m), ""] : []);
  return [
    "## Listing, and the provider's own work",
    "",
    ...dated(listing.measured),
    `\`listRunTasks\` over ${listing.tasks} tasks: ${listing.requests} requests (page size 100), ${listing.ms} ms with ${listing.latencyMs} ms per request.`,
    "",
    ...(providerCpu.measured?.date !== listing.measured?.date ? dated(providerCpu.measured) : []),
    `Check plus diff of one resource in process, without the plugin or the network: ${cpu}.`,
    "",
  ];
}

function sum(x: CpuByRole): number {
  return x.engine + x.language + x.plugin + x.other;
}
