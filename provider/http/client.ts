import type { Dispatcher } from "undici";
import { createHash } from "node:crypto";
import { redact } from "../common/redact";
import { rateLimiterFor, type RateLimiter } from "./rateLimiter";
import { sharedDispatcher } from "./dispatcher";
import { undici } from "./undici";
import { serverMessages } from "./serverMessages";
import { ServiceError } from "./serviceError";
import type { TlsSettings } from "./tls";

/** The snapshot service lists with the HTTP method LIST; the run task service uses the usual ones. */
export type HttpMethod = "GET" | "LIST" | "POST" | "PATCH" | "PUT" | "DELETE";

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface HttpClientOptions {
  /** Name used in messages, e.g. "snapshot service". */
  service: string;
  /** Base address including the API prefix, e.g. `https://host:8200/v1`. */
  baseUrl: string;
  /** Headers sent on every request (authentication, accept). */
  headers: Record<string, string>;
  tls?: TlsSettings;
  /** Bound on one request, from sending to the end of the body. */
  timeoutMs?: number;
  /** Values that must never appear in anything this client reports (tokens). */
  secrets?: string[];
  /** Advice appended to the message of a failed status, e.g. which permission a 403 means is missing. */
  hint?: (status: number, messages: string[]) => string | undefined;
  /** Decides whether a failed attempt is tried again; none by default. */
  retry?: RetryPolicy;
  dispatcher?: Dispatcher;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  /** Request body, sent as JSON with `contentType`. */
  json?: unknown;
  contentType?: string;
  /** Statuses above 299 that are returned to the caller instead of thrown (typically 404). */
  allowStatus?: number[];
  /** Further values to redact from errors of this call (secret arguments in the body). */
  secrets?: string[];
  /** Whether repeating the request is safe; only idempotent requests are retried blindly. */
  idempotent?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** One attempt's outcome, as a retry policy sees it. */
export type AttemptOutcome =
  | { kind: "response"; response: HttpResponse }
  | { kind: "error"; error: ServiceError; sent: boolean };

export interface RetryPolicy {
  /** Milliseconds to wait before attempt `attempt + 1`, or undefined to give up with this outcome. */
  delayBefore(attempt: number, outcome: AttemptOutcome, request: { method: HttpMethod; idempotent: boolean }): number | undefined;
}

export class HttpClient {
  private readonly dispatcher: Dispatcher;
  private readonly timeoutMs: number;
  private readonly limiter: RateLimiter;

  constructor(private readonly options: HttpClientOptions) {
    this.dispatcher = options.dispatcher ?? sharedDispatcher(options.tls);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const identity = createHash("sha256").update(JSON.stringify(options.headers)).digest("hex").slice(0, 16);
    this.limiter = rateLimiterFor(new URL(options.baseUrl).origin, identity);
  }

  get service(): string {
    return this.options.service;
  }

  async request(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<HttpResponse> {
    const idempotent = opts.idempotent ?? method !== "POST";
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(method, path, opts);
      if (outcome.kind === "response" && isAccepted(outcome.response.status, opts.allowStatus)) return outcome.response;
      const delay = this.options.retry?.delayBefore(attempt, outcome, { method, idempotent });
      if (delay === undefined) throw this.finalError(method, path, outcome, opts, idempotent);
      await sleep(delay);
    }
  }

  private async attempt(method: HttpMethod, path: string, opts: RequestOptions): Promise<AttemptOutcome> {
    const url = this.url(path, opts.query);
    const headers: Record<string, string> = { ...this.options.headers };
    let body: string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] = opts.contentType ?? "application/json";
    }
    let sent = false;
    await this.limiter.acquire();
    try {
      const res = await undici().request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        dispatcher: this.dispatcher,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      sent = true;
      const limit = Number(firstHeader(res.headers["x-ratelimit-limit"]));
      if (limit > 0) this.limiter.learn(limit);
      const text = await res.body.text();
      return { kind: "response", response: { status: res.statusCode, headers: res.headers, body: parseBody(text) } };
    } catch (err) {
      // Once headers timed out or the connection dropped mid-response, the server may have acted on it.
      sent = sent || isAfterSend(err);
      return { kind: "error", error: this.transportError(method, path, err, opts), sent };
    }
  }

  private url(path: string, query?: RequestOptions["query"]): string {
    const base = this.options.baseUrl.replace(/\/+$/, "");
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.append(k, String(v));
    const qs = params.toString();
    return `${base}${path}${qs ? `?${qs}` : ""}`;
  }

  private secrets(opts: RequestOptions): string[] {
    return [...(this.options.secrets ?? []), ...(opts.secrets ?? [])];
  }

  private finalError(method: HttpMethod, path: string, outcome: AttemptOutcome, opts: RequestOptions, idempotent: boolean): ServiceError {
    if (outcome.kind === "error") {
      outcome.error.ambiguous = outcome.sent && !idempotent;
      return outcome.error;
    }
    const error = this.statusError(method, path, outcome.response, opts);
    // A gateway or server failure on a non-idempotent request says nothing of whether it was carried out.
    error.ambiguous = !idempotent && [500, 502, 504].includes(outcome.response.status);
    return error;
  }

  private statusError(method: HttpMethod, path: string, res: HttpResponse, opts: RequestOptions): ServiceError {
    const secrets = this.secrets(opts);
    const messages = serverMessages(res.body).map((m) => redact(m, secrets));
    const hint = this.options.hint?.(res.status, messages);
    return new ServiceError(this.service, method, redact(path, secrets), res.status, hint ? [...messages, hint] : messages);
  }

  private transportError(method: HttpMethod, path: string, err: unknown, opts: RequestOptions): ServiceError {
    const secrets = this.secrets(opts);
    return new ServiceError(this.service, method, redact(path, secrets), undefined, [], redact(describeTransportError(err, this.timeoutMs), secrets));
  }
}

function isAccepted(status: number, allow?: number[]): boolean {
  return (status >= 200 && status < 300) || (allow?.includes(status) ?? false);
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Timeouts and aborts, whichever layer reports them (undici's own errors, or the abort signal's reason). */
function isTimeout(err: unknown): boolean {
  // Checked by shape, not `instanceof`: the signal's DOMException may come from another realm.
  for (let e = err, depth = 0; typeof e === "object" && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { name, code } = e as { name?: string; code?: unknown };
    if (name === "TimeoutError" || name === "AbortError") return true;
    if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_ABORTED") return true;
  }
  return false;
}

/** Whether the request may have reached the server before the failure (anything but a failed connect). */
function isAfterSend(err: unknown): boolean {
  return isTimeout(err) || err instanceof undici().errors.SocketError || (err as { code?: string })?.code === "UND_ERR_SOCKET";
}

function describeTransportError(err: unknown, timeoutMs: number): string {
  if (isTimeout(err)) return `no response within ${timeoutMs / 1000}s`;
  if (err instanceof Error) {
    const code = (err as { code?: string }).code ?? (err.cause as { code?: string } | undefined)?.code;
    const cause = err.cause instanceof Error && err.cause.message !== err.message ? ` (${err.cause.message})` : "";
    return `${code ? `${code}: ` : ""}${err.message}${cause}`;
  }
  return String(err);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
