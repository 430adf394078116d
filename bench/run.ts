/**
 * `npm run bench`: cost per operation, throughput at scale, start-up, state size and listing, measured with the
 * emulator and the engine driver (engine/) around the real plugin process. Writes
 * bench/results/latest.json and docs/benchmarks.md; `-- --quick` a smaller run to bench/results/quick.*, and
 * `-- --render` the page alone, from the last results; `-- --profile` where the plugin's CPU goes (bench/profile.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { listing } from "./listing";
import { createConsumerProject } from "./harness";
import { onePackage } from "./onePackage";
import { profile } from "./profile";
import { providerCpu } from "./providerCpu";
import { requestsPerOperation } from "./requestsPerOperation";
import { renderReport, type BenchResults } from "./report";
import { startup } from "./startup";
import { stepGeneration } from "./stepGeneration";
import { throughput } from "./throughput";
import { renderHeadline } from "./throughputReport";

const ROOT = resolve(__dirname, "../..");

async function main(): Promise<void> {
  if (process.argv.includes("--render")) {
    // The page again from the last full run's results, after a change to the report alone.
    const results = JSON.parse(readFileSync(join(ROOT, "bench/results/latest.json"), "utf8")) as BenchResults;
    writeFileSync(join(ROOT, "docs/benchmarks.md"), renderReport(results));
    return;
  }
  const quick = process.argv.includes("--quick");
  const fixture = createConsumerProject();
  if (process.argv.includes("--ratios")) {
    // The headline ratios alone, for quick comparisons while working: `-- --ratios <resources> <runs>`.
    const [n = "1000", runs = "1"] = process.argv.slice(process.argv.indexOf("--ratios") + 1);
    try {
      const figures = [];
      for (const parallelism of [16, 64]) figures.push(await throughput(fixture, Number(n), parallelism, Number(runs)));
      process.stdout.write(`${renderHeadline(figures).join("\n")}\n`);
    } finally {
      fixture.remove();
    }
    return;
  }
  if (process.argv.includes("--startup")) {
    // Start-up alone: `-- --startup <runs>`.
    const [runs = "5"] = process.argv.slice(process.argv.indexOf("--startup") + 1);
    try {
      process.stdout.write(`${JSON.stringify(await startup(fixture, Number(runs)), null, 2)}\n`);
    } finally {
      fixture.remove();
    }
    return;
  }
  if (process.argv.includes("--profile")) {
    try {
      process.stdout.write(`${await profile(fixture, join(ROOT, "bench/results/profiles"))}\n`);
    } finally {
      fixture.remove();
    }
    return;
  }
  try {
    const log = (what: string) => process.stderr.write(`bench: ${what}\n`);
    log("requests per operation");
    const requests = await requestsPerOperation(fixture);
    log("start-up");
    const start = await startup(fixture, quick ? 3 : 9);
    const scale: Awaited<ReturnType<typeof throughput>>[] = [];
    for (const parallelism of [16, 64]) {
      for (const n of quick ? [10, 100] : [10, 100, 1000]) {
        log(`throughput: ${n} resources at parallelism ${parallelism}`);
        scale.push(await throughput(fixture, n, parallelism, quick ? 1 : 3));
      }
    }
    log("Check and Diff one resource at a time, as the engine's step generator calls them");
    const steps = await stepGeneration(fixture, quick ? 100 : 1000);
    log("one package: the provider plugin against the dynamic plugin");
    const one = await onePackage(fixture, quick ? 200 : 900, 16, quick ? 1 : 3);
    log("provider CPU per operation");
    const cpu = await providerCpu();
    log("listing");
    const list = await listing(quick ? 1000 : 10_000);
    const results = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
      requests,
      startup: start,
      throughput: scale,
      stepGeneration: steps,
      listing: list,
      providerCpu: cpu,
      onePackage: one,
    };
    mkdirSync(join(ROOT, "bench/results"), { recursive: true });
    // A quick run is a smoke test: it leaves the published figures alone.
    const [json, page] = quick ? ["bench/results/quick.json", "bench/results/quick.md"] : ["bench/results/latest.json", "docs/benchmarks.md"];
    writeFileSync(join(ROOT, json), JSON.stringify(results, null, 2) + "\n");
    writeFileSync(join(ROOT, page), renderReport(results));
    log(`wrote ${json} and ${page}`);
  } finally {
    fixture.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
