import type { EmulatorRequest, EmulatorResponse } from "./router";
import type { Interceptor, Verdict } from "./server";
import { SPEC_NAMES } from "../snapshot/names";
import { VENDOR_NAMES } from "../snapshot/vendorNames";

/**
 * Faults the emulator injects, as real services and networks produce them. Every decision comes from a seeded
 * generator, so a run with the same seed and the same request order injects the same faults.
 *
 * Routes are named `METHOD /prefix/template`, e.g. `POST /api/v2/organizations/:org/tasks` or
 * `LIST /v1/sys/storage/raft/snapshot-auto/config`.
 */
export interface FaultOptions {
  /** Seed of the generator. Default 1. */
  seed?: number;
  /** Probability, per request, of each kind of fault (their sum at most 1). */
  rates?: Partial<Record<FaultKind, number>>;
  /** Routes `rates` apply to. Default: every route. */
  routes?: RegExp;
  /** Rates per route: the first rule whose `route` matches (a pattern, or a route name exactly) replaces `rates`. */
  rules?: FaultRule[];
  /** Latency added to every request: fixed, or uniform in [min, max] milliseconds. */
  latencyMs?: number | { min: number; max: number };
  /**
   * Latency added to every answer, in milliseconds, once the request is carried out (and the data file written): a
   * client that gives up or is killed meanwhile has had its request done, as on a slow network's way back.
   */
  answerLatencyMs?: number;
  /**
   * How an injected 429 says when to come back: `"reset"` (`X-RateLimit-Reset`, fractional seconds),
   * `"seconds"` (`Retry-After` in whole seconds), `"date"` (`Retry-After` as an HTTP date), `"both"`
   * (`Retry-After` and `X-RateLimit-Reset`), or `"mixed"`, the default: one of those, picked by the generator.
   */
  retryAfter?: RetryAfterStyle | "mixed";
  /** Requests per second allowed per token on the routes of `rateLimitRoutes`; above it, 429. Off by default. */
  rateLimitPerSecond?: number;
  /** Default: the run task API (`/api/v2`), whose real service limits each user to 30 requests per second. */
  rateLimitRoutes?: RegExp;
}

export interface FaultRule {
  route: RegExp | string;
  rates: Partial<Record<FaultKind, number>>;
  /**
   * How many requests of the route the rule applies to, the first ones; the rest pass untouched (and, the rule
   * spent, no later rule or `rates` applies to the route either). Default: every request.
   */
  times?: number;
}

/**
 * - `rateLimited`: 429 with the headers of `retryAfter`;
 * - `serverError`: 500, 502 or 503, before the handler runs;
 * - `dropBeforeCommit`: the connection is closed once the request is read, before the handler runs;
 * - `dropAfterCommit`: the handler runs (the change is made), then the connection is closed without an answer;
 * - `resetAfterCommit`: the handler runs (the change is made), then the connection is reset (TCP RST), as a
 *   crashed server or a proxy that gives up does: clients see a system `ECONNRESET`, not a close.
 */
export type FaultKind = "rateLimited" | "serverError" | "dropBeforeCommit" | "dropAfterCommit" | "resetAfterCommit";
export type RetryAfterStyle = "reset" | "seconds" | "date" | "both";

const KINDS: FaultKind[] = ["rateLimited", "serverError", "dropBeforeCommit", "dropAfterCommit", "resetAfterCommit"];
const STYLES: RetryAfterStyle[] = ["reset", "seconds", "date", "both"];
const SERVER_ERRORS = [500, 502, 503];

/** mulberry32: small, fast, and good enough to pick faults reproducibly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  /**
   * Faults injected so far, by kind; `rateLimit` counts 429s of the per-token limit, `delayed` the requests and
   * answers given added latency.
   */
  readonly counts: Record<FaultKind | "rateLimit" | "delayed", number> = {
    rateLimited: 0,
    serverError: 0,
    dropBeforeCommit: 0,
    dropAfterCommit: 0,
    resetAfterCommit: 0,
    rateLimit: 0,
    delayed: 0,
  };
  /** Finer counts: `serverError 502`, `rateLimited date`, ... */
  readonly variants: Record<string, number> = {};
  private readonly random: () => number;
  private readonly windows = new Map<string, number[]>();
  /** Requests each rule with `times` has applied to so far. */
  private readonly applied = new Map<FaultRule, number>();

  constructor(private readonly options: FaultOptions) {
    for (const rates of [options.rates, ...(options.rules ?? []).map((r) => r.rates)]) {
      const sum = Object.values(rates ?? {}).reduce((a, b) => a + (b ?? 0), 0);
      if (sum > 1 + 1e-9) throw new Error(`fault rates add up to ${sum}, more than 1`);
    }
    this.random = seededRandom(options.seed ?? 1);
  }

  readonly interceptor: Interceptor = async (req, routeKey) => {
    const key = `${req.method} ${routeKey}`;
    const latency = this.latency();
    if (latency > 0) {
      this.counts.delayed++;
      await new Promise((r) => setTimeout(r, latency));
    }
    const limited = this.rateLimit(req, key);
    if (limited) return limited;
    const rates = this.ratesFor(key);
    if (!rates) return undefined;
    let roll = this.random();
    for (const kind of KINDS) {
      const rate = rates[kind] ?? 0;
      if (roll < rate) {
        this.counts[kind]++;
        return this.fault(kind, key);
      }
      roll -= rate;
    }
    return undefined;
  };

  /** Waits `answerLatencyMs` (the server runs it after the handler, before the answer leaves). */
  async holdAnswer(): Promise<void> {
    const ms = this.options.answerLatencyMs ?? 0;
    if (ms <= 0) return;
    this.counts.delayed++;
    await new Promise((r) => setTimeout(r, ms));
  }

  private ratesFor(key: string): Partial<Record<FaultKind, number>> | undefined {
    const rule = this.options.rules?.find((r) => (typeof r.route === "string" ? r.route === key : r.route.test(key)));
    if (rule?.times !== undefined) {
      const applied = this.applied.get(rule) ?? 0;
      if (applied >= rule.times) return undefined;
      this.applied.set(rule, applied + 1);
    }
    if (rule) return rule.rates;
    if (this.options.routes && !this.options.routes.test(key)) return undefined;
    return this.options.rates;
  }

  private latency(): number {
    const l = this.options.latencyMs;
    if (l === undefined) return 0;
    return typeof l === "number" ? l : l.min + this.random() * (l.max - l.min);
  }

  private fault(kind: FaultKind, key: string): Verdict {
    switch (kind) {
      case "rateLimited": {
        const chosen = this.options.retryAfter ?? "mixed";
        const style = chosen === "mixed" ? STYLES[Math.floor(this.random() * STYLES.length)] : chosen;
        this.variants[`rateLimited ${style}`] = (this.variants[`rateLimited ${style}`] ?? 0) + 1;
        const limit = this.isRateLimited(key) ? this.options.rateLimitPerSecond : undefined;
        return tooManyRequests(key, 0.05 + this.random() * 0.15, style, limit);
      }
      case "serverError": {
        const status = SERVER_ERRORS[Math.floor(this.random() * SERVER_ERRORS.length)];
        this.variants[`serverError ${status}`] = (this.variants[`serverError ${status}`] ?? 0) + 1;
        return { status, body: errorBody(key, status, "injected server error") };
      }
      case "dropBeforeCommit":
        return "drop";
      case "dropAfterCommit":
        return "dropAfter";
      case "resetAfterCommit":
        return "resetAfter";
    }
  }

  private isRateLimited(key: string): boolean {
    return !!this.options.rateLimitPerSecond && (this.options.rateLimitRoutes ?? /^\w+ \/api\/v2\//).test(key);
  }

  /** A sliding one-second window per token, as the run task service limits its users. */
  private rateLimit(req: EmulatorRequest, key: string): EmulatorResponse | undefined {
    if (!this.isRateLimited(key)) return undefined;
    const limit = this.options.rateLimitPerSecond!;
    const token = tokenOf(req);
    const now = Date.now();
    const window = (this.windows.get(token) ?? []).filter((t) => t > now - 1000);
    if (window.length >= limit) {
      this.windows.set(token, window);
      this.counts.rateLimit++;
      return tooManyRequests(key, (window[0] + 1000 - now) / 1000, "reset", limit);
    }
    window.push(now);
    this.windows.set(token, window);
    return undefined;
  }
}

/** The caller's token, whichever header carries it; requests without one share a window. */
function tokenOf(req: EmulatorRequest): string {
  const authorization = req.headers.authorization;
  if (typeof authorization === "string") return authorization.replace(/^Bearer\s+/i, "");
  const serviceToken = req.headers[SPEC_NAMES.tokenHeader] ?? req.headers[VENDOR_NAMES.tokenHeader];
  return typeof serviceToken === "string" ? serviceToken : "";
}

/** A 429 saying when to come back in the given style; with the advertised limit where one applies. */
function tooManyRequests(key: string, resetSeconds: number, style: RetryAfterStyle, limit?: number): EmulatorResponse {
  const headers: Record<string, string> = {};
  if (limit !== undefined) {
    headers["x-ratelimit-limit"] = String(limit);
    headers["x-ratelimit-remaining"] = "0";
  }
  if (style === "reset" || style === "both") headers["x-ratelimit-reset"] = resetSeconds.toFixed(3);
  if (style === "seconds" || style === "both") headers["retry-after"] = String(Math.ceil(resetSeconds));
  // An HTTP date has whole seconds: the next whole second at least `resetSeconds` away.
  if (style === "date") headers["retry-after"] = new Date(Math.ceil((Date.now() + resetSeconds * 1000) / 1000) * 1000).toUTCString();
  const detail =
    limit !== undefined ? `You have exceeded the API's rate limit of ${limit} requests per second.` : "You have exceeded the API's rate limit.";
  return { status: 429, headers, body: errorBody(key, 429, detail) };
}

/** Each API's own error shape: JSON:API objects for the run task service, strings for the snapshot service. */
function errorBody(key: string, status: number, detail: string): unknown {
  if (key.includes(" /api/v2/"))
    return { errors: [{ status: String(status), title: status === 429 ? "Too many requests" : "internal error", detail }] };
  return { errors: [detail] };
}
