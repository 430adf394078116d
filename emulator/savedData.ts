import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { RunTaskStore, Organization, Task, Workspace, WorkspaceTask } from "./runtask/store";
import type { HeldConfig, SnapshotStatusWire, StoredConfig } from "./snapshot/snapshotter";

/**
 * What the emulator holds, as JSON: the run task service's organizations, workspaces, tasks (HMAC keys included)
 * and associations, and the snapshot configurations with their status. Saved by a tool that runs the emulator for a
 * while and starts it again later (the demo's `--keep`), so that what a stack's state names is still there. Tokens
 * and options are not data: they come from the options again.
 */
export interface EmulatorData {
  version: 1;
  /** The port it listened on, which a later start tries first, so that addresses kept in a stack's config hold. */
  port?: number;
  runTask: { organizations: Organization[]; workspaces: Workspace[]; tasks: Task[]; workspaceTasks: WorkspaceTask[] };
  snapshot: { configs: { name: string; config: StoredConfig; status: SnapshotStatusWire }[] };
}

export function runTaskData(store: RunTaskStore): EmulatorData["runTask"] {
  return structuredClone({
    organizations: [...store.organizations.values()],
    workspaces: [...store.workspaces.values()],
    tasks: [...store.tasks.values()],
    workspaceTasks: [...store.workspaceTasks.values()],
  });
}

/** Replaces what the store holds (its seeds included) with `data`, in the order saved (the lists' order). */
export function restoreRunTask(store: RunTaskStore, data: EmulatorData["runTask"]): void {
  for (const map of [store.organizations, store.workspaces, store.tasks, store.workspaceTasks]) map.clear();
  for (const o of structuredClone(data.organizations)) store.organizations.set(o.name, o);
  for (const w of structuredClone(data.workspaces)) store.workspaces.set(w.id, w);
  for (const t of structuredClone(data.tasks)) store.tasks.set(t.id, t);
  for (const a of structuredClone(data.workspaceTasks)) store.workspaceTasks.set(a.id, a);
}

export function snapshotData(configs: Map<string, HeldConfig>): EmulatorData["snapshot"] {
  return structuredClone({ configs: [...configs].map(([name, held]) => ({ name, config: held.config, status: held.status })) });
}

/** Checks the shape of data read back (a file a user may have edited), naming what is wrong. */
export function readEmulatorData(value: unknown): EmulatorData {
  const data = value as Partial<EmulatorData> | null;
  const lists = (o: unknown, keys: string[]) =>
    o !== null && typeof o === "object" && keys.every((k) => Array.isArray((o as Record<string, unknown>)[k]));
  if (
    data === null ||
    typeof data !== "object" ||
    data.version !== 1 ||
    !lists(data.runTask, ["organizations", "workspaces", "tasks", "workspaceTasks"]) ||
    !lists(data.snapshot, ["configs"])
  ) {
    throw new Error("emulator data: not what the emulator saves (version 1, with runTask and snapshot lists)");
  }
  return data as EmulatorData;
}

/**
 * The file an emulator keeps its data in (`dataFile`): written only when the data changed, each time whole, as a
 * new file renamed over the old one, which readers (and a process killed at any moment) see either before or after,
 * never in between. Readable by its owner only: tasks carry their HMAC keys.
 */
export class DataFile {
  private written?: string;

  constructor(readonly path: string) {}

  /** What the file holds, where it exists. */
  read(): EmulatorData | undefined {
    if (!existsSync(this.path)) return undefined;
    this.written = readFileSync(this.path, "utf8");
    try {
      return readEmulatorData(JSON.parse(this.written));
    } catch (err) {
      throw new Error(`${this.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  write(data: EmulatorData): void {
    const text = `${JSON.stringify(data, null, 2)}\n`;
    if (text === this.written) return;
    const next = `${this.path}.${process.pid}.next`;
    writeFileSync(next, text, { mode: 0o600 });
    renameSync(next, this.path);
    this.written = text;
  }
}
