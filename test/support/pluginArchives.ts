import { spawn } from "node:child_process";
import { basename, join } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";

/** What one run of `npm run plugins`'s build printed, and the archives it named. */
export interface PluginsBuild {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** The archives' paths by plugin name, from stdout. */
  archives: Record<string, string>;
}

/**
 * Runs the build of `npm run plugins` (dist/plugin/executables/build.js, after `npm run build`) with `args`, as
 * `npm run plugins -- <args>` does. An archive already made from the same inputs is reused, so that the test files
 * share the archives the first one made.
 */
export function runPluginsBuild(args: string[] = []): Promise<PluginsBuild> {
  const root = repositoryRoot();
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, "dist/plugin/executables/build.js"), ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) =>
      resolve({ code: code ?? 1, stdout, stderr, ms: Date.now() - started, archives: archivesByPlugin(stdout.split("\n").filter(Boolean)) }),
    );
  });
}

/** The archives of `args`' build, failing with what it printed where it fails. */
export async function pluginArchives(args: string[] = []): Promise<Record<string, string>> {
  const build = await runPluginsBuild(args);
  if (build.code !== 0) throw new Error(`npm run plugins -- ${args.join(" ")} failed (${build.code}):\n${build.stderr}`);
  return build.archives;
}

function archivesByPlugin(paths: string[]): Record<string, string> {
  return Object.fromEntries(paths.map((p) => [/^pulumi-resource-(\w+)-v/.exec(basename(p))?.[1] ?? p, p]));
}
