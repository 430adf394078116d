import { createHash } from "node:crypto";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

export const WORK_DIRECTORY_PREFIX = "pulumi-snapshot-runtask-";

/**
 * Runs `fn` in a new temporary directory (the workspace's `Pulumi.yaml` and the stack's settings file, with its
 * encrypted config, go there), then removes it, whatever the outcome. Also removes the file the CLI writes under
 * `$PULUMI_HOME/workspaces` for each project directory to remember its selected stack: a new directory per call
 * would otherwise leave one file behind per call.
 */
export async function inWorkDirectory<T>(where: { projectName: string; pulumiHome?: string }, fn: (workDir: string) => Promise<T>): Promise<T> {
  const workDir = mkdtempSync(join(tmpdir(), WORK_DIRECTORY_PREFIX));
  try {
    return await fn(workDir);
  } finally {
    forgetStackSelection(workDir, where.projectName, where.pulumiHome);
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * The CLI names that file `<project>-<sha1 of the Pulumi.yaml path>-workspace.json` (pkg/workspace/workspace.go);
 * the path is the directory as given or as resolved (where the temporary directory is behind a symbolic link).
 */
function forgetStackSelection(workDir: string, projectName: string, pulumiHome = process.env.PULUMI_HOME || join(homedir(), ".pulumi")): void {
  const dirs = new Set([workDir]);
  try {
    dirs.add(realpathSync(workDir));
  } catch {
    // already gone
  }
  for (const dir of dirs) {
    const hash = createHash("sha1").update(join(dir, "Pulumi.yaml")).digest("hex");
    rmSync(join(pulumiHome, "workspaces", `${projectName}-${hash}-workspace.json`), { force: true });
  }
}
