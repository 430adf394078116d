import type { Dispatcher } from "undici";
import type { ErrorCode } from "../common/errors";
import { redact } from "../common/redact";
import { shapeOf } from "./answerShape";
import { attempt, type AttemptOutcome, type HttpMethod, type HttpResponse } from "./attempt";
import { sharedDispatcher } from "./dispatcher";
import { rateLimiterFor, type RateLimiter } from "./rateLimiter";
import { serverMessages } from "./serverMessages";
import { ServiceError } from "./serviceError";
import { remainingMs, sleep, type OperationBound } from "./timing";
import type { ProxyRoute } from "./proxyRoute";
import type { TlsSettings } from "./tls";
import { UNNAMED_ADDRESS_SETTING } from "./transportErrors";

export type { AttemptOutcome, HttpMethod, HttpResponse };

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface HttpClientOptions {
  /** Name used in messages, e.g. "snapshot service". */
  service: string;
  /** Base address including the API prefix, e.g. `https://host:8200/v1`. */
  baseUrl: string;
  /** Headers sent on every request (authentication, accept). */
  headers: Record<string, string>;
  tls?: TlsSettings;
  /** The proxy to send through (see `proxyDispatcher`); none: direct. Its credentials are redacted as secrets are. */
  proxy?: ProxyRoute;
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

export interface RetryPolicy {
  /** Milliseconds to wait before attempt `attempt + 1`, or undefined to give up with this outcome. */
  delayBefore(attempt: number, outcome: AttemptOutcome, request: { method: HttpMethod; idempotent: boolean }): number | undefined;
  /** The bound on the whole operation, when it has one (see `OperationBound`). */
  readonly bound?: OperationBound;
}

export class HttpClient {
  private readonly dispatcher: Dispatcher;
  private readonly timeoutMs: number;
  private readonly limiter: RateLimiter;
  /** `https://host:port` and the path prefix (`/v1`), from the base address. */
  private readonly origin: string;
  private readonly basePath: string;

  constructor(private readonly options: HttpClientOptions) {
    this.dispatcher = options.dispatcher ?? sharedDispatcher(options.tls, options.proxy);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    ({ origin: this.origin, basePath: this.basePath } = baseOf(options.baseUrl));
    this.limiter = rateLimiterFor(this.origin, fingerprint(JSON.stringify(options.headers)));
  }

  get service(): string {
    return this.options.service;
  }

  /** The setting the address came from, as messages name it. */
  get addressSetting(): string {
    return this.options.addressSetting ?? UNNAMED_ADDRESS_SETTING;
  }

  /**
   * The answer to a request, tried again as the retry policy says (docs/design.md, "Retries"); a status it does
   * not accept, or a failure without an answer, is thrown as a `ServiceError` once the policy gives up.
   */
  async request(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<HttpResponse> {
    const idempotent = opts.idempotent ?? method !== "POST";
    const policy = this.options.retry;
    const signal = this.options.signal;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw this.cancelled(method, path, opts, attempt - 1);
      const outcome = await this.attempt(method, path, opts);
      if (outcome.kind === "response" && isAccepted(outcome.response, opts)) return outcome.response;
      const delay = remainingMs(policy?.bound) > 0 ? policy?.delayBefore(attempt, outcome, { method, idempotent }) : undefined;
      if (delay === undefined) throw this.finalError(method, path, outcome, opts, idempotent, attempt);
      await sleep(delay, signal);
    }
  }

  /**
   * Waits `ms` before the operation reads something again, unless that would end past its bound or the engine
   * cancelled the call: then false, at once, and nothing more should be sent.
   */
  async pause(ms: number): Promise<boolean> {
    if (this.options.signal?.aborted || ms >= remainingMs(this.options.retry?.bound)) return false;
    await sleep(ms, this.options.signal);
    return !this.options.signal?.aborted;
  }

  /** One try of the request (`attempt`, which states what keeps a create from being made twice). */
  private attempt(method: HttpMethod, path: string, opts: RequestOptions): Promise<AttemptOutcome> {
    const headers: Record<string, string> = { ...this.options.headers };
    let body: string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] = opts.contentType ?? "application/json";
    }
    return attempt({
      dispatcher: this.dispatcher,
      origin: this.origin,
      method,
      path: this.pathAndQuery(path, opts.query),
      headers,
      body,
      timeoutMs: this.timeoutMs,
      bound: this.options.retry?.bound,
      limiter: this.limiter,
      signal: this.options.signal,
      addressSetting: this.options.addressSetting,
      proxy: this.options.proxy,
      failed: (detail, code, advice) => {
        const error = this.transportError(method, path, detail, opts, code);
        return advice === undefined ? error : error.with({ advice });
      },
      cancelled: () => this.cancelled(method, path, opts),
    });
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
    return [...(this.options.secrets ?? []), ...(this.options.proxy?.secrets ?? []), ...(opts.secrets ?? [])];
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
    const hint =
      [
        this.options.hint?.(res.status, messages, res.body) ?? (res.status === 501 ? this.notImplemented(method) : undefined),
        messages.length === 0 ? this.proxyAnswered(method, res.status) : undefined,
      ]
        .filter((h) => h !== undefined)
        .join("; ") || undefined;
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

  /**
   * A failed status without the service's words, to a request a proxy forwarded itself (an `http://` address): the
   * answer may be the proxy's. Node-based proxies, for one, refuse the LIST method with a 400 before forwarding it;
   * inside a CONNECT tunnel (an `https://` address) the proxy never sees the method.
   */
  private proxyAnswered(method: HttpMethod, status: number): string | undefined {
    const proxy = this.options.proxy;
    if (!proxy || !this.origin.startsWith("http:")) return undefined;
    const at = `the proxy ${proxy.name} (from ${proxy.from})`;
    if (method === "LIST" && (status === 400 || status === 405 || status === 501)) {
      return (
        `${at} may not forward the LIST method: use the service's https:// address (a tunnel, whose requests the proxy ` +
        "does not read), or send it direct (NO_PROXY, or the service's proxy setting none)"
      );
    }
    if (status === 502 || status === 503 || status === 504) return `the answer may be ${at}'s: check that it reaches ${this.origin}`;
    return undefined;
  }

  /** A 501: the server at the address does not serve the method, which the service does; the address is named. */
  private notImplemented(method: HttpMethod): string {
    return `the server at ${this.origin} does not implement ${method}, which the ${this.service} does: check ${this.addressSetting}`;
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
