import { Router, type EmulatorRequest, type EmulatorResponse } from "../core/router";
import type { Mount } from "../core/server";
import { serviceIntervalSeconds } from "./duration";
import { COMMON_WIRE_FIELDS, SERVICE_STORAGE_FIELDS } from "./schema";
import { emptyStatus, takeSnapshot, type SnapshotStatusWire, type StoredConfig } from "./snapshotter";

export interface SnapshotEmulatorOptions {
  /** Accepted tokens and whether each has the sudo capability. Default: one sudo token, `emulator-snapshot-token`. */
  tokens?: Record<string, { sudo?: boolean }>;
  /** Whether the service holds a license with automated snapshots. Default true. */
  licensed?: boolean;
  /** Whether read responses echo credential fields (the service may omit them). Default false. */
  echoCredentials?: boolean;
  /** Take snapshots on the interval. Default true; tests of the API alone may turn it off. */
  takeSnapshots?: boolean;
}

export const DEFAULT_SNAPSHOT_TOKEN = "emulator-snapshot-token";

interface Entry {
  config: StoredConfig;
  status: SnapshotStatusWire;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
}

const UNSUPPORTED = "1 error occurred:\n\t* unsupported path\n\n";
const ROOT = new Set(["", "/", "root", "root/"]);

/** The automated snapshot configuration API, as the spec gives it, mounted under `/v1`. */
export class SnapshotService {
  readonly configs = new Map<string, Entry>();
  private readonly tokens: Record<string, { sudo?: boolean }>;
  private readonly router = new Router();
  private closed = false;

  constructor(private readonly options: SnapshotEmulatorOptions = {}) {
    this.tokens = options.tokens ?? { [DEFAULT_SNAPSHOT_TOKEN]: { sudo: true } };
    const base = "/sys/storage/raft/snapshot-auto";
    this.router.add("POST", `${base}/config/:name`, (r) => this.guard(r, true, () => this.write(r)));
    this.router.add("PUT", `${base}/config/:name`, (r) => this.guard(r, true, () => this.write(r)));
    this.router.add("GET", `${base}/config/:name`, (r) => this.guard(r, true, () => this.read(r.params.name)));
    this.router.add("DELETE", `${base}/config/:name`, (r) => this.guard(r, true, () => this.remove(r.params.name)));
    this.router.add("LIST", `${base}/config`, (r) => this.guard(r, true, () => this.list()));
    this.router.add("GET", `${base}/config`, (r) =>
      this.guard(r, true, () => (r.query.get("list") === "true" ? this.list() : { status: 405, body: { errors: ["1 error occurred:\n\t* unsupported operation\n\n"] } })),
    );
    this.router.add("GET", `${base}/status/:name`, (r) => this.guard(r, false, () => this.status(r.params.name)));
  }

  mount(): Mount {
    return {
      prefix: "/v1",
      router: this.router,
      notFound: () => ({ status: 404, body: { errors: [UNSUPPORTED] } }),
      methodNotAllowed: () => ({ status: 405, body: { errors: ["1 error occurred:\n\t* unsupported operation\n\n"] } }),
    };
  }

  /** Stops every snapshot timer and waits for snapshots in progress. */
  async close(): Promise<void> {
    this.closed = true;
    for (const e of this.configs.values()) clearInterval(e.timer);
    await Promise.all([...this.configs.values()].map((e) => e.running));
  }

  /** Takes a snapshot of the named configuration now (tests, demo). */
  async snapshotNow(name: string): Promise<SnapshotStatusWire | undefined> {
    const entry = this.configs.get(name);
    if (!entry) return undefined;
    await this.run(entry);
    return entry.status;
  }

  private guard(req: EmulatorRequest, needsSudo: boolean, then: () => EmulatorResponse): EmulatorResponse {
    const namespace = header(req, "x-service-namespace");
    // Restricted endpoints: outside the root namespace the path does not exist, as on the real service.
    if (namespace !== undefined && !ROOT.has(namespace.trim())) {
      return { status: 404, body: { errors: [`${UNSUPPORTED.trimEnd()} (restricted to the root namespace; namespace "${namespace}")`] } };
    }
    const token = header(req, "x-service-token");
    const grant = token === undefined ? undefined : this.tokens[token];
    if (!grant) return { status: 403, body: { errors: ["permission denied"] } };
    if (needsSudo && !grant.sudo) return { status: 403, body: { errors: ["permission denied: this path requires the sudo capability"] } };
    if (this.options.licensed === false) {
      return { status: 404, body: { errors: [`${UNSUPPORTED.trimEnd()} (automated snapshots require an enterprise license)`] } };
    }
    return then();
  }

  private write(req: EmulatorRequest): EmulatorResponse {
    const body = req.body;
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      return badRequest(["request body must be a JSON object"]);
    }
    const result = validate(body as Record<string, unknown>);
    if ("errors" in result) return badRequest(result.errors);
    const name = req.params.name;
    const prior = this.configs.get(name);
    if (prior) clearInterval(prior.timer);
    const entry: Entry = { config: result.config, status: prior?.status ?? emptyStatus() };
    this.configs.set(name, entry);
    this.schedule(entry);
    return { status: 204 };
  }

  private read(name: string): EmulatorResponse {
    const entry = this.configs.get(name);
    if (!entry) return { status: 404, body: { errors: [] } };
    const data: Record<string, unknown> = {};
    const group = SERVICE_STORAGE_FIELDS[entry.config.storage_type];
    for (const [k, v] of Object.entries(entry.config)) {
      if (group[k]?.credential && !this.options.echoCredentials) continue;
      data[k] = v;
    }
    return { status: 200, body: { data } };
  }

  private list(): EmulatorResponse {
    const keys = [...this.configs.keys()].sort();
    return keys.length === 0 ? { status: 404, body: { errors: [] } } : { status: 200, body: { data: { keys } } };
  }

  private remove(name: string): EmulatorResponse {
    const entry = this.configs.get(name);
    if (!entry) return { status: 404, body: { errors: [] } };
    clearInterval(entry.timer);
    this.configs.delete(name);
    return { status: 204 };
  }

  private status(name: string): EmulatorResponse {
    const entry = this.configs.get(name);
    if (!entry) return { status: 404, body: { errors: [] } };
    return { status: 200, body: { data: { ...entry.status } } };
  }

  private schedule(entry: Entry): void {
    if (this.options.takeSnapshots === false || this.closed) return;
    entry.timer = setInterval(() => void this.run(entry), entry.config.interval * 1000);
    entry.timer.unref();
  }

  private async run(entry: Entry): Promise<void> {
    if (entry.running) return entry.running;
    const contents = JSON.stringify({ taken: new Date().toISOString(), configurations: [...this.configs.keys()] });
    entry.running = takeSnapshot(entry.config, contents, entry.status).finally(() => (entry.running = undefined));
    return entry.running;
  }
}

function header(req: EmulatorRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function badRequest(errors: string[]): EmulatorResponse {
  return { status: 400, body: { errors } };
}

/** The service's own validation of a POST body; messages in the service's style. */
function validate(body: Record<string, unknown>): { config: StoredConfig } | { errors: string[] } {
  const errors: string[] = [];
  const storageType = body.storage_type;
  const group = typeof storageType === "string" ? SERVICE_STORAGE_FIELDS[storageType] : undefined;
  if (storageType === undefined) errors.push("storage_type is required");
  else if (!group) errors.push(`storage_type must be one of ${Object.keys(SERVICE_STORAGE_FIELDS).join(", ")}`);
  const interval = serviceIntervalSeconds(body.interval);
  if (body.interval === undefined) errors.push("interval is required");
  else if (interval === undefined) errors.push(`invalid interval ${JSON.stringify(body.interval)}`);
  const pathPrefix = body.path_prefix;
  if (typeof pathPrefix !== "string" || pathPrefix === "") errors.push("path_prefix is required");
  const retain = body.retain === undefined ? 1 : toInt(body.retain);
  if (retain === undefined || retain < 1) errors.push("retain must be a positive integer");
  const filePrefix = body.file_prefix === undefined ? "service-snapshot" : body.file_prefix;
  if (typeof filePrefix !== "string" || filePrefix === "") errors.push("file_prefix must be a non-empty string");
  for (const key of Object.keys(body)) {
    if (!COMMON_WIRE_FIELDS.includes(key) && !(group && key in group)) errors.push(`unknown field ${key} for storage_type=${String(storageType)}`);
  }
  const config: Record<string, unknown> = {};
  if (group) {
    if ((storageType === "cloudB-blob" || storageType === "cloudC-gcs") && typeof pathPrefix === "string" && !pathPrefix.endsWith("/")) {
      errors.push(`path_prefix must end with "/" for storage_type=${storageType}`);
    }
    for (const [field, spec] of Object.entries(group)) {
      const value = body[field];
      if (value === undefined) {
        if (spec.required) errors.push(`${field} is required for storage_type=${storageType}`);
        continue;
      }
      const typed = spec.kind === "integer" ? toInt(value) : spec.kind === "boolean" ? toBool(value) : typeof value === "string" ? value : undefined;
      if (typed === undefined) errors.push(`${field} must be ${spec.kind === "integer" ? "an integer" : spec.kind === "boolean" ? "a boolean" : "a string"}`);
      else config[field] = typed;
    }
    if (storageType === "local" && typeof config.local_max_space === "number" && config.local_max_space <= 0) {
      errors.push("local_max_space must be greater than 0");
    }
    if (config.cloudA_s3_enable_kms === true && config.cloudA_s3_server_side_encryption === true) {
      errors.push("cloudA_s3_enable_kms cannot be combined with cloudA_s3_server_side_encryption");
    }
    if (config.cloudB_auth_mode !== undefined && !["shared", "managed"].includes(String(config.cloudB_auth_mode))) {
      errors.push("cloudB_auth_mode must be one of shared, managed");
    }
  }
  if (errors.length > 0) return { errors };
  return {
    config: { ...config, interval: interval!, retain: retain!, path_prefix: pathPrefix as string, file_prefix: filePrefix as string, storage_type: storageType as string },
  };
}

function toInt(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string" && /^-?\d+$/.test(v)) return Number(v);
  return undefined;
}

function toBool(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "false") return v === "true";
  return undefined;
}
