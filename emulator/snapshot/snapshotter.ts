import { mkdir, readdir, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** A stored configuration as the service holds it (interval already in seconds). */
export interface StoredConfig {
  interval: number;
  retain: number;
  path_prefix: string;
  file_prefix: string;
  storage_type: string;
  [field: string]: unknown;
}

export interface SnapshotStatusWire {
  snapshot_start: string;
  snapshot_url: string;
  last_snapshot_start: string;
  last_snapshot_end: string;
  last_snapshot_url: string;
  last_snapshot_error: string;
}

/** A configuration the service holds, with the status of its snapshots and its timer. */
export interface HeldConfig {
  config: StoredConfig;
  status: SnapshotStatusWire;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
}

/**
 * The longest delay a Node.js timer keeps (2^31 - 1 ms, 24.8 days): a longer one fires after 1 ms instead, so that a
 * 30-day interval would be snapshotted every millisecond. Longer intervals wait in steps of at most this.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Takes the snapshots of held configurations: on each one's interval when `onInterval` is true, or when asked
 * (`run`). One snapshot at a time per configuration; `contents` gives what a snapshot file holds.
 */
export class Snapshotter {
  private closed = false;

  constructor(
    private readonly onInterval: boolean,
    private readonly contents: () => string,
  ) {}

  /** Starts taking snapshots of `held` on its interval (replacing any earlier timer). */
  schedule(held: HeldConfig): void {
    this.unschedule(held);
    if (!this.onInterval || this.closed) return;
    this.waitUntil(held, Date.now() + held.config.interval * 1000);
  }

  unschedule(held: HeldConfig): void {
    clearTimeout(held.timer);
    held.timer = undefined;
  }

  /** Arms the timer of `held` for `due` (epoch ms), in steps a Node.js timer keeps; at `due`, a snapshot, then the next. */
  private waitUntil(held: HeldConfig, due: number): void {
    const left = due - Date.now();
    held.timer = setTimeout(
      () => {
        if (Date.now() < due) return this.waitUntil(held, due);
        void this.run(held);
        this.waitUntil(held, Date.now() + held.config.interval * 1000);
      },
      Math.min(Math.max(left, 0), MAX_TIMER_MS),
    );
    held.timer.unref();
  }

  /** Takes a snapshot now, or waits for the one in progress. */
  run(held: HeldConfig): Promise<void> {
    if (held.running) return held.running;
    held.running = takeSnapshot(held.config, this.contents(), held.status).finally(() => (held.running = undefined));
    return held.running;
  }

  /** Stops every timer and waits for snapshots in progress. */
  async close(all: Iterable<HeldConfig>): Promise<void> {
    this.closed = true;
    const held = [...all];
    for (const h of held) this.unschedule(h);
    await Promise.all(held.map((h) => h.running));
  }
}

export function emptyStatus(): SnapshotStatusWire {
  return { snapshot_start: "", snapshot_url: "", last_snapshot_start: "", last_snapshot_end: "", last_snapshot_url: "", last_snapshot_error: "" };
}

/** ISO 8601 with an explicit UTC offset, as the service formats timestamps. */
export function isoWithOffset(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, "+00:00")
    .replace(/Z$/, "+00:00");
}

let lastSuffix = 0;
/** A numeric suffix that increases even for snapshots taken in the same millisecond. */
function nextSuffix(): number {
  lastSuffix = Math.max(Date.now(), lastSuffix + 1);
  return lastSuffix;
}

/**
 * Takes one snapshot for a configuration. For `local` it writes `<path_prefix>/<file_prefix>-<n>.snap`, fails
 * when the allowance `local_max_space` would be exceeded, and deletes the oldest snapshots beyond `retain`.
 * Cloud destinations are simulated: the snapshot succeeds with a URL of the bucket's shape.
 */
export async function takeSnapshot(config: StoredConfig, contents: string, status: SnapshotStatusWire): Promise<void> {
  const start = new Date();
  const suffix = nextSuffix();
  const fileName = `${config.file_prefix}-${suffix}.snap`;
  status.snapshot_start = isoWithOffset(start);
  try {
    let url: string;
    if (config.storage_type === "local") url = await writeLocal(config, fileName, contents);
    else url = cloudUrl(config, fileName);
    status.snapshot_url = url;
    status.last_snapshot_url = url;
    status.last_snapshot_error = "";
  } catch (err) {
    status.snapshot_url = "";
    status.last_snapshot_error = err instanceof Error ? err.message : String(err);
  }
  status.last_snapshot_start = isoWithOffset(start);
  status.last_snapshot_end = isoWithOffset(new Date());
}

async function writeLocal(config: StoredConfig, fileName: string, contents: string): Promise<string> {
  const dir = config.path_prefix;
  await mkdir(dir, { recursive: true });
  const existing = await snapshotFiles(dir, config.file_prefix);
  const used = existing.reduce((n, f) => n + f.size, 0);
  const size = Buffer.byteLength(contents);
  const max = Number(config.local_max_space);
  if (used + size > max) {
    throw new Error(`insufficient space: snapshot of ${size} bytes exceeds local_max_space ${max} (in use ${used})`);
  }
  const path = join(dir, fileName);
  await writeFile(path, contents);
  const all = [...existing, { name: fileName, size, suffix: Number(fileName.slice(config.file_prefix.length + 1, -5)) }];
  all.sort((a, b) => a.suffix - b.suffix);
  for (const old of all.slice(0, Math.max(0, all.length - config.retain))) await unlink(join(dir, old.name)).catch(() => undefined);
  return pathToFileURL(path).href;
}

async function snapshotFiles(dir: string, prefix: string): Promise<{ name: string; size: number; suffix: number }[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-(\\d+)\\.snap$`);
  const out: { name: string; size: number; suffix: number }[] = [];
  for (const name of names) {
    const m = pattern.exec(name);
    if (!m) continue;
    const s = await stat(join(dir, name)).catch(() => undefined);
    if (s) out.push({ name, size: s.size, suffix: Number(m[1]) });
  }
  return out;
}

function cloudUrl(config: StoredConfig, fileName: string): string {
  const key = `${config.path_prefix}${config.path_prefix.endsWith("/") || config.path_prefix === "" ? "" : "/"}${fileName}`;
  switch (config.storage_type) {
    case "cloudA-s3":
      return `https://${config.cloudA_s3_bucket}.s3.${config.cloudA_s3_region}.cloudA.invalid/${key}`;
    case "cloudB-blob":
      return `https://${config.cloudB_account_name ?? "account"}.blob.cloudB.invalid/${config.cloudB_container_name}/${key}`;
    default:
      return `https://storage.cloudC.invalid/${config.cloudC_gcs_bucket}/${key}`;
  }
}
