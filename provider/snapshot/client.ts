import { retryPolicy } from "../http/retry";
import { HttpClient, type HttpMethod, type HttpResponse } from "../http/client";
import { serverMessages } from "../http/serverMessages";
import { ServiceError } from "../http/serviceError";
import { assertRootNamespace, type SnapshotSettings } from "./settings";
import type { SnapshotConfigWire } from "./types";

const BASE = "/sys/storage/raft/snapshot-auto";

/**
 * The five endpoints of the automated snapshot API. Reads answer `undefined` for a 404 (the service answers
 * 404 with `{"errors": []}` for a missing configuration and for an empty list).
 */
export class SnapshotClient {
  private readonly http: HttpClient;

  constructor(settings: SnapshotSettings) {
    assertRootNamespace(settings.namespace);
    this.http = new HttpClient({
      service: "snapshot service",
      baseUrl: `${settings.address.replace(/\/+$/, "")}/v1`,
      headers: { "x-service-token": settings.token, accept: "application/json" },
      tls: settings.tls,
      timeoutMs: settings.timeoutMs,
      secrets: [settings.token],
      // One policy per client, and one client per operation: the retry budget bounds the operation.
      retry: retryPolicy({ maxRetries: settings.maxRetries, budgetMs: settings.operationTimeoutMs }),
      hint: snapshotHint,
    });
  }

  /** Creates or replaces the named configuration (the service's POST is an upsert). */
  async writeConfig(name: string, body: SnapshotConfigWire, secrets: string[] = []): Promise<void> {
    await this.http.request("POST", configPath(name), { json: body, secrets, idempotent: true });
  }

  async readConfig(name: string): Promise<SnapshotConfigWire | undefined> {
    const res = await this.http.request("GET", configPath(name), { allowStatus: [404] });
    return this.absent("GET", configPath(name), res) ? undefined : dataOf(res.body);
  }

  async listConfigs(): Promise<string[]> {
    const res = await this.http.request("LIST", `${BASE}/config`, { allowStatus: [404] });
    if (this.absent("LIST", `${BASE}/config`, res)) return [];
    const keys = dataOf(res.body)?.keys;
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
  }

  /** Deletes the configuration; false when it did not exist. */
  async deleteConfig(name: string): Promise<boolean> {
    const res = await this.http.request("DELETE", configPath(name), { allowStatus: [404] });
    return !this.absent("DELETE", configPath(name), res);
  }

  async readStatus(name: string): Promise<Record<string, unknown> | undefined> {
    const path = `${BASE}/status/${encodeURIComponent(name)}`;
    const res = await this.http.request("GET", path, { allowStatus: [404] });
    return this.absent("GET", path, res) ? undefined : dataOf(res.body);
  }

  /**
   * A 404 with an empty error list means "no such configuration". A 404 with messages ("unsupported path")
   * means the endpoint itself is not served: treating that as "gone" would drop every resource from state on
   * refresh, so it is an error.
   */
  private absent(method: HttpMethod, path: string, res: HttpResponse): boolean {
    if (res.status !== 404) return false;
    const messages = serverMessages(res.body);
    if (messages.length === 0) return true;
    throw new ServiceError(this.http.service, method, path, 404, [...messages, snapshotHint(404, messages)!]);
  }
}

/** What a failed status usually means for these endpoints. */
export function snapshotHint(status: number, messages: string[]): string | undefined {
  if (status === 403) return "the token needs the sudo capability on sys/storage/raft/snapshot-auto/*";
  if (status === 404 && messages.length > 0) {
    return "the service does not serve the automated snapshot endpoints here: they need an enterprise license, and calls from the root namespace";
  }
  return undefined;
}

function configPath(name: string): string {
  return `${BASE}/config/${encodeURIComponent(name)}`;
}

function dataOf(body: unknown): Record<string, unknown> | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const data = (body as { data?: unknown }).data;
  return data !== null && typeof data === "object" ? (data as Record<string, unknown>) : undefined;
}
