import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, rmdirSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(tmpdir(), "pulumi-snapshot-runtask-holds");

/**
 * The entries of one deployment (one engine command): this process's, and those of the other plugin processes of
 * the command, which the engine starts with its address as their one argument. Each process appends its own to a
 * file of its own in a folder named by that address, and reads the others' (those of live processes only), where
 * they grew since it last looked. The file goes when the process ends; a process killed outright leaves it, and
 * the next command's start removes it (`removeStaleLedgers`). Without an engine (a test of the provider core, a
 * plugin a debugger started) the entries stay in the process.
 */
export class DeploymentLedger<Entry> {
  private readonly own: Entry[] = [];
  private readonly foreign = new Map<string, { offset: number; entries: Entry[]; partial: string }>();
  private readonly folder?: string;
  private readonly file?: string;

  constructor(readonly engine?: string) {
    if (!engine) return;
    this.folder = join(ROOT, engine.replace(/[^\w.-]/g, "_"));
    this.file = join(this.folder, `${process.pid}.jsonl`);
  }

  record(entry: Entry): void {
    this.own.push(entry);
    if (!this.folder || !this.file) return;
    if (this.own.length === 1) removedAtExit(this.file);
    const line = `${JSON.stringify(entry)}\n`;
    try {
      appendFileSync(this.file, line);
    } catch {
      // The folder is made with the first entry of the command's first process (clean-ups remove empty ones).
      try {
        mkdirSync(this.folder, { recursive: true });
        appendFileSync(this.file, line);
      } catch {
        // No temporary folder to share: the entries stay in this process.
      }
    }
  }

  all(): Entry[] {
    return [...this.own, ...this.others()];
  }

  /** The other live processes' entries, read where their files grew since last time. */
  private others(): Entry[] {
    const folder = this.folder;
    if (!folder) return [];
    const out: Entry[] = [];
    for (const name of safeList(folder)) {
      const pid = Number(name.replace(/\.jsonl$/, ""));
      if (pid === process.pid || !Number.isInteger(pid)) continue;
      if (!alive(pid)) {
        this.foreign.delete(name);
        continue;
      }
      const seen = this.foreign.get(name) ?? { offset: 0, entries: [], partial: "" };
      const { text, bytes } = readFrom(join(folder, name), seen.offset);
      seen.offset += bytes;
      const lines = (seen.partial + text).split("\n");
      seen.partial = lines.pop() ?? "";
      for (const line of lines.filter(Boolean)) seen.entries.push(JSON.parse(line) as Entry);
      this.foreign.set(name, seen);
      out.push(...seen.entries);
    }
    return out;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it lives, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** What `file` holds from `offset` on, and how many bytes that is. */
function readFrom(file: string, offset: number): { text: string; bytes: number } {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const size = fstatSync(fd).size;
    if (size <= offset) return { text: "", bytes: 0 };
    const buffer = Buffer.alloc(size - offset);
    const bytes = readSync(fd, buffer, 0, buffer.length, offset);
    return { text: buffer.subarray(0, bytes).toString("utf8"), bytes };
  } catch {
    return { text: "", bytes: 0 };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Removes `file`, and its folders if empty, when the process ends: normally, or on SIGINT or SIGTERM, as the engine
 * ends its plugins. A process killed outright leaves its file, which the next command removes (removeStaleLedgers).
 */
function removedAtExit(file: string): void {
  const remove = () => {
    try {
      unlinkSync(file);
    } catch {
      // gone already
    }
    for (const folder of [join(file, ".."), ROOT]) {
      try {
        rmdirSync(folder);
      } catch {
        // not empty: another command's, or another process's of this one
      }
    }
  };
  process.once("exit", remove);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      remove();
      // Where no one else listens (the dynamic provider plugin), end the process as the signal would have.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/** Removes the files of processes that ended (their commands are over), and folders left empty. */
export function removeStaleLedgers(): void {
  for (const folder of safeList(ROOT)) {
    const path = join(ROOT, folder);
    for (const name of safeList(path)) {
      const pid = Number(name.replace(/\.jsonl$/, ""));
      if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) {
        try {
          unlinkSync(join(path, name));
        } catch {
          // another process removed it
        }
      }
    }
    try {
      rmdirSync(path);
    } catch {
      // not empty: a command is running
    }
  }
}
