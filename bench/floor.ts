import { sequence, PHASES, type Phase, type PhaseSample, type Sequence } from "./engineComparison";
import { runTasks } from "./programs";
import type { Setting } from "./setting";

/** The null provider's commands at one size, as the engine runs them by default and with checkpoints skipped. */
export interface FloorRow {
  resources: number;
  checkpoints: Record<Phase, FloorFigures>;
  skipCheckpoints: Record<Phase, FloorFigures>;
}

export interface FloorFigures {
  ms: number;
  /** Milliseconds per resource. */
  msPerResource: number;
  /** CPU milliseconds of the CLI, the program's process and the plugin. */
  engineCpuMs: number;
  languageCpuMs: number;
  pluginCpuMs: number;
}

/**
 * The do-nothing floor as the stack grows: the null provider's `up`, no-op `up` and `destroy` at each size, as
 * users run them, and again with `PULUMI_SKIP_CHECKPOINTS=true`, with which the engine writes the state once at
 * the end of a command instead of after every step. Where the two part, the time goes to those writes. A size
 * whose default run is `known` (the comparison's null runs) is not run again.
 */
export async function floor(setting: Setting, sizes: number[], known: Map<number, Sequence>, log: (line: string) => void): Promise<FloorRow[]> {
  const rows: FloorRow[] = [];
  for (const n of sizes) {
    const program = runTasks(n);
    log(`floor: ${n} resources of the null provider`);
    const checkpoints = known.get(n) ?? (await sequence(setting, "null", program, `floor-${n}`));
    log(`floor: ${n} resources of the null provider, PULUMI_SKIP_CHECKPOINTS=true`);
    const skipped = await sequence(setting, "null", program, `floor-skip-${n}`, { PULUMI_SKIP_CHECKPOINTS: "true" });
    rows.push({ resources: n, checkpoints: figures(checkpoints, n), skipCheckpoints: figures(skipped, n) });
  }
  return rows;
}

function figures(s: Sequence, n: number): Record<Phase, FloorFigures> {
  const one = (x: PhaseSample): FloorFigures => ({
    ms: Math.round(x.ms),
    msPerResource: Math.round((x.ms / n) * 10) / 10,
    engineCpuMs: Math.round(x.cpuMs.engine),
    languageCpuMs: Math.round(x.cpuMs.language),
    pluginCpuMs: Math.round(x.cpuMs.plugin),
  });
  return Object.fromEntries(PHASES.map((p) => [p, one(s[p])])) as Record<Phase, FloorFigures>;
}
