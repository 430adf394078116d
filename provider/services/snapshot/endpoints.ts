import * as z from "zod";
import type { HttpClient, HttpMethod, HttpResponse } from "../../http/client";
import { serviceHttpClient } from "../httpClient";
import type { ClientTuning } from "../tuning";
import { NO_SUCH_CONFIGURATION, snapshotHint } from "./errors";
import { SNAPSHOT_SERVICE, type SnapshotSettings } from "./settings";

/** A configuration as the service reads and writes it (snake_case wire names). */
export type SnapshotConfigWire = Record<string, unknown>;

const BASE = "/sys/storage/raft/snapshot-auto";

/**
 * The five endpoints of the automated snapshot API (spec: snapshot-auto-api.md, "Endpoints").
 *
 * A 404 means "no such configuration" only in the service's own shape for it (`isNoSuchConfiguration`, errors.ts); any
 * other 404 fails as any other status does, through the client's one path for errors (redacted, with advice).
 */
export class SnapshotEndpoints {
  private readonly http: HttpClient;

  constructor(settings: SnapshotSettings, tuning?: ClientTuning) {
    // `X-Service-Token`, JSON, and advice on what the service's statuses mean.
    const headers = { "x-service-token": settings.token, accept: "application/json" };
    this.http = serviceHttpClient(SNAPSHOT_SERVICE, settings, { headers, hint: snapshotHint }, tuning);
  }

  /** Creates or replaces the named configuration (the service's POST is an upsert). */
  async writeConfig(name: string, body: SnapshotConfigWire, secrets: string[] = []): Promise<void> {
    await this.http.request("POST", configPath(name), { json: body, secrets, idempotent: true });
  }

  /** The configuration, or undefined when there is none of that name. */
  async readConfig(name: string, secrets: string[] = []): Promise<SnapshotConfigWire | undefined> {
    const path = configPath(name);
    const res = await this.http.request("GET", path, { ...NO_SUCH_CONFIGURATION, secrets });
    return res.status === 404 ? undefined : this.answerOf(CONFIG_ANSWER, "GET", path, res, { secrets }).data;
  }

  /** Names of every configuration; none when the service answers its empty 404. */
  async listConfigs(): Promise<string[]> {
    const res = await this.http.request("LIST", `${BASE}/config`, NO_SUCH_CONFIGURATION);
    return res.status === 404 ? [] : this.answerOf(LIST_ANSWER, "LIST", `${BASE}/config`, res).data.keys;
  }

  /** Deletes the configuration; false when it did not exist. */
  async deleteConfig(name: string, secrets: string[] = []): Promise<boolean> {
    const res = await this.http.request("DELETE", configPath(name), { ...NO_SUCH_CONFIGURATION, secrets });
    return res.status !== 404;
  }

  /** The status of the named configuration, or undefined when there is none of that name. */
  async readStatus(name: string): Promise<Record<string, unknown> | undefined> {
    const path = `${BASE}/status/${encodeURIComponent(name)}`;
    const res = await this.http.request("GET", path, NO_SUCH_CONFIGURATION);
    return res.status === 404 ? undefined : this.answerOf(STATUS_ANSWER, "GET", path, res).data;
  }

  /**
   * A read's body in the spec's shape. Any other (a 204, a proxy's page, `{}`, `{"data": null}`) is an error that
   * names the address setting: never "no such configuration", never a configuration's values.
   */
  private answerOf<T>(answer: Answer<T>, method: HttpMethod, path: string, res: HttpResponse, opts: { secrets?: string[] } = {}): T {
    const parsed = answer.schema.safeParse(res.body);
    if (parsed.success) return parsed.data;
    throw this.http.unexpectedAnswer(method, path, res, answer.says, opts);
  }
}

/** The shape of a read's answer, and how messages name it. */
interface Answer<T> {
  schema: z.ZodType<T>;
  says: string;
}

/** The spec's read shape: `data` with at least what every configuration has (the fields a write requires). */
const CONFIG_ANSWER = {
  schema: z.object({ data: z.looseObject({ storage_type: z.string(), path_prefix: z.string(), interval: z.union([z.number(), z.string()]) }) }),
  says: 'the service\'s configuration ({"data": {...}} with storage_type, path_prefix and interval)',
};
const LIST_ANSWER = { schema: z.object({ data: z.object({ keys: z.array(z.string()) }) }), says: 'the service\'s list ({"data": {"keys": [...]}})' };
const STATUS_ANSWER = { schema: z.object({ data: z.record(z.string(), z.unknown()) }), says: 'the service\'s status ({"data": {...}})' };

function configPath(name: string): string {
  return `${BASE}/config/${encodeURIComponent(name)}`;
}
