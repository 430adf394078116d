import type { Dispatcher } from "undici";
import { redact } from "../common/redact";
import { rateLimiterFor, type RateLimiter } from "./rateLimiter";
import { sharedDispatcher } from "./dispatcher";
import { undici } from "./undici";
import { serverMessages } from "./serverMessages";
import { shapeOf } from "./answerShape";
import { PEER_SPEAKS_HTTP } from "./connector";
import type { ErrorCode } from "../common/errors";
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
  hint?: (status: number, messages: string[], body: unknown) => string | undefined;
  /** The setting that holds the address, named where a failure means it is wrong (`https://` to a plain-HTTP port). */
  addressSetting?: string;
  /** Decides whether a failed attempt is tried again; none by default. */
  retry?: RetryPolicy;
  /** Aborts requests in flight and retry waits (the engine's Cancel); calls after it fail at once. */
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  /** Request body, sent as JSON with `contentType`. */
  json?: unknown;
  contentType?: string;
  /** Statuses above 299 that are returned to the caller instead of thrown (typically 404). */
  allowStatus?: number[];
  /**
   * Of the answers `allowStatus` names, those returned to the caller; the others fail as any status does (a 404
   * that is not the service's own "no such object", say). All of them by default.
   */
  allowAnswer?: (response: HttpResponse) => boolean;
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
export type AttemptOutcome = { kind: "response"; response: HttpResponse } | { kind: "error"; error: ServiceError; sent: boolean };

export interface RetryPolicy {
  /** Milliseconds to wait before attempt `attempt + 1`, or undefined to give up with this outcome. */
  delayBefore(attempt: number, outcome: AttemptOutcome, request: { method: HttpMethod; idempotent: boolean }): number | undefined;
  /**
   * The bound on the whole operation, when it has one: no attempt runs past `deadline` (epoch milliseconds),
   * whatever the per-request timeout says; `ms` is the bound's length and `name` what set it, for messages.
   */
  readonly bound?: { deadline: number; ms: number; name?: string };
}

export class HttpClient {
  private readonly dispatcher: Dispatcher;
  private readonly timeoutMs: number;
  private readonly limiter: RateLimiter;
  /** `https://host:port` and the path prefix (`/v1`), from the base address. */
  private readonly origin: string;
  private readonly basePath: string;

  constructor(private readonly options: HttpClientOptions) {
    this.dispatcher = options.dispatcher ?? sharedDispatcher(options.tls);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    ({ origin: this.origin, basePath: this.basePath } = baseOf(options.baseUrl));
    this.limiter = rateLimiterFor(this.origin, fingerprint(JSON.stringify(options.headers)));
  }

  get service(): string {
    return this.options.service;
  }

  /** The setting the address came from, as messages name it. */
  get addressSetting(): string {
    return this.options.addressSetting ?? "the service's address";
  }

  async request(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<HttpResponse> {
    const idempotent = opts.idempotent ?? method !== "POST";
    const policy = this.options.retry;
    const signal = this.options.signal;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw this.cancelled(method, path, opts, attempt - 1);
      const outcome = await this.attempt(method, path, opts);
      if (outcome.kind === "response" && isAccepted(outcome.response, opts)) return outcome.response;
      const delay = remainingMs(policy) > 0 ? policy?.delayBefore(attempt, outcome, { method, idempotent }) : undefined;
      if (delay === undefined) throw this.finalError(method, path, outcome, opts, idempotent, attempt);
      await sleep(delay, signal);
    }
  }

  /**
   * One try. Its timeout is the per-request timeout, cut short by what is left of the operation's bound, so
   * that a hung server fails the operation within its bound. The wait for the rate limit counts as well.
   */
  private async attempt(method: HttpMethod, path: string, opts: RequestOptions): Promise<AttemptOutcome> {
    const bound = this.options.retry?.bound;
    const boundReached = (when: string): AttemptOutcome => ({
      kind: "error",
      error: this.transportError(method, path, `operation time bound of ${boundText(bound!)} reached ${when}`, opts, "timeout"),
      sent: false,
    });
    if (remainingMs(this.options.retry) <= 0) return boundReached("before the request was sent");
    if (this.limiter.paced && !(await within(this.limiter.acquire(), remainingMs(this.options.retry)))) {
      return boundReached("waiting for the service's rate limit");
    }
    const timeoutMs = Math.max(1, Math.ceil(Math.min(this.timeoutMs, remainingMs(this.options.retry))));
    const cutShort = timeoutMs < this.timeoutMs;
    const headers: Record<string, string> = { ...this.options.headers };
    let body: string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] = opts.contentType ?? "application/json";
    }
    let sent = false;
    const abort = attemptSignal(timeoutMs, this.options.signal);
    try {
      const res = await undici().request(this.dispatcher, {
        origin: this.origin,
        path: this.pathAndQuery(path, opts.query),
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        // undici's own timeouts tick in coarse steps (up to a second late); the signal ends the attempt on time,
        // or at once on the engine's Cancel.
        signal: abort.signal,
      });
      sent = true;
      const limit = Number(firstHeader(res.headers["x-ratelimit-limit"]));
      if (limit > 0) this.limiter.learn(limit);
      const text = await res.body.text();
      return { kind: "response", response: { status: res.statusCode, headers: res.headers, body: parseBody(text) } };
    } catch (err) {
      // Once headers timed out or the connection dropped mid-response, the server may have acted on it.
      sent = sent || isAfterSend(err);
      if (this.options.signal?.aborted) return { kind: "error", error: this.cancelled(method, path, opts), sent };
      const timedOut = isTimeout(err);
      if (codeOf(err) === PEER_SPEAKS_HTTP) {
        const where = this.options.addressSetting ? ` (${this.options.addressSetting})` : "";
        return { kind: "error", error: this.transportError(method, path, `TLS handshake failed: ${messageOf(err)}${where}`, opts, "tls"), sent };
      }
      if (!timedOut) {
        const error = this.transportError(method, path, describeTransportError(err), opts, "network").with({ advice: this.unreachable(err) });
        return { kind: "error", error, sent };
      }
      const detail = cutShort
        ? `no response before the operation's time bound of ${boundText(bound!)}`
        : `no response within ${seconds(this.timeoutMs)}`;
      return { kind: "error", error: this.transportError(method, path, detail, opts, "timeout"), sent };
    } finally {
      abort.dispose();
    }
  }

  /**
   * The path (below the base address) and query of an absolute URL of this service, as a server gives them in
   * links; undefined for a URL elsewhere, which must not be sent the client's credentials.
   */
  pathOf(url: string | undefined): { path: string; query: Record<string, string> } | undefined {
    if (!url) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(url, this.origin);
    } catch {
      return undefined;
    }
    if (parsed.origin !== this.origin || !parsed.pathname.startsWith(`${this.basePath}/`)) return undefined;
    return { path: parsed.pathname.slice(this.basePath.length), query: Object.fromEntries(parsed.searchParams) };
  }

  private pathAndQuery(path: string, query?: RequestOptions["query"]): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.append(k, String(v));
    const qs = params.toString();
    return `${this.basePath}${path}${qs ? `?${qs}` : ""}`;
  }

  private secrets(opts: RequestOptions): string[] {
    return [...(this.options.secrets ?? []), ...(opts.secrets ?? [])];
  }

  private finalError(
    method: HttpMethod,
    path: string,
    outcome: AttemptOutcome,
    opts: RequestOptions,
    idempotent: boolean,
    attempts: number,
  ): ServiceError {
    if (outcome.kind === "error") return outcome.error.with({ attempts, ambiguous: outcome.sent && !idempotent });
    // A server or gateway failure on a request that is not safe to repeat says nothing of whether it was carried
    // out (a 503 from a proxy may come after the origin acted). 501 says the method is not supported at all.
    const status = outcome.response.status;
    return this.failure(method, path, outcome.response, opts, attempts, !idempotent && status >= 500 && status !== 501);
  }

  /**
   * The error of an answer: the server's messages and the client's advice, redacted of the token and the call's
   * secrets. Every failed status becomes an error here, those a caller was returned (`allowStatus`) included.
   */
  failure(method: HttpMethod, path: string, res: HttpResponse, opts: RequestOptions = {}, attempts = 1, ambiguous = false): ServiceError {
    const secrets = this.secrets(opts);
    const messages = serverMessages(res.body).map((m) => redact(m, secrets));
    const hint = this.options.hint?.(res.status, messages, res.body) ?? (res.status === 501 ? this.notImplemented(method) : undefined);
    // The advice may quote the answer: it is redacted as the server's messages are.
    return new ServiceError({
      service: this.service,
      method,
      path: redact(path, secrets),
      status: res.status,
      messages,
      advice: hint === undefined ? undefined : redact(hint, secrets),
      attempts,
      ambiguous,
    });
  }

  /** A 501: the server at the address does not serve the method, which the service does; the address is named. */
  private notImplemented(method: HttpMethod): string {
    return `the server at ${this.origin} does not implement ${method}, which the ${this.service} does: check ${this.addressSetting}`;
  }

  /** What a connection that could not be made says about the address, naming the setting it came from. */
  private unreachable(err: unknown): string | undefined {
    const setting = this.addressSetting;
    switch (transportCode(err)) {
      case "ECONNREFUSED":
        return `nothing accepts connections at ${this.origin}: check ${setting}, and that the service runs there`;
      case "ENOTFOUND":
      case "EAI_AGAIN":
        return `the host ${new URL(this.origin).hostname} is not found: check ${setting}`;
      case "EHOSTUNREACH":
      case "ENETUNREACH":
      case "ETIMEDOUT":
      case "UND_ERR_CONNECT_TIMEOUT":
        return `no connection to ${this.origin}: check ${setting}, and the network path to it`;
      default:
        // Failures on a connection made (a certificate refused, a reset) say what they are themselves.
        return undefined;
    }
  }

  /**
   * The error of a successful status whose body is not what the API answers there (`expected`): a proxy's sign-in
   * page, an empty 200 or 204, `{}`. It is never read as "gone" nor as the object's values, and names the address
   * setting. For a request that is not safe to repeat, whether it was carried out is unknown (`ambiguous`).
   */
  unexpectedAnswer(method: HttpMethod, path: string, res: HttpResponse, expected: string, opts: RequestOptions = {}): ServiceError {
    const secrets = this.secrets(opts);
    const where = `check ${this.addressSetting}: `;
    return new ServiceError({
      service: this.service,
      method,
      path: redact(path, secrets),
      status: res.status,
      code: "unexpected_answer",
      advice:
        `the answer is not ${expected}, but ${shapeOf(res.body)}: ${where}it may reach a proxy, a sign-in page or another ` +
        `service rather than the ${this.service}`,
      ambiguous: !(opts.idempotent ?? method !== "POST"),
    });
  }

  /** A call the engine cancelled, with the attempts it had made. */
  private cancelled(method: HttpMethod, path: string, opts: RequestOptions, attempts = 1): ServiceError {
    const error = this.transportError(method, path, "cancelled: the engine asked the provider to stop", opts, "cancelled");
    return attempts > 1 ? error.with({ attempts }) : error;
  }

  private transportError(method: HttpMethod, path: string, detail: string, opts: RequestOptions, code: ErrorCode = "network"): ServiceError {
    const secrets = this.secrets(opts);
    return new ServiceError({ service: this.service, method, path: redact(path, secrets), detail: redact(detail, secrets), code });
  }
}

/**
 * A short digest of the headers (the token among them) naming the rate limiter of a service and token. Every
 * operation builds a client with the same headers, so digests are remembered rather than hashed again.
 */
const digests = new Map<string, string>();

function fingerprint(headers: string): string {
  let digest = digests.get(headers);
  if (digest === undefined) {
    // Loaded here, not with the module: a preview never builds a client (node:crypto takes a few ms to load).
    const { createHash } = require("node:crypto") as typeof import("node:crypto");
    digests.set(headers, (digest = createHash("sha256").update(headers).digest("hex").slice(0, 16)));
  }
  return digest;
}

/** `https://host:port` and the path prefix of a base address, parsed once per address. */
const bases = new Map<string, { origin: string; basePath: string }>();

function baseOf(baseUrl: string): { origin: string; basePath: string } {
  let base = bases.get(baseUrl);
  if (!base) {
    const url = new URL(baseUrl);
    bases.set(baseUrl, (base = { origin: url.origin, basePath: url.pathname.replace(/\/+$/, "") }));
  }
  return base;
}

function isAccepted(response: HttpResponse, { allowStatus, allowAnswer }: RequestOptions): boolean {
  const { status } = response;
  if (status >= 200 && status < 300) return true;
  return (allowStatus?.includes(status) ?? false) && (allowAnswer?.(response) ?? true);
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
  return isTimeout(err) || err instanceof undici().SocketError || (err as { code?: string })?.code === "UND_ERR_SOCKET";
}

function codeOf(err: unknown): string | undefined {
  return (err as { code?: string } | undefined)?.code;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The system's or undici's code of a transport failure (`ECONNREFUSED`), on the error or its cause. */
function transportCode(err: unknown): string | undefined {
  return codeOf(err) ?? codeOf((err as { cause?: unknown } | undefined)?.cause);
}

function describeTransportError(err: unknown): string {
  if (err instanceof Error) {
    const code = transportCode(err);
    const cause = err.cause instanceof Error && err.cause.message !== err.message ? ` (${err.cause.message})` : "";
    return `${code ? `${code}: ` : ""}${err.message}${cause}`;
  }
  return String(err);
}

/**
 * The signal of one attempt: its timeout, and the engine's Cancel where there is one. Linked by a listener removed
 * once the attempt is over, so that the process-long Cancel signal does not gather one per request.
 */
function attemptSignal(timeoutMs: number, cancel: AbortSignal | undefined): { signal: AbortSignal; dispose(): void } {
  const timeout = AbortSignal.timeout(timeoutMs);
  if (!cancel) return { signal: timeout, dispose: () => undefined };
  const linked = new AbortController();
  const onTimeout = () => linked.abort(timeout.reason);
  const onCancel = () => linked.abort(cancel.reason);
  if (cancel.aborted) onCancel();
  timeout.addEventListener("abort", onTimeout, { once: true });
  cancel.addEventListener("abort", onCancel, { once: true });
  return {
    signal: linked.signal,
    dispose: () => {
      timeout.removeEventListener("abort", onTimeout);
      cancel.removeEventListener("abort", onCancel);
    },
  };
}

/** Waits `ms`, or less when `signal` aborts (the caller then sees it aborted). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** A bound as messages give it: its length, and what set it where that is not the provider's own setting. */
function boundText(bound: { ms: number; name?: string }): string {
  return bound.name ? `${seconds(bound.ms)} (${bound.name})` : seconds(bound.ms);
}

/** Milliseconds left of the operation's bound; Infinity without one. */
function remainingMs(policy: RetryPolicy | undefined): number {
  return policy?.bound ? policy.bound.deadline - Date.now() : Infinity;
}

/** Whether `promise` settles within `ms` (the timer does not keep the process alive once it has). */
async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  if (ms === Infinity) return promise.then(() => true);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
