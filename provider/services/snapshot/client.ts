import type { HttpClient } from "../../http/client";
import { serviceHttpClient } from "../httpClient";
import type { ClientTuning } from "../tuning";
import { SNAPSHOT_SERVICE, type SnapshotSettings } from "./settings";

/** The snapshot service's HTTP client: `X-Service-Token`, JSON, and advice on what its statuses mean. */
export function snapshotHttpClient(settings: SnapshotSettings, tuning?: ClientTuning): HttpClient {
  return serviceHttpClient(
    SNAPSHOT_SERVICE,
    settings,
    { headers: { "x-service-token": settings.token, accept: "application/json" }, hint: snapshotHint },
    tuning,
  );
}

/** What a failed status usually means for these endpoints. */
export function snapshotHint(status: number, messages: string[]): string | undefined {
  if (status === 403) return "the token needs the sudo capability on sys/storage/raft/snapshot-auto/*";
  if (status === 404 && messages.length > 0) return UNSERVED_HINT;
  return undefined;
}

export const UNSERVED_HINT =
  "the service does not serve the automated snapshot endpoints here: they need an enterprise license, and calls from the root namespace";
