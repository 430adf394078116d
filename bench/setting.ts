import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { createConsumerProject, type ConsumerProject } from "../toolchain/consumerProject";
import { ensurePulumiEngine, type PulumiEngine } from "../toolchain/pulumiEngine";
import { DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN, type EmulatorOptions } from "../emulator";
import { installNullProvider } from "./nullProvider";
import { repositoryRoot } from "../toolchain/repository";
import { BENCH_WORKSPACE } from "./programs";

/**
 * Milliseconds the emulator adds to every request. With it the service is not instantaneous, so that parallelism
 * bounds throughput as it does against a remote service: `parallel` requests in flight, 20 ms each.
 */
export const LATENCY_MS = 20;

/** `--parallel` of every command (the CLI's default is 8; the measurements used 10). */
export const PARALLEL = 10;

const ORGANIZATION = "emulator-org";

/** The emulator of every engine run: its own process (see emulatorProcess.ts), the latency, a workspace for attachments. */
export const EMULATOR_OPTIONS: EmulatorOptions = {
  snapshot: { takeSnapshots: false },
  faults: { latencyMs: LATENCY_MS },
  runTask: { organizations: [{ name: ORGANIZATION, workspaces: [{ id: BENCH_WORKSPACE, name: "bench" }] }] },
};

/** The stack config that points both packages at the emulator at `url`. */
export function benchConfig(url: string): Record<string, string> {
  return {
    "snapshot:address": url,
    "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
    "runtask:address": url,
    "runtask:token": DEFAULT_RUNTASK_TOKEN,
    "runtask:organization": ORGANIZATION,
  };
}

/** What every engine run shares: the engine, and a consumer project with the package and the null provider installed. */
export interface Setting {
  engine: PulumiEngine;
  project: ConsumerProject;
  remove(): void;
}

export function setting(): Setting {
  const engine = ensurePulumiEngine("built");
  const project = createConsumerProject();
  installNullProvider(project.dir);
  return { engine, project, remove: () => project.remove() };
}

/** The middle value; the mean of the two middle ones for an even count. */
export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The machine's load averages (1, 5 and 15 minutes), as `uptime` shows them. */
export function loadAverage(): number[] {
  return loadavg().map((x) => Math.round(x * 100) / 100);
}

/**
 * When a section measured on its own was measured, on what code, and under what load (1, 5 and 15 minutes, as it
 * started and ended): the machine is shared, and such a section stands beside figures of another day.
 */
export interface Measured {
  date: string;
  /** The commit measured, `+` where the working tree differed from it; absent from sections written before it was kept. */
  commit?: string;
  loadAverage: { start: number[]; end: number[] };
}

/** Starts a measurement: the date, the commit and the load now (`start`); `end()` adds the load then. */
export function measuring(): { start: number[]; end(): Measured } {
  const date = new Date().toISOString();
  const start = loadAverage();
  const commit = currentCommit();
  return { start, end: () => ({ date, ...(commit ? { commit } : {}), loadAverage: { start, end: loadAverage() } }) };
}

/**
 * The repository's commit, short, with `+` where the working tree differs from it (bar the results and the page, which
 * a section measured before this one may have written); undefined outside a git clone.
 */
function currentCommit(): string | undefined {
  const cwd = repositoryRoot(__dirname);
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd, encoding: "utf8" });
  if (head.status !== 0) return undefined;
  const changed = spawnSync("git", ["status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/results", ":!docs/benchmarks.md"], {
    cwd,
    encoding: "utf8",
  });
  return `${head.stdout.trim()}${changed.stdout.trim() ? "+" : ""}`;
}
