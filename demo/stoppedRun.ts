import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { basename, join } from "node:path";

/**
 * What a `pulumi` command stopped in the middle (killed, or its machine lost) leaves in a file backend, where the next
 * command on the stack trips over it, and what can be cleared safely:
 *
 * - Creates it had begun and not recorded (provider/takeover/stackStates.ts), which the next up takes over
 *   (engineDeployment.ts).
 *
 * - Metadata files (`<file>.attrs`) left empty. The storage library the CLI writes the backend with (gocloud.dev's
 *   fileblob) writes a file's metadata, truncating it first, before it renames the new file into place, so a CLI
 *   killed between the two leaves the last whole file beside empty metadata. Without a metadata file the library
 *   reads the file as it is, so an empty one can go.
 * - Its lock: the CLI refuses the stack while another command's lock is there ("the stack is currently locked").
 *   One whose process is gone can be cleared (`pulumi cancel`); `stackLocks` says whose process each is.
 */

/** A lock a `pulumi` command holds on a stack of a file backend, as the CLI writes it. */
export interface StackLock {
  file: string;
  pid: number;
  hostname: string;
  /** Whether the command that wrote it still runs (a lock of another machine counts as running). */
  running: boolean;
}

/**
 * Removes the metadata files (`<file>.attrs`) of the file backend in `backend` that a killed `pulumi` left empty: the
 * next command would fail to read the stack ("failed to load checkpoint: EOF"). Returns those it removed.
 */
export function clearEmptyMetadata(backend: string): string[] {
  const cleared: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith(".attrs") && statSync(path).size === 0) {
        rmSync(path);
        cleared.push(path);
      }
    }
  };
  if (existsSync(join(backend, ".pulumi"))) visit(join(backend, ".pulumi"));
  return cleared;
}

/** The locks held on the stack `organization/<project>/<stack>` of the file backend in `backend`. */
export function stackLocks(backend: string, project: string, stack: string): StackLock[] {
  const dir = join(backend, ".pulumi/locks/organization", project, stack);
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort();
  } catch {
    return [];
  }
  return files.map((f) => {
    const file = join(dir, f);
    const content = readLock(file);
    const here = content.hostname === hostname();
    return { file, pid: content.pid, hostname: content.hostname, running: !here || processRuns(content.pid) };
  });
}

function readLock(file: string): { pid: number; hostname: string } {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { pid?: unknown; hostname?: unknown };
    return { pid: typeof parsed.pid === "number" ? parsed.pid : 0, hostname: String(parsed.hostname ?? "") };
  } catch {
    // A lock file the killed CLI left half written: its process is the one that was killed.
    return { pid: 0, hostname: hostname() };
  }
}

/** Whether a process of that id runs here and is a `pulumi` executable (not another one that took the id since). */
function processRuns(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    return basename(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]).startsWith("pulumi");
  } catch {
    // No /proc (macOS): the process runs, and may be the CLI.
    return true;
  }
}
