// A process's CPU time and peak memory, read from /proc.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * What Linux reports of a process in /proc, for benchmarks: peak memory and CPU time. Each returns undefined
 * where /proc is absent (other systems) or the process is gone.
 */

/** Peak resident set size (VmHWM), in KiB. */
export function peakRssKb(pid: number | undefined): number | undefined {
  const status = read(`/proc/${pid}/status`);
  const m = status === undefined ? null : /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) : undefined;
}

/** CPU time used so far, user plus system, every thread included, in milliseconds. */
export function cpuMs(pid: number | undefined): number | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // Fields after the command name, which is in parentheses and may itself hold spaces: utime and stime are
  // the 14th and 15th fields of the whole line, the 12th and 13th after ") ".
  const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond();
}

let ticks: number | undefined;

function clockTicksPerSecond(): number {
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
