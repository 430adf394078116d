import type { HttpClient } from "../../http/client";
import { serviceHttpClient } from "../httpClient";
import type { ClientTuning } from "../tuning";
import { describeNotFound } from "./notFound";
import { SNAPSHOT_SERVICE, SNAPSHOT_SETTING_KEYS, type SnapshotSettings } from "./settings";

/** The snapshot service's HTTP client: `X-Service-Token`, JSON, and advice on what its statuses mean. */
export function snapshotHttpClient(settings: SnapshotSettings, tuning?: ClientTuning): HttpClient {
  return serviceHttpClient(
    SNAPSHOT_SERVICE,
    settings,
    { headers: { "x-service-token": settings.token, accept: "application/json" }, hint: snapshotHint },
    tuning,
  );
}

const TOKEN = SNAPSHOT_SETTING_KEYS.token.join(" / ");

/** What a failed status usually means for these endpoints. */
export function snapshotHint(status: number, _messages: string[], body: unknown): string | undefined {
  if (status === 401) return `the token is not valid: check ${TOKEN}`;
  if (status === 403) {
    return `the token (${TOKEN}) is not valid, or lacks the sudo capability on sys/storage/raft/snapshot-auto/* (the configuration endpoints need it)`;
  }
  if (status === 404) return describeNotFound(body);
  return undefined;
}
