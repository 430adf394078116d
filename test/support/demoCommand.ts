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
  stdout: string;
  stderr: string;
  /** The child's pid, also its process group's id when started `detached`. */
  pid: number;
}

export function run(command: string, args: string[], env: NodeJS.ProcessEnv, options: SpawnOptions = {}): Promise<CommandResult> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: REPO, env, ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr, pid: child.pid! }));
  });
}

/** The npm that runs these tests (`npm run demo` is the README's command). */
export function npmCli(): string {
  const npm = process.env.npm_execpath;
  if (!npm) throw new Error("run the tests through npm (npm test, npx jest): npm_execpath names the npm that runs `npm run demo`");
  return npm;
}
