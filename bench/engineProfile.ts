import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchStack } from "./benchStack";
import { startEmulatorProcess } from "./emulatorProcess";
import { runTasks } from "./programs";
import { benchConfig, EMULATOR_OPTIONS, PARALLEL, type Setting } from "./setting";

/** Where the CLI's CPU went during an `up` of the null provider, from its own profiler. */
export interface EngineProfile {
  resources: number;
  /** CPU seconds the profile sampled in the CLI. */
  cpuSeconds: number;
  /** Share of those samples under each part, by the functions that stand for it (cumulative: a part includes what it calls). */
  shares: { part: string; function: string; share: number }[];
}

/** The parts of the CLI's work that the floor's growth is looked for in, each by a function of pulumi/pulumi. */
const PARTS: [string, string][] = [
  ["writing the state after a step (all of it)", "backend.(*SnapshotManager).saveSnapshot"],
  ["the file backend's save: serialise, checksum, back up, write", "diy.(*diyBackend).saveStack"],
  ["JSON encoding of the state", "encoding/json.(*Encoder).Encode"],
  ["MD5 of each file written", "crypto/md5.(*digest).Write"],
  ["copying the previous state file to its backup", "diy.backupTarget"],
  ["checking the state's integrity after each write", "snapshot.VerifyIntegrity"],
  ["the steps themselves (the step executor)", "deploy.(*stepExecutor).worker"],
  ["the program's registrations", "deploy.(*resmon).RegisterResource"],
];

/**
 * An `up` of `n` resources of the null provider with the CLI's `--profiling` on (a `pulumi` first on PATH that adds
 * the flag, since the Automation API passes no flag of its own choosing), read with `go tool pprof`. Undefined where
 * Go is not installed (the engine's build needs it, a CLI on PATH does not).
 */
export async function engineProfile(setting: Setting, n: number): Promise<EngineProfile | undefined> {
  if (spawnSync("go", ["version"]).status !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "bench-profile-"));
  const wrapper = join(dir, "pulumi");
  writeFileSync(
    wrapper,
    `#!/bin/sh\nif [ "$1" = up ]; then exec "${setting.engine.cli}" "$@" --profiling "${join(dir, "cli")}"; fi\nexec "${setting.engine.cli}" "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  const emulator = await startEmulatorProcess(EMULATOR_OPTIONS);
  const engine = { ...setting.engine, path: [dir, ...setting.engine.path] };
  const stack = new BenchStack(setting.project, engine, `profile-${n}`, benchConfig(emulator.url));
  try {
    await stack.up("null", runTasks(n), { parallel: PARALLEL });
    await stack.destroy("null", { parallel: PARALLEL });
    const profile = readdirSync(dir).find((f) => f.startsWith("cli.") && f.endsWith(".cpu"));
    if (!profile) throw new Error("the CLI wrote no CPU profile");
    const top = spawnSync("go", ["tool", "pprof", "-top", "-cum", "-nodecount=400", setting.engine.cli, join(dir, profile)], { encoding: "utf8" });
    if (top.status !== 0) throw new Error(`go tool pprof failed: ${top.stderr}`);
    return { resources: n, ...readTop(top.stdout) };
  } finally {
    stack.remove();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The total and each part's cumulative share, from `pprof -top -cum` (`flat flat% sum% cum cum% name`). */
function readTop(text: string): Omit<EngineProfile, "resources"> {
  const total = /Total samples = ([\d.]+)(m?s)/.exec(text);
  const cumByName = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^\s*\S+\s+\S+%\s+\S+%\s+\S+\s+([\d.]+)%\s+(.+)$/.exec(line);
    if (m) cumByName.set(m[2].trim(), Number(m[1]) / 100);
  }
  const shareOf = (fn: string) => Math.max(0, ...[...cumByName].filter(([name]) => name.endsWith(fn)).map(([, share]) => share));
  return {
    cpuSeconds: total ? Number(total[1]) / (total[2] === "ms" ? 1000 : 1) : 0,
    shares: PARTS.map(([part, fn]) => ({ part, function: fn, share: shareOf(fn) })),
  };
}
