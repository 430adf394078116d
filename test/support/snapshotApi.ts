import { request } from "undici";
import { DEFAULT_SNAPSHOT_TOKEN, startEmulator, type Emulator, type SnapshotEmulatorOptions } from "../../emulator";

export const SNAPSHOT_BASE = "/sys/storage/raft/snapshot-auto";

/** What the snapshot API answered: status and the parsed body (undefined when empty). */
export interface SnapshotAnswer {
  status: number;
  body: any;
}

export interface SnapshotCallOptions {
  /** `X-Service-Token`; `null` sends none. Default: the emulator's default token. */
  token?: string | null;
  /** `X-Service-Namespace`, when given. */
  namespace?: string;
  /** Raw text to send instead of JSON. */
  raw?: string;
  /** More request headers. */
  headers?: Record<string, string>;
}

/** A client for the emulator's `/v1` over real HTTP, LIST included. */
export class SnapshotApi {
  constructor(readonly emulator: Emulator) {}

  /** Starts an emulator that takes no snapshots on its own unless `takeSnapshots` is given. */
  static async start(options: SnapshotEmulatorOptions = {}): Promise<SnapshotApi> {
    return new SnapshotApi(await startEmulator({ snapshot: { takeSnapshots: false, ...options } }));
  }

  close(): Promise<void> {
    return this.emulator.close();
  }

  /** `path` is relative to `/v1/sys/storage/raft/snapshot-auto`. */
  async call(method: string, path: string, body?: unknown, options: SnapshotCallOptions = {}): Promise<SnapshotAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? DEFAULT_SNAPSHOT_TOKEN : options.token;
    if (token !== null) headers["x-service-token"] = token;
    if (options.namespace !== undefined) headers["x-service-namespace"] = options.namespace;
    const text = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    if (text !== undefined) headers["content-type"] = "application/json";
    const res = await request(`${this.emulator.url}/v1${SNAPSHOT_BASE}${path}`, { method: method as "GET", headers, body: text });
    const answer = await res.body.text();
    return { status: res.statusCode, body: answer ? JSON.parse(answer) : undefined };
  }

  /** Writes a configuration; fails the test unless the answer is 204. */
  async write(name: string, config: Record<string, unknown>): Promise<void> {
    const r = await this.call("POST", `/config/${name}`, config);
    if (r.status !== 204) throw new Error(`write ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** A valid `local` configuration body. */
export const localConfig = (extra: Record<string, unknown> = {}) => ({
  interval: 3600,
  path_prefix: "/tmp/snapshots",
  storage_type: "local",
  local_max_space: 1_000_000,
  ...extra,
});

export const NO_ENTRY = { errors: [] };
