/**
 * `npm run bench`: the package through the real Pulumi engine (the `pulumi` CLI, inline Automation API programs)
 * against the emulator, beside a provider that does nothing; how the engine's own floor grows with the stack and
 * why; requests per operation; start-up; listing. Writes bench/results/latest.json and docs/benchmarks.md.
 *
 *   -- --quick                       small sizes, a few minutes: bench/results/quick.{json,md}, the page left alone
 *   -- --render                      the page again from bench/results/latest.json
 *   -- --compare [program] [n] [rounds]   the comparison alone ("run tasks" or "mixed"), printed
 *   -- --floor <n>...                the null provider's floor at these sizes alone, printed
 *   -- --proxy [n] [rounds]          up, no-op up and destroy through an authenticating proxy against direct, printed
 *   -- --executables                the plugins' standalone executables against their scripts alone, printed and
 *                                    written into latest.json and the page as a section of its own
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { repositoryRoot } from "../toolchain/repository";
import { compareThroughEngine, type ProgramName, type Sequence } from "./engineComparison";
import { engineProfile } from "./engineProfile";
import { executables } from "./executables";
import { floor } from "./floor";
import { listing } from "./listing";
import { providerCpu } from "./providerCpu";
import { compareThroughProxy } from "./proxyComparison";
import { renderComparison, renderExecutables, renderProxyComparison, renderReport, type BenchResults } from "./report";
import { requestsPerOperation } from "./requestsPerOperation";
import { loadAverage, setting, type Setting } from "./setting";
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
    floor: [100, 200, 500],
    profile: 500,
    startupRuns: 9,
    listing: 10_000,
    executables: { runs: 15, resources: 200, rounds: 5 },
    proxy: 99,
  },
  quick: {
    resources: 20,
    rounds: 1,
    mixed: 12,
    floor: [50],
    profile: 50,
    startupRuns: 3,
    listing: 1000,
    executables: { runs: 3, resources: 12, rounds: 1 },
    proxy: 12,
  },
};

async function full(s: Setting, quick: boolean): Promise<BenchResults> {
  const size = quick ? SIZES.quick : SIZES.full;
  const started = Date.now();
  const loadAtStart = loadAverage();
  log(`load average at the start: ${loadAtStart.join(", ")}`);
  log("requests per operation");
  const requests = { dynamic: await requestsPerOperation(s, "dynamic"), plugin: await requestsPerOperation(s, "plugin") };
  log("start-up");
  const start = await startup(s, size.startupRuns);
  const standalone = await executables(s, size.executables);
  log("listing");
  const list = await listing(size.listing);
  const cpu = await providerCpu();
  log(`the CLI's profile of an up of ${size.profile} resources of the null provider`);
  const profile = await engineProfile(s, size.profile);
  const mixed = await compareThroughEngine(s, "mixed", size.mixed, 1, log);
  const proxy = await compareThroughProxy(s, size.proxy, size.rounds, log);
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
    requests,
    startup: start,
    executables: standalone,
    listing: list,
    providerCpu: cpu,
  };
}

const FLAGS = ["--quick", "--render", "--compare", "--floor", "--proxy", "--executables"];

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
    if (args.includes("--proxy")) {
      const [n = "30", rounds = "1"] = after("--proxy");
      process.stdout.write(`${renderProxyComparison(await compareThroughProxy(s, Number(n), Number(rounds), log)).join("\n")}\n`);
      return;
    }
    if (args.includes("--executables")) {
      const quick = args.includes("--quick");
      const figures = await executables(s, SIZES[quick ? "quick" : "full"].executables);
      process.stdout.write(`${renderExecutables(figures).join("\n")}\n`);
      // A section of its own, dated: the full measurement's page takes it in place of the one it had.
      if (!quick) {
        const file = join(ROOT, "bench/results/latest.json");
        const results = { ...(JSON.parse(readFileSync(file, "utf8")) as BenchResults), executables: figures };
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
