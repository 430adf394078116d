import type { HttpClient, HttpResponse } from "../../http/client";
import type { ClientTuning } from "../tuning";
import { snapshotHttpClient } from "./client";
import { isNoSuchConfiguration } from "./notFound";
import type { SnapshotSettings } from "./settings";

/** A configuration as the service reads and writes it (snake_case wire names). */
export type SnapshotConfigWire = Record<string, unknown>;

const BASE = "/sys/storage/raft/snapshot-auto";

/**
 * The five endpoints of the automated snapshot API (spec: snapshot-auto-api.md, "Endpoints").
 *
 * A 404 means "no such configuration" only in the service's own shape for it (`isNoSuchConfiguration`); any
 * other 404 fails as any other status does, through the client's one path for errors (redacted, with advice).
 */
export class SnapshotEndpoints {
  private readonly http: HttpClient;

  constructor(settings: SnapshotSettings, tuning?: ClientTuning) {
    this.http = snapshotHttpClient(settings, tuning);
  }

  /** Creates or replaces the named configuration (the service's POST is an upsert). */
  async writeConfig(name: string, body: SnapshotConfigWire, secrets: string[] = []): Promise<void> {
    await this.http.request("POST", configPath(name), { json: body, secrets, idempotent: true });
  }

  /** The configuration, or undefined when there is none of that name. */
  async readConfig(name: string, secrets: string[] = []): Promise<SnapshotConfigWire | undefined> {
    const res = await this.http.request("GET", configPath(name), { ...MISSING, secrets });
    return res.status === 404 ? undefined : dataOf(res.body);
  }

  /** Names of every configuration; none when the service answers its empty 404. */
  async listConfigs(): Promise<string[]> {
    const res = await this.http.request("LIST", `${BASE}/config`, MISSING);
    if (res.status === 404) return [];
    const keys = dataOf(res.body)?.keys;
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
  }

  /** Deletes the configuration; false when it did not exist. */
  async deleteConfig(name: string, secrets: string[] = []): Promise<boolean> {
    const res = await this.http.request("DELETE", configPath(name), { ...MISSING, secrets });
    return res.status !== 404;
  }

  /** The status of the named configuration, or undefined when there is none of that name. */
  async readStatus(name: string): Promise<Record<string, unknown> | undefined> {
    const res = await this.http.request("GET", `${BASE}/status/${encodeURIComponent(name)}`, MISSING);
    return res.status === 404 ? undefined : dataOf(res.body);
  }
}

/** A 404 returned to the caller only in the service's shape for a missing name. */
const MISSING = { allowStatus: [404], allowAnswer: (res: HttpResponse) => isNoSuchConfiguration(res.body) };

function configPath(name: string): string {
  return `${BASE}/config/${encodeURIComponent(name)}`;
}

function dataOf(body: unknown): Record<string, unknown> | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const data = (body as { data?: unknown }).data;
  return data !== null && typeof data === "object" ? (data as Record<string, unknown>) : undefined;
}
