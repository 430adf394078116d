import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * What a process of a `pulumi` command is there for: the CLI (the engine), the language side (the program's
 * process, or the YAML host), a provider plugin (with what starts it), or something else.
 */
export type Role = "engine" | "language" | "plugin" | "other";

export type CpuByRole = Record<Role, number>;

/**
 * CPU time of every process under `root`, by role: /proc is read every `intervalMs` (the plugins and the CLI exit
 * before the command's end is seen, so each one's last reading is its figure; what it spent after that reading, at
 * most one interval of its tail, is missed). `mark()` sets the start: CPU spent before it is left out.
 */
export class ProcessTreeSampler {
  private readonly seen = new Map<number, { role: Role; base: number; last: number; server: boolean }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly root: number,
    intervalMs = 100,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** From now on: each process's CPU so far is its base. */
  mark(): void {
    this.sample();
    for (const p of this.seen.values()) p.base = p.last;
  }

  /** Stops sampling; CPU milliseconds since `mark()` by role, and how many plugin processes served the command. */
  stop(): { cpuMs: CpuByRole; pluginProcesses: number } {
    this.sample();
    clearInterval(this.timer);
    const cpuMs: CpuByRole = { engine: 0, language: 0, plugin: 0, other: 0 };
    let pluginProcesses = 0;
    for (const p of this.seen.values()) {
      cpuMs[p.role] += p.last - p.base;
      if (p.server && p.last > p.base) pluginProcesses++;
    }
    return { cpuMs, pluginProcesses };
  }

  private sample(): void {
    for (const pid of [this.root, ...descendants(this.root)]) {
      const cpu = cpuMsOf(pid);
      if (cpu === undefined) continue;
      const known = this.seen.get(pid);
      if (known) {
        known.last = cpu;
        // `env node` execs into what it starts: look again until the process is known for what it is.
        if (!known.server && known.role !== "engine") Object.assign(known, classify(pid, this.root));
      } else this.seen.set(pid, { ...classify(pid, this.root), base: 0, last: cpu });
    }
  }
}

/**
 * The root is the program's process. Plugins are named by their command line: the dynamic provider plugin (its
 * `pulumi-resource-pulumi-nodejs` script, the `node -e` that finds the SDK, then `cmd/dynamic-provider`) and the
 * package's `pulumi-resource-*` executables, its scripts or their standalone builds.
 */
function classify(pid: number, root: number): { role: Role; server: boolean } {
  const none = { server: false };
  if (pid === root) return { role: "language", ...none };
  const comm = read(`/proc/${pid}/comm`)?.trim() ?? "";
  if (comm === "pulumi") return { role: "engine", ...none };
  if (comm.startsWith("pulumi-language")) return { role: "language", ...none };
  const args = (read(`/proc/${pid}/cmdline`) ?? "").split("\0");
  if (!args.some((a) => /pulumi-resource-|dynamic-provider/.test(a))) return { role: "other", ...none };
  // The process that serves the provider, not the script or the `node -e` that start it; or a standalone executable
  // (`npm run plugins`), run as itself where a script runs under its shell.
  return { role: "plugin", server: (comm === "node" && !args.includes("-e")) || /(^|\/)pulumi-resource-[^/]+$/.test(args[0]) };
}

/** The pids under `pid`, from /proc (each thread's children). */
export function descendants(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const task of tasks) {
    const children = read(`/proc/${pid}/task/${task}/children`) ?? "";
    for (const child of children.split(" ").filter(Boolean).map(Number)) out.push(child, ...descendants(child));
  }
  return out;
}

/** CPU time a process has used, user plus system, every thread, in milliseconds. */
export function cpuMsOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
}

/** CPU time of a process's children that it has waited for (cutime plus cstime), in milliseconds. */
export function childrenCpuMsOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && ((Number(fields[13]) + Number(fields[14])) * 1000) / clockTicks();
}

/** The fields of /proc/<pid>/stat after the command name (which is in parentheses and may hold spaces). */
function statFields(pid: number): string[] | undefined {
  const stat = read(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(") ") + 2).split(" ");
}

let ticks: number | undefined;

function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
