import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, rmdirSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resourceOfCall } from "./context";
import { tellUser } from "./engineLog";

/**
 * The objects the resources of this deployment hold, and the deletes of held objects left undone.
 *
 * The engine deletes a resource's old object by the id in its state without comparing it with the ids other
 * resources of the stack hold (pulumi/pulumi `pkg/resource/deploy/step_generator.go`, `GenerateDeletes`). A
 * resource holds its object when it makes, adopts or imports it, and when its Diff answers that it keeps it: the
 * engine calls Diff for every resource of the program it has a state for before it deletes the resources the
 * program dropped. A delete of an object another resource holds is left undone: it comes from a resource that
 * claimed the same object as another (a move without `aliases` where the new resource adopted the object, in that
 * deployment or, after a failure stopped it, the next one).
 *
 * A deployment is one engine command, served by one plugin process per provider instance (the default provider,
 * each explicit provider, the dynamic provider plugin), each started with the engine's address as its one argument.
 * A move to an explicit provider adopts in one process and deletes in another, so the entries of a deployment are
 * shared by its plugin processes: each appends its own to a file of its own in a folder named by that address,
 * and reads the others' (those of live processes only). Without an engine (a test of the provider core, a plugin a
 * debugger started) they stay in the process.
 *
 * A delete left undone can be the resource's own: the engine's delete-first replacement of a resource renamed with
 * `aliases` names the old URN in its Delete and the new one in its Diff, and the dynamic provider plugin names
 * none. Its create then meets its own object: a create of an identity whose delete this deployment left undone,
 * held by no resource but the one creating, carries that delete out first (`ownDeleteLeftUndone`). The engine
 * orders a delete before the create of the same identity only in a delete-first replacement of one resource.
 */
export type ObjectKind = "snapshot configuration" | "run task" | "association";

interface Entry {
  /** `hold`: `by` holds the object; `undone`: a delete of it by `by` was left undone; `done`: that delete was made. */
  t: "hold" | "undone" | "done";
  kind: ObjectKind;
  id: string;
  /** The resource's URN where the call named it, else "". */
  by: string;
  /** What names the object on the service (a name, organization/name, workspace/task), for a create to find. */
  identity?: string;
}

const ROOT = join(tmpdir(), "pulumi-snapshot-runtask-holds");

/** The entries of one deployment: this process's, and those of the other plugin processes of its engine command. */
class DeploymentEntries {
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

let entries = new DeploymentEntries();

/**
 * Starts the deployment this process serves: the engine command whose address the process was started with, whose
 * other plugin processes share its entries, or, without one, a deployment of this process alone. Joining the
 * deployment the process is in already changes nothing.
 */
export function startDeployment(engine?: string): void {
  if (engine !== undefined && engine === entries.engine) return;
  if (engine) removeStaleFolders();
  entries = new DeploymentEntries(engine);
}

/** Records that the resource of the call in progress holds the object in this deployment. */
export function hold(kind: ObjectKind, id: string): void {
  entries.record({ t: "hold", kind, id, by: resourceOfCall() ?? "" });
}

/**
 * Whether another resource of this deployment holds the object a delete is for. Then the delete says so (through
 * the engine), leaves it in place, and is recorded as left undone, with the object's `identity`.
 */
export function heldByAnotherResource(
  kind: ObjectKind,
  id: string,
  identity: string,
  say: (message: string) => void = (m) => void tellUser("info", m),
): boolean {
  const all = entries.all();
  const holders = holdersOf(all, kind, id);
  if (holders.length === 0) return false;
  // The resource's own object (its replacement deleting first, the engine naming the resource) is its to delete.
  const self = resourceOfCall();
  if (self !== undefined && holders.every((h) => h === self)) return false;
  entries.record({ t: "undone", kind, id, by: self ?? "", identity });
  say(
    `${kind} ${id} is not deleted: another resource of this stack holds it (one that adopted it after a move ` +
      "without `aliases`, or this resource under its new name, whose create follows)",
  );
  return true;
}

/**
 * The id of the object of `identity` whose delete this deployment left undone, where no resource but the one
 * creating holds it: that delete was this resource's own (a delete-first replacement the engine named by the old
 * URN, or did not name), and its create is to carry it out before it makes the object anew. Recorded as done.
 */
export function ownDeleteLeftUndone(
  kind: ObjectKind,
  identity: string,
  say: (message: string) => void = (m) => void tellUser("info", m),
): string | undefined {
  const all = entries.all();
  const undone = all.filter((e) => e.kind === kind && e.identity === identity && e.t === "undone").pop();
  if (!undone || all.some((e) => e.t === "done" && e.kind === kind && e.id === undone.id)) return undefined;
  const self = resourceOfCall() ?? "";
  if (!holdersOf(all, kind, undone.id).every((h) => h === self)) return undefined;
  entries.record({ t: "done", kind, id: undone.id, by: self, identity });
  say(`${kind} ${undone.id}, which the delete before this create left in place, is this resource's own: deleted now, and made anew`);
  return undone.id;
}

/**
 * The other resources of this deployment that hold the object, by name where the engine named them (`""` where it
 * did not, as under the dynamic provider plugin); empty when none does. A create that finds its object there was
 * beaten to it by another resource of the stack, not by something made outside the program.
 */
export function otherHolders(kind: ObjectKind, id: string): string[] {
  const self = resourceOfCall();
  return holdersOf(entries.all(), kind, id)
    .filter((h) => h === "" || h !== self)
    .map((h) => h.slice(h.lastIndexOf("::") + 2));
}

function holdersOf(all: Entry[], kind: ObjectKind, id: string): string[] {
  return [...new Set(all.filter((e) => e.t === "hold" && e.kind === kind && e.id === id).map((e) => e.by))];
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
 * ends its plugins. A process killed outright leaves its file, which the next command removes (removeStaleFolders).
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

/** The files of processes that ended (their commands are over), and folders left empty. */
function removeStaleFolders(): void {
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
