/**
 * An in-process emulator of both services, for tests, the demo, benchmarks and offline pipelines. It listens on
 * loopback only. `pulumi-snapshot-runtask/emulator` exports `startEmulator`.
 *
 * The emulator is an independent reading of the two specs, not a mirror of the provider: it keeps its own field
 * lists, rules and messages (`runtask/validation.ts`, `snapshot/schema.ts`, `snapshot/validation.ts`) on purpose
 * and imports nothing from `provider/`, so that a misreading of the spec in one is caught by the other. Where a
 * spec allows several shapes, the default is the spec's own shape and the others are options.
 */
import { FaultInjector, type FaultKind, type FaultOptions, type FaultRule, type RetryAfterStyle } from "./core/faults";
import { startHttpServer, type Interceptor } from "./core/server";
import type { RequestLog } from "./core/requestLog";
import { DEFAULT_ORGANIZATION, DEFAULT_RUNTASK_TOKEN, RunTaskService, type RunTaskEmulatorOptions } from "./runtask/service";
import { DataFile, readEmulatorData, restoreRunTask, runTaskData, snapshotData, type EmulatorData } from "./savedData";
import { DEFAULT_SNAPSHOT_TOKEN, SnapshotService, type SnapshotEmulatorOptions } from "./snapshot/service";

export interface EmulatorOptions {
  /** Loopback address to bind. Default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (a free port). */
  port?: number;
  snapshot?: SnapshotEmulatorOptions;
  runTask?: RunTaskEmulatorOptions;
  /**
   * Both services answer as their spec's letter says where the real services answer otherwise: the run task
   * service's associate 204 with no body and 404 for an unknown token, the snapshot service's POST and LIST only (see
   * each service's `letterOfSpec`, which, where given, wins). Default false: as the real services answer, which their
   * vendors' clients (go-tfe, Vault's Go client) need.
   */
  letterOfSpec?: boolean;
  /**
   * Faults to inject, reproducibly from a seed: latency (of requests, or of answers once carried out), 429s (with `Retry-After` and/or `X-RateLimit-Reset`),
   * 500/502/503, connections dropped before or after the change is made or reset after it, per-route rates (for
   * the first requests of a route only, if asked), and a per-token rate limit. None by default.
   */
  faults?: FaultOptions;
  /** Further hooks run before each matched route. */
  interceptors?: Interceptor[];
  /**
   * What to hold from the start, as `save()` gave it, in place of the seeds; its port is tried first where `port`
   * is not given (a free one if it is taken).
   */
  data?: EmulatorData;
  /**
   * A file that keeps what the emulator holds, as `save()` gives it: read at start where it exists and `data` is not
   * given, then written through: after every request that changed anything, before the answer leaves, and at
   * close. Each write replaces the file whole (a new file renamed over it), so that whenever the process stops,
   * killed included, the file holds every change a client was told of, and is never half written: it is never behind
   * the records a client kept from the answers (a stack's state, which the demo's `--keep` keeps beside it).
   */
  dataFile?: string;
}

export interface Emulator {
  /** Base address, e.g. `http://127.0.0.1:41234`; both services answer on it (`/v1`, `/api/v2`). */
  url: string;
  port: number;
  snapshot: SnapshotService;
  runTask: RunTaskService;
  /** Requests served, by route. */
  requests: RequestLog;
  /** The fault injector, with counts of what it injected (present when `faults` was given). */
  faults?: FaultInjector;
  /** What it holds now, as JSON, for `data` of a later start. */
  save(): EmulatorData;
  close(): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK.test(host)) throw new Error(`the emulator listens on loopback only, not on "${host}"`);
  const letter = options.letterOfSpec === undefined ? {} : { letterOfSpec: options.letterOfSpec };
  const snapshot = new SnapshotService({ ...letter, ...options.snapshot });
  const runTask = new RunTaskService({ ...letter, ...options.runTask });
  const faults = options.faults ? new FaultInjector(options.faults) : undefined;
  const interceptors = [...(faults ? [faults.interceptor] : []), ...(options.interceptors ?? [])];
  const kept = options.dataFile ? new DataFile(options.dataFile) : undefined;
  const initial = options.data ?? kept?.read();
  if (initial) {
    const data = readEmulatorData(initial);
    restoreRunTask(runTask.store, data.runTask);
    snapshot.restore(data.snapshot.configs);
  }
  const save = (): EmulatorData => ({ version: 1, port: server.port, runTask: runTaskData(runTask.store), snapshot: snapshotData(snapshot.configs) });
  const beforeAnswer = async () => {
    kept?.write(save());
    await faults?.holdAnswer();
  };
  const mounts = [snapshot.mount(), runTask.mount()];
  const listen = (port?: number) => startHttpServer(mounts, { host, port, interceptors, beforeAnswer });
  const savedPort = options.port === undefined ? initial?.port : undefined;
  const server = savedPort
    ? await listen(savedPort).catch((err: NodeJS.ErrnoException) => (err.code === "EADDRINUSE" ? listen(0) : Promise.reject(err)))
    : await listen(options.port);
  return {
    url: server.url,
    port: server.port,
    snapshot,
    runTask,
    requests: server.log,
    faults,
    save,
    async close() {
      await server.close();
      await Promise.all([snapshot.close(), runTask.close()]);
      kept?.write(save());
    },
  };
}

export { DEFAULT_SNAPSHOT_TOKEN, DEFAULT_RUNTASK_TOKEN, DEFAULT_ORGANIZATION };
export type { EmulatorData };
export type { SnapshotEmulatorOptions, RunTaskEmulatorOptions, Interceptor, FaultOptions, FaultRule, FaultKind, RetryAfterStyle, FaultInjector };
export type { TokenGrant, OrganizationGrant } from "./runtask/access";
export type { OrganizationSeed } from "./runtask/store";
export type { Task as EmulatorTask, WorkspaceTask as EmulatorWorkspaceTask, Workspace as EmulatorWorkspace } from "./runtask/store";
