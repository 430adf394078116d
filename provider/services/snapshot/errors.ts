import type { HttpResponse } from "../../http/client";
import { SNAPSHOT_SETTING_KEYS } from "./settings";

/**
 * The snapshot service's errors: what its failed statuses mean, and its 404, which means "no such configuration"
 * only in the service's own shape for it.
 */

const TOKEN = SNAPSHOT_SETTING_KEYS.token.join(" / ");
const ADDRESS = SNAPSHOT_SETTING_KEYS.address.join(" / ");

/** What a failed status usually means for these endpoints: the advice the client adds to its error. */
export function snapshotHint(status: number, _messages: string[], body: unknown): string | undefined {
  if (status === 401) return `the token is not valid: check ${TOKEN}`;
  if (status === 403) {
    return `the token (${TOKEN}) is not valid, or lacks the sudo capability on sys/storage/raft/snapshot-auto/* (the configuration endpoints need it)`;
  }
  if (status === 404) return describeNotFound(body);
  return undefined;
}

/**
 * The service answers a name it does not hold with a 404 whose body is a JSON object with an empty `errors` list.
 * That exact shape, and nothing else, means "no such configuration": a 404 without a body, with `{}`, with
 * `errors: null` or `[""]`, or with messages comes from something else (an endpoint the service does not serve
 * there, a proxy, another mount), and taking it for "missing" would drop every configuration from the state on
 * refresh and let destroy "succeed" with the configurations still in place.
 */
export function isNoSuchConfiguration(body: unknown): boolean {
  return body !== null && typeof body === "object" && !Array.isArray(body) && Array.isArray((body as { errors?: unknown }).errors)
    ? (body as { errors: unknown[] }).errors.length === 0
    : false;
}

/** Request options that return a 404 to the caller only in the service's shape for a missing name. */
export const NO_SUCH_CONFIGURATION = { allowStatus: [404], allowAnswer: (res: HttpResponse) => isNoSuchConfiguration(res.body) };

const UNSERVED_HINT =
  "the service does not serve the automated snapshot endpoints here: they need an enterprise license, and calls from the root namespace";

/**
 * What answered a 404 that is not the service's "no such configuration", and what to check: the service's own
 * error list with messages is a path it does not serve here; anything else is something other than the service.
 * Said of any call, a function's too: what a resource's read or delete keeps is said by the resource.
 */
export function describeNotFound(body: unknown): string {
  if (serviceMessages(body)) return `${UNSERVED_HINT}; or ${ADDRESS} does not point at the service`;
  return (
    `the answer carried ${shapeOf(body)}, not the service's {"errors": []} for a missing configuration: ` +
    `check ${ADDRESS} (it may reach a proxy or another mount rather than the service)`
  );
}

/** Whether the body is the service's error object (`{"errors": [...]}`) with at least one message in it. */
function serviceMessages(body: unknown): boolean {
  const errors = body !== null && typeof body === "object" ? (body as { errors?: unknown }).errors : undefined;
  return Array.isArray(errors) && errors.some((e) => typeof e === "string" && e.trim() !== "");
}

function shapeOf(body: unknown): string {
  if (body === undefined) return "no body";
  // The client quotes a text answer (a line of it) as the server's message, before this.
  if (typeof body === "string") return "text";
  const text = JSON.stringify(body);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
