import type { HttpClient, HttpMethod, HttpResponse } from "../../http/client";
import { serverMessages } from "../../http/serverMessages";
import { ServiceError } from "../../http/serviceError";
import type { ClientTuning } from "../tuning";
import { snapshotHttpClient, UNSERVED_HINT } from "./client";
import type { SnapshotSettings } from "./settings";

/** A configuration as the service reads and writes it (snake_case wire names). */
export type SnapshotConfigWire = Record<string, unknown>;

const BASE = "/sys/storage/raft/snapshot-auto";

/**
 * The five endpoints of the automated snapshot API (spec: snapshot-auto-api.md, "Endpoints").
 *
 * The rule for a 404, decided by the shape of the answer and never by its wording: a 404 whose `errors` list is
 * empty means "no such configuration" (the service answers so for a missing configuration and an empty list);
 * a 404 that carries any message means the endpoints are not served there (no license, another namespace:
 * "unsupported path"), and is an error. Taking that for "gone" would drop every resource from state on refresh.
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
  async readConfig(name: string): Promise<SnapshotConfigWire | undefined> {
    const res = await this.http.request("GET", configPath(name), { allowStatus: [404] });
    return this.missing("GET", configPath(name), res) ? undefined : dataOf(res.body);
  }

  /** Names of every configuration; none when the service answers its empty 404. */
  async listConfigs(): Promise<string[]> {
    const res = await this.http.request("LIST", `${BASE}/config`, { allowStatus: [404] });
    if (this.missing("LIST", `${BASE}/config`, res)) return [];
    const keys = dataOf(res.body)?.keys;
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
  }

  /** Deletes the configuration; false when it did not exist. */
  async deleteConfig(name: string): Promise<boolean> {
    const res = await this.http.request("DELETE", configPath(name), { allowStatus: [404] });
    return !this.missing("DELETE", configPath(name), res);
  }

  /** The status of the named configuration, or undefined when there is none of that name. */
  async readStatus(name: string): Promise<Record<string, unknown> | undefined> {
    const path = `${BASE}/status/${encodeURIComponent(name)}`;
    const res = await this.http.request("GET", path, { allowStatus: [404] });
    return this.missing("GET", path, res) ? undefined : dataOf(res.body);
  }

  /** Whether the answer is the empty 404 of a missing configuration; a 404 with messages throws (see above). */
  private missing(method: HttpMethod, path: string, res: HttpResponse): boolean {
    if (res.status !== 404) return false;
    const messages = serverMessages(res.body);
    if (messages.length === 0) return true;
    throw new ServiceError({ service: this.http.service, method, path, status: 404, messages: [...messages, UNSERVED_HINT] });
  }
}

function configPath(name: string): string {
  return `${BASE}/config/${encodeURIComponent(name)}`;
}

function dataOf(body: unknown): Record<string, unknown> | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const data = (body as { data?: unknown }).data;
  return data !== null && typeof data === "object" ? (data as Record<string, unknown>) : undefined;
}
