import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { extract } from "tar";
import { repositoryRoot } from "../toolchain/repository";
import { archiveEntries } from "../plugin/executables/archive";
import { BenchStack } from "./benchStack";
import { round2, PHASES, type Phase } from "./engineComparison";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { mixed, type ResourceDescription } from "./programs";
import { benchConfig, EMULATOR_OPTIONS, measuring, median, PARALLEL, type Measured, type Setting } from "./setting";
import { Plugin } from "./startup";

/**
 * The plugins' standalone executables (`npm run plugins`) against the npm package's scripts (`node` running
 * dist/plugin/bin/<name>.js): start-up, an engine command's time, and their size. Each pair is measured in one run,
 * alternating, so that both see the machine in the same state; the ratios are the executable's over the script's.
 */
export interface ExecutableFigures {
  /** When, on what code, and under what load: `--executables` runs alone. */
  measured: Measured;
  /** Medians of `runs` starts of `pulumi-resource-runtask`, from the process's start to its first answer (GetPluginInfo). */
  startup: { runs: number; executableMs: number; scriptMs: number; ratio: number };
  /** `up`, a no-op `up` and `destroy` of `resources` resources of both plugins through the engine, `rounds` rounds. */
  engine: {
    resources: number;
    rounds: number;
    ms: Record<Phase, { executable: number; script: number }>;
    /** CPU milliseconds of the plugin processes during the command (medians, as `ms`). */
    pluginCpuMs: Record<Phase, { executable: number; script: number }>;
    /** CPU milliseconds of all the command's processes (the CLI, the program, the plugins). */
    totalCpuMs: Record<Phase, { executable: number; script: number }>;
    /** The medians of each round's ratio. */
    ratios: Record<Phase, number>;
  };
  /** Each plugin's executable and archive, and the Node.js binary they are made from (the npm package's scripts run on an installed Node.js). */
  sizes: { plugin: string; executableBytes: number; archiveBytes: number }[];
  nodeBinaryBytes: number;
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

type Pair = { executable: number; script: number };

/**
 * One round: a stack of each variant, each against an emulator process of its own, taken through `up`, a no-op `up`
 * and `destroy` a phase at a time, the two variants one after the other within each phase (the script first where
 * `scriptFirst`), so that each pair meets the machine in nearly the same state.
 */
async function pairedRound(
  setting: Setting,
  program: ResourceDescription[],
  executablesDir: string,
  name: string,
  scriptFirst: boolean,
): Promise<{ ms: Record<Phase, Pair>; cpu: Record<Phase, Pair>; totalCpu: Record<Phase, Pair> }> {
  const variants = scriptFirst ? (["script", "executable"] as const) : (["executable", "script"] as const);
  const emulators: EmulatorProcess[] = [];
  const stacks = new Map<(typeof variants)[number], BenchStack>();
  const out = { ms: {} as Record<Phase, Pair>, cpu: {} as Record<Phase, Pair>, totalCpu: {} as Record<Phase, Pair> };
  try {
    for (const variant of variants) {
      const emulator = await startEmulatorProcess(EMULATOR_OPTIONS);
      emulators.push(emulator);
      const dir = variant === "executable" ? executablesDir : undefined;
      stacks.set(variant, new BenchStack(setting.project, setting.engine, `executables-${variant}-${name}`, benchConfig(emulator.url), {}, dir));
    }
    const expected: Record<Phase, string> = { up: "create", noOpUp: "same", destroy: "delete" };
    for (const phase of PHASES) {
      for (const variant of variants) {
        const stack = stacks.get(variant)!;
        const figures =
          phase === "destroy" ? await stack.destroy("plugin", { parallel: PARALLEL }) : await stack.up("plugin", program, { parallel: PARALLEL });
        // The summary counts the stack resource too.
        if (figures.changes[expected[phase]] !== program.length + 1) {
          throw new Error(
            `${variant}, ${phase}: expected ${program.length + 1} "${expected[phase]}" changes, the engine reported ${JSON.stringify(figures.changes)}`,
          );
        }
        (out.ms[phase] ??= { executable: 0, script: 0 })[variant] = figures.ms;
        (out.cpu[phase] ??= { executable: 0, script: 0 })[variant] = figures.cpuMs.plugin;
        (out.totalCpu[phase] ??= { executable: 0, script: 0 })[variant] = figures.totalCpuMs;
      }
    }
    return out;
  } finally {
    for (const stack of stacks.values()) stack.remove();
    for (const emulator of emulators) await emulator.close();
  }
}

/** The archives of this machine (`npm run plugins`'s build, reusing what it made before), extracted into `dir`. */
async function executablesIn(dir: string): Promise<{ plugin: string; archive: string; executable: string }[]> {
  const root = repositoryRoot(__dirname);
  const build = spawnSync(process.execPath, [join(root, "dist/plugin/executables/build.js")], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (build.status !== 0) throw new Error("npm run plugins failed");
  const archives = build.stdout.split("\n").filter(Boolean);
  mkdirSync(dir, { recursive: true });
  const out = [];
  for (const archive of archives) {
    await extract({ file: archive, cwd: dir });
    const plugin = /^pulumi-resource-(\w+)-v/.exec(basename(archive))![1];
    out.push({ plugin, archive, executable: join(dir, `pulumi-resource-${plugin}`) });
  }
  return out;
}

export async function executables(setting: Setting, size: { runs: number; resources: number; rounds: number }): Promise<ExecutableFigures> {
  const work = mkdtempSync(join(tmpdir(), "bench-executables-"));
  const measurement = measuring();
  try {
    log("the plugins' executables (npm run plugins)");
    const built = await executablesIn(join(work, "bin"));
    const sizes = [];
    for (const b of built) {
      const [entry] = await archiveEntries(b.archive);
      sizes.push({ plugin: b.plugin, executableBytes: entry.size, archiveBytes: statSync(b.archive).size });
    }

    log(`start-up of the executable and the script, ${size.runs} runs each`);
    const env = { ...process.env, PATH: [...setting.engine.path, process.env.PATH ?? ""].join(":") };
    const firstAnswer = async (command: string) => {
      const started = process.hrtime.bigint();
      const plugin = await Plugin.start(command, setting.project.dir, env);
      try {
        await plugin.info();
        return Number(process.hrtime.bigint() - started) / 1e6;
      } finally {
        await plugin.stop();
      }
    };
    const executable = built.find((b) => b.plugin === "runtask")!.executable;
    const script = join(setting.project.binDir, "pulumi-resource-runtask");
    // Each once first: the script's compile cache is then filled, as after a user's first command.
    await firstAnswer(executable);
    await firstAnswer(script);
    const starts = { executable: [] as number[], script: [] as number[] };
    for (let i = 0; i < size.runs; i++) {
      starts.executable.push(await firstAnswer(executable));
      starts.script.push(await firstAnswer(script));
    }

    const program = mixed(size.resources);
    const samples: { ms: Record<Phase, Pair>; cpu: Record<Phase, Pair>; totalCpu: Record<Phase, Pair> }[] = [];
    for (let round = 0; round < size.rounds; round++) {
      log(`${size.resources} resources of both plugins through the engine, round ${round + 1} of ${size.rounds}`);
      samples.push(await pairedRound(setting, program, join(work, "bin"), `${size.resources}-${round}`, round % 2 === 1));
    }
    const medianPair = (pick: (s: (typeof samples)[number]) => Pair): Pair => ({
      executable: Math.round(median(samples.map((s) => pick(s).executable))),
      script: Math.round(median(samples.map((s) => pick(s).script))),
    });
    const byPhase = <T>(f: (p: Phase) => T) => Object.fromEntries(PHASES.map((p) => [p, f(p)])) as Record<Phase, T>;
    const executableMs = Math.round(median(starts.executable));
    const scriptMs = Math.round(median(starts.script));
    return {
      measured: measurement.end(),
      startup: { runs: size.runs, executableMs, scriptMs, ratio: round2(median(starts.executable) / median(starts.script)) },
      engine: {
        resources: size.resources,
        rounds: size.rounds,
        ms: byPhase((p) => medianPair((s) => s.ms[p])),
        pluginCpuMs: byPhase((p) => medianPair((s) => s.cpu[p])),
        totalCpuMs: byPhase((p) => medianPair((s) => s.totalCpu[p])),
        ratios: byPhase((p) => round2(median(samples.map((s) => s.ms[p].executable / s.ms[p].script)))),
      },
      sizes,
      nodeBinaryBytes: statSync(process.execPath).size,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
