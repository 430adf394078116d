import { BenchStack, type CommandFigures } from "./benchStack";
import { startEmulatorProcess } from "./emulatorProcess";
import type { CpuByRole } from "./processTree";
import { nullProviderWaits } from "./nullProvider";
import { mixed, runTasks, VARIANTS, type ResourceDescription, type Variant } from "./programs";
import { benchConfig, EMULATOR_OPTIONS, LATENCY_MS, median, PARALLEL, type Setting } from "./setting";

export const PHASES = ["up", "noOpUp", "destroy"] as const;
export type Phase = (typeof PHASES)[number];

/** One command of one variant in one round, with what the emulator saw of it. */
export interface PhaseSample extends CommandFigures {
  /** Requests the emulator served during the command. */
  requests: number;
  /** CPU milliseconds of the emulator (the stand-in for the remote service). */
  emulatorCpuMs: number;
}

/** A variant's phase over the rounds: medians, and the range of the times. */
export interface PhaseSummary {
  ms: number;
  msRange: [number, number];
  cpuMs: CpuByRole;
  totalCpuMs: number;
  /** The provider plugins' share of the CPU of the command's processes. */
  pluginShare: number;
  requests: number;
  pluginProcesses: number;
}

export interface EngineComparison {
  program: ProgramName;
  resources: number;
  parallel: number;
  latencyMs: number;
  rounds: number;
  phases: Record<Phase, Record<Variant, PhaseSummary>>;
  /** Wall time of ours over the null provider's, the median of the rounds' ratios (each round's runs share the machine's state). */
  ratios: Record<Phase, Record<Exclude<Variant, "null">, number>>;
  /** Bytes of the state file per resource after `up`. */
  stateBytesPerResource: Record<Variant, number>;
  /** Bytes of a resource's provider text (`__provider`), stored twice per resource: ours and the null provider's. */
  providerTextBytes: { dynamic?: number; null?: number };
  /** Every command, by round then variant, for whoever wants more than medians. */
  samples: Record<Variant, Record<Phase, PhaseSample>>[];
  /** The control, where it ran: the null provider waiting in the same rounds (see `WaitingControl`). */
  waiting?: WaitingControl;
}

/**
 * The null provider whose create and delete wait at least as long as ours wait on the service (two requests'
 * latency a create, one a delete), still doing nothing, run in every round beside the others. Against the null
 * provider it tells what the time the requests take costs the engine's processes (a longer command, calls held
 * open) from what their work costs.
 */
export interface WaitingControl {
  createWaitMs: number;
  deleteWaitMs: number;
  /** Its commands, by round, as the variants' in `samples`. */
  samples: Record<Phase, PhaseSample>[];
}

export type Sequence = Record<Phase, PhaseSample> & { stateBytes: number; providerTextBytes?: number };

/**
 * `up`, a no-op `up` and `destroy` of `resources` with one variant, on a stack of its own, against an emulator
 * process of its own. `env` is the CLI's further environment. Each command is checked to have done what it should.
 */
export async function sequence(
  setting: Setting,
  variant: Variant,
  resources: ResourceDescription[],
  name: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Sequence> {
  const emulator = await startEmulatorProcess(EMULATOR_OPTIONS);
  const stack = new BenchStack(setting.project, setting.engine, name, benchConfig(emulator.url), env);
  const expect = (figures: CommandFigures, kind: string) => {
    // The summary counts the stack resource too.
    if (figures.changes[kind] !== resources.length + 1)
      throw new Error(`${name}: expected ${resources.length + 1} "${kind}" changes, the engine reported ${JSON.stringify(figures.changes)}`);
  };
  const phase = async (command: () => Promise<CommandFigures>, kind: string): Promise<PhaseSample> => {
    const before = await emulator.resetRequests();
    const figures = await command();
    const after = await emulator.stats();
    expect(figures, kind);
    return { ...figures, requests: after.requests, emulatorCpuMs: after.cpuMs - before.cpuMs };
  };
  try {
    const options = { parallel: PARALLEL };
    const up = await phase(() => stack.up(variant, resources, options), "create");
    const stateBytes = stack.stateBytes();
    const providerTextBytes = stack.providerTextBytes();
    const noOpUp = await phase(() => stack.up(variant, resources, options), "same");
    const destroy = await phase(() => stack.destroy(variant, options), "delete");
    return { up, noOpUp, destroy, stateBytes, providerTextBytes };
  } finally {
    stack.remove();
    await emulator.close();
  }
}

/** The programs compared: `n` run tasks (one package), or `n` resources of the three kinds (both packages). */
export const PROGRAMS = { "run tasks": runTasks, mixed } as const;
export type ProgramName = keyof typeof PROGRAMS;

/**
 * The three variants on a program of `n` resources, in `rounds` rounds: each round runs every variant's sequence,
 * starting with a different variant each round, so that all see the machine in the same state (its speed varies
 * from minute to minute, other work sharing it). `waiting` adds the waiting null provider to every round.
 */
export async function compareThroughEngine(
  setting: Setting,
  programName: ProgramName,
  n: number,
  rounds: number,
  log: (line: string) => void,
  { waiting = false }: { waiting?: boolean } = {},
): Promise<EngineComparison> {
  const program = PROGRAMS[programName](n);
  const samples: EngineComparison["samples"] = [];
  const control: WaitingControl = { createWaitMs: 2 * LATENCY_MS, deleteWaitMs: LATENCY_MS, samples: [] };
  const runs: (Variant | "waiting")[] = waiting ? [...VARIANTS, "waiting"] : VARIANTS;
  const stateBytes = {} as Record<Variant, number>;
  const providerTextBytes: EngineComparison["providerTextBytes"] = {};
  for (let round = 0; round < rounds; round++) {
    const sample = {} as Record<Variant, Record<Phase, PhaseSample>>;
    for (let k = 0; k < runs.length; k++) {
      const run = runs[(round + k) % runs.length];
      log(`${programName}, ${n} resources, round ${round + 1} of ${rounds}: ${run === "waiting" ? "null, waiting" : run}`);
      const name = `${programName.replace(" ", "-")}-${run}-${n}-${round}`;
      if (run === "waiting") {
        const env = nullProviderWaits(control.createWaitMs, control.deleteWaitMs);
        const { up, noOpUp, destroy } = await sequence(setting, "null", program, name, env);
        control.samples.push({ up, noOpUp, destroy });
        continue;
      }
      const { stateBytes: bytes, providerTextBytes: text, ...phases } = await sequence(setting, run, program, name);
      sample[run] = phases;
      stateBytes[run] = Math.round(bytes / n);
      if (run !== "plugin") providerTextBytes[run] = text;
    }
    samples.push(sample);
  }
  const phases = Object.fromEntries(
    PHASES.map((p) => [p, Object.fromEntries(VARIANTS.map((v) => [v, summary(samples.map((s) => s[v][p]))]))]),
  ) as EngineComparison["phases"];
  const ratio = (p: Phase, v: Variant) => round2(median(samples.map((s) => s[v][p].ms / s.null[p].ms)));
  const ratios = Object.fromEntries(
    PHASES.map((p) => [p, { dynamic: ratio(p, "dynamic"), plugin: ratio(p, "plugin") }]),
  ) as EngineComparison["ratios"];
  return {
    program: programName,
    resources: n,
    parallel: PARALLEL,
    latencyMs: LATENCY_MS,
    rounds,
    phases,
    ratios,
    stateBytesPerResource: stateBytes,
    providerTextBytes,
    samples,
    ...(waiting ? { waiting: control } : {}),
  };
}

/**
 * CPU of the waiting null provider over the null provider's, in all and by role (the medians of the rounds'
 * ratios): what waiting as ours wait costs, doing nothing.
 */
export function waitingCpuRatios(c: EngineComparison, p: Phase): { all: number; engine: number; plugin: number } | undefined {
  const w = c.waiting;
  if (!w) return undefined;
  const of = (f: (x: PhaseSample) => number) => round2(median(w.samples.map((x, round) => f(x[p]) / f(c.samples[round].null[p]))));
  return { all: of((x) => x.totalCpuMs), engine: of((x) => x.cpuMs.engine), plugin: of((x) => x.cpuMs.plugin) };
}

/**
 * CPU of ours over the null provider's (the kernel's count for all the command's processes), the median of the
 * rounds' ratios. On a shared machine it moves less than wall time, which waits on whatever else runs.
 */
export function cpuRatio(c: EngineComparison, p: Phase, v: Exclude<Variant, "null">): number {
  return round2(median(c.samples.map((s) => s[v][p].totalCpuMs / s.null[p].totalCpuMs)));
}

export function summary(xs: PhaseSample[]): PhaseSummary {
  const m = (f: (x: PhaseSample) => number) => Math.round(median(xs.map(f)));
  const cpuMs: CpuByRole = {
    engine: m((x) => x.cpuMs.engine),
    language: m((x) => x.cpuMs.language),
    plugin: m((x) => x.cpuMs.plugin),
    other: m((x) => x.cpuMs.other),
  };
  const sampled = cpuMs.engine + cpuMs.language + cpuMs.plugin + cpuMs.other;
  return {
    ms: m((x) => x.ms),
    msRange: [Math.round(Math.min(...xs.map((x) => x.ms))), Math.round(Math.max(...xs.map((x) => x.ms)))],
    cpuMs,
    totalCpuMs: m((x) => x.totalCpuMs),
    pluginShare: sampled ? round2(cpuMs.plugin / sampled) : 0,
    requests: m((x) => x.requests),
    pluginProcesses: m((x) => x.pluginProcesses),
  };
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
