import { spawn, type SpawnOptions } from "node:child_process";
import { delimiter, resolve } from "node:path";
import { findPulumiCli } from "../../automation/pulumiCli";

export const REPO = resolve(__dirname, "../..");

/** PATH without any directory that holds a `pulumi` executable. */
export const pathWithoutPulumi = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => dir && !findPulumiCli({ PATH: dir }))
  .join(delimiter);

export interface CommandResult {
  code: number | null;
  /** The signal that ended the command, where one did. */
  signal: NodeJS.Signals | null;
  /** What the command had printed on standard output when it exited (its children may print on). */
  stdoutAtExit: string;
  stdout: string;
  stderr: string;
  /** The child's pid, also its process group's id when started `detached`. */
  pid: number;
}

/**
 * A signal sent to the command's process group, as a terminal sends Ctrl-C (SIGINT) to its foreground group, or as a
 * CI runner's timeout kills one (SIGKILL), as soon as its standard output shows `after` (and then, with `once`, as soon
 * as `once` holds, asked every 20 ms). Needs `detached`.
 */
export interface SignalOn {
  after: string;
  once?: () => boolean;
  signal: NodeJS.Signals;
}

export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: SpawnOptions & { signalOn?: SignalOn } = {},
): Promise<CommandResult> {
  const { signalOn, ...spawnOptions } = options;
  if (signalOn && !spawnOptions.detached) throw new Error("signalOn needs detached: the signal goes to the command's own process group");
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: REPO, env, ...spawnOptions, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let signalled = false;
    let polling: NodeJS.Timeout | undefined;
    const signal = () => {
      clearInterval(polling);
      process.kill(-child.pid!, signalOn!.signal);
    };
    child.stdout!.on("data", (d) => {
      stdout += d;
      if (signalOn && !signalled && stdout.includes(signalOn.after)) {
        signalled = true;
        const once = signalOn.once;
        if (!once) signal();
        else polling = setInterval(() => once() && signal(), 20);
      }
    });
    child.stderr!.on("data", (d) => (stderr += d));
    child.on("error", fail);
    let stdoutAtExit = "";
    child.on("exit", () => {
      clearInterval(polling);
      stdoutAtExit = stdout;
    });
    child.on("close", (code, signal) => done({ code, signal, stdoutAtExit, stdout, stderr, pid: child.pid! }));
  });
}

/** The npm that runs these tests (`npm run demo` is the README's command). */
export function npmCli(): string {
  const npm = process.env.npm_execpath;
  if (!npm) throw new Error("run the tests through npm (npm test, npx jest): npm_execpath names the npm that runs `npm run demo`");
  return npm;
}
