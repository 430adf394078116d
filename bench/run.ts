/**
 * `npm run bench`: the package through the real Pulumi engine (the `pulumi` CLI, inline Automation API programs)
 * against the emulator, beside a provider that does nothing; how the engine's own floor grows with the stack and
 * why; requests per operation; start-up; listing. Writes bench/results/latest.json and docs/benchmarks.md.
 *
 *   -- --quick                       small sizes, a few minutes: bench/results/quick.{json,md}, the page left alone
 *   -- --render                      the page again from bench/results/latest.json
 *   -- --compare [program] [n] [rounds]   the comparison alone ("run tasks" or "mixed"), printed
 *   -- --floor <n>...                the null provider's floor at these sizes alone, printed
 *
 * Each of these measures one section alone, prints it, and writes it, dated (the commit and the load with it), into
 * latest.json and the page in place of the one they had, the rest kept; with --quick, at the quick sizes, printed only:
 *   -- --mixed                       the comparison on the mixed program
 *   -- --proxy [n] [rounds]          up, no-op up and destroy through an authenticating proxy against direct, paired
 *   -- --requests                    requests per operation
 *   -- --startup                     start-up
 *   -- --executables                 the plugins' standalone executables against their scripts
 *   -- --listing                     listing, and the provider's own work
 *   -- --comparison [n] [rounds]     the comparison on n run tasks (the full run's sizes by default)
 *   -- --breakdown [n]               where the dynamic resources' state bytes and CPU go, on the mixed program of n
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { repositoryRoot } from "../toolchain/repository";
import { breakdown } from "./breakdown";
import { compareThroughEngine, type ProgramName, type Sequence } from "./engineComparison";
import { engineProfile } from "./engineProfile";
import { executables } from "./executables";
import { floor } from "./floor";
import { listing } from "./listing";
import { providerCpu } from "./providerCpu";
import { compareThroughProxy } from "./proxyComparison";
import {
  renderBreakdown,
  renderComparison,
  renderComparisonAlone,
  renderExecutables,
  renderListing,
  renderMixed,
  renderProxyComparison,
  renderReport,
  renderRequests,
  renderStartup,
  type BenchResults,
} from "./report";
import { requestFigures } from "./requestsPerOperation";
import { loadAverage, measuring, setting, type Setting } from "./setting";
import { startup } from "./startup";

const ROOT = repositoryRoot(__dirname);
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const args = process.argv.slice(2);
const after = (flag: string) => args.slice(args.indexOf(flag) + 1);

/** The sizes of a run: the full one, and the quick one (a smoke test of the same code). */
const SIZES = {
  full: {
    resources: 1000,
    rounds: 2,
    mixed: 300,
    mixedRounds: 3,
    breakdown: 300,
    floor: [100, 200, 500],
    profile: 500,
    startupRuns: 9,
    listing: 10_000,
    executables: { runs: 15, resources: 200, rounds: 5 },
    proxy: { resources: 100, rounds: 6 },
  },
  quick: {
    resources: 20,
    rounds: 1,
    mixed: 12,
    mixedRounds: 1,
    breakdown: 12,
    floor: [50],
    profile: 50,
    startupRuns: 3,
    listing: 1000,
    executables: { runs: 3, resources: 12, rounds: 1 },
    proxy: { resources: 12, rounds: 1 },
  },
};

type Size = (typeof SIZES)["full"];

/**
 * The sections measured alone (each is also in the full run): what it measures into the results, and how it prints.
 * A section that dates itself (the proxy's, the executables') says when, on what commit and under what load; the
 * others are dated here.
 */
const SECTIONS: Record<
  string,
  { measure(s: Setting, size: Size, args: string[]): Promise<Partial<BenchResults>>; print(r: Partial<BenchResults>): string[] }
> = {
  "--mixed": {
    measure: async (s, size) => {
      const measurement = measuring();
      const figures = await compareThroughEngine(s, "mixed", size.mixed, size.mixedRounds, log, { waiting: true });
      return { mixed: { ...figures, measured: measurement.end() } };
    },
    print: (r) => renderMixed(r.mixed!),
  },
  "--comparison": {
    measure: async (s, size, [n, rounds]) => {
      const measurement = measuring();
      const figures = await compareThroughEngine(s, "run tasks", n ? Number(n) : size.resources, rounds ? Number(rounds) : size.rounds, log);
      return { comparison: { ...figures, measured: measurement.end() } };
    },
    print: (r) => renderComparisonAlone(r.comparison!),
  },
  "--breakdown": {
    measure: async (s, size, [n]) => {
      const measurement = measuring();
      const figures = await breakdown(s, n ? Number(n) : size.breakdown, log);
      return { breakdown: { ...figures, measured: measurement.end() } };
    },
    print: (r) => renderBreakdown(r.breakdown!),
  },
  "--proxy": {
    measure: async (s, size, [n, rounds]) => ({
      proxy: await compareThroughProxy(s, { resources: n ? Number(n) : size.proxy.resources, rounds: rounds ? Number(rounds) : size.proxy.rounds }),
    }),
    print: (r) => renderProxyComparison(r.proxy!),
  },
  "--requests": {
    measure: async (s) => {
      const measurement = measuring();
      const figures = await requestFigures(s);
      return { requests: { ...figures, measured: measurement.end() } };
    },
    print: (r) => renderRequests(r.requests!, r.requests!.measured!.date),
  },
  "--startup": {
    measure: async (s, size) => {
      const measurement = measuring();
      const figures = await startup(s, size.startupRuns);
      return { startup: { ...figures, measured: measurement.end() } };
    },
    print: (r) => renderStartup(r.startup!),
  },
  "--executables": {
    measure: async (s, size) => ({ executables: await executables(s, size.executables) }),
    print: (r) => renderExecutables(r.executables!),
  },
  "--listing": {
    measure: async (_s, size) => {
      const measurement = measuring();
      const list = await listing(size.listing);
      const cpu = await providerCpu();
      const measured = measurement.end();
      return { listing: { ...list, measured }, providerCpu: { ...cpu, measured } };
    },
    print: (r) => renderListing(r.listing!, r.providerCpu!),
  },
};

async function full(s: Setting, quick: boolean): Promise<BenchResults> {
  const size = quick ? SIZES.quick : SIZES.full;
  const started = Date.now();
  const loadAtStart = loadAverage();
  log(`load average at the start: ${loadAtStart.join(", ")}`);
  log("requests per operation");
  const requests = await requestFigures(s);
  log("start-up");
  const start = await startup(s, size.startupRuns);
  const standalone = await executables(s, size.executables);
  log("listing");
  const list = await listing(size.listing);
  const cpu = await providerCpu();
  log(`the CLI's profile of an up of ${size.profile} resources of the null provider`);
  const profile = await engineProfile(s, size.profile);
  const parts = await breakdown(s, size.breakdown, log);
  const mixed = await compareThroughEngine(s, "mixed", size.mixed, size.mixedRounds, log, { waiting: true });
  const proxy = await compareThroughProxy(s, size.proxy);
  const comparison = await compareThroughEngine(s, "run tasks", size.resources, size.rounds, log);
  // The comparison's null runs are the floor's largest size, as users run it; only the experiment runs again.
  const known = new Map<number, Sequence>([[size.resources, { ...comparison.samples[comparison.samples.length - 1].null, stateBytes: 0 }]]);
  const floorRows = await floor(
    s,
    [...size.floor, size.resources].sort((a, b) => a - b),
    known,
    log,
  );
  const loadAtEnd = loadAverage();
  log(`load average at the end: ${loadAtEnd.join(", ")}`);
  return {
    date: new Date().toISOString(),
    minutes: Math.round((Date.now() - started) / 6000) / 10,
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      pulumi: spawnSync(s.engine.cli, ["version"], { encoding: "utf8" }).stdout.trim(),
      loadAverage: { start: loadAtStart, end: loadAtEnd },
    },
    comparison,
    mixed,
    proxy,
    floor: floorRows,
    engineProfile: profile,
    breakdown: parts,
    requests,
    startup: start,
    executables: standalone,
    listing: list,
    providerCpu: cpu,
  };
}

const FLAGS = ["--quick", "--render", "--compare", "--floor", ...Object.keys(SECTIONS)];

async function main(): Promise<void> {
  const unknown = args.filter((a) => a.startsWith("-") && !FLAGS.includes(a));
  if (unknown.length) throw new Error(`unknown option ${unknown.join(", ")}: the options are ${FLAGS.join(", ")} (see bench/run.ts)`);
  if (args.includes("--render")) {
    const results = JSON.parse(readFileSync(join(ROOT, "bench/results/latest.json"), "utf8")) as BenchResults;
    writeFileSync(join(ROOT, "docs/benchmarks.md"), renderReport(results));
    return;
  }
  const s = setting();
  try {
    if (args.includes("--compare")) {
      const [program = "run tasks", n = "100", rounds = "1"] = after("--compare");
      const comparison = await compareThroughEngine(s, program as ProgramName, Number(n), Number(rounds), log);
      process.stdout.write(`${renderComparison(comparison).join("\n")}\n`);
      return;
    }
    const section = Object.keys(SECTIONS).find((flag) => args.includes(flag));
    if (section) {
      const quick = args.includes("--quick");
      const sectionArgs = after(section).filter((a) => !a.startsWith("-"));
      const figures = await SECTIONS[section].measure(s, SIZES[quick ? "quick" : "full"], sectionArgs);
      process.stdout.write(`${SECTIONS[section].print(figures).join("\n")}\n`);
      // A section of its own, dated: the page takes it in place of the one it had.
      if (!quick) {
        const file = join(ROOT, "bench/results/latest.json");
        if (!existsSync(file)) throw new Error("bench/results/latest.json is missing: a section alone is written into a full run's results");
        const results = { ...(JSON.parse(readFileSync(file, "utf8")) as BenchResults), ...figures };
        writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
        writeFileSync(join(ROOT, "docs/benchmarks.md"), renderReport(results));
        log("wrote its section into bench/results/latest.json and docs/benchmarks.md");
      }
      return;
    }
    if (args.includes("--floor")) {
      process.stdout.write(`${JSON.stringify(await floor(s, after("--floor").map(Number), new Map(), log), null, 2)}\n`);
      return;
    }
    const quick = args.includes("--quick");
    const results = await full(s, quick);
    mkdirSync(join(ROOT, "bench/results"), { recursive: true });
    // A quick run is a smoke test: it leaves the published figures alone.
    const [json, page] = quick ? ["bench/results/quick.json", "bench/results/quick.md"] : ["bench/results/latest.json", "docs/benchmarks.md"];
    writeFileSync(join(ROOT, json), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(ROOT, page), renderReport(results));
    log(`wrote ${json} and ${page} (${results.minutes} minutes)`);
  } finally {
    s.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
