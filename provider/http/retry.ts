import type { AttemptOutcome, HttpMethod } from "./attempt";
import type { RetryPolicy } from "./client";

/**
 * When to try a request again, by what its method allows, and how long to wait: exponential backoff with full
 * jitter unless the server says (`Retry-After`, `X-RateLimit-Reset`), within the operation's bound. The policy
 * and why it is not undici's `RetryHandler`: docs/design.md, "Retries".
 */
export interface RetrySettings {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Bound on the time spent in one operation, waits included. */
  budgetMs: number;
  /** How messages name the bound where it is not the provider's own (`customTimeouts.create`). */
  budgetName?: string;
}

export const DEFAULT_RETRY: Readonly<RetrySettings> = { maxRetries: 5, baseDelayMs: 250, maxDelayMs: 20_000, budgetMs: 5 * 60_000 };

const RETRIABLE_STATUS = (s: number) => s === 412 || s === 429 || (s >= 500 && s !== 501);
/** Statuses that say the request was not carried out, so that even a request unsafe to repeat may be sent again. */
const NOT_PROCESSED_STATUS = (s: number) => s === 412 || s === 429;

export interface RetryStats {
  retries: number;
  byReason: Record<string, number>;
}

export function newRetryStats(): RetryStats {
  return { retries: 0, byReason: {} };
}

/**
 * The policy of one operation: `settings` over the defaults, retries counted in `stats` when given (tests and
 * benchmarks read them).
 */
export function retryPolicy(
  { stats, ...settings }: Partial<RetrySettings> & { stats?: RetryStats } = {},
  random: () => number = Math.random,
  now: () => number = Date.now,
): RetryPolicy {
  const s = retrySettings(settings);
  const deadline = now() + s.budgetMs;
  return {
    bound: { deadline, ms: s.budgetMs, name: s.budgetName },
    delayBefore(attempt: number, outcome: AttemptOutcome, request: { method: HttpMethod; idempotent: boolean }): number | undefined {
      const reason = retryReason(outcome, request.idempotent);
      if (!reason) return undefined;
      // Rate limiting is the server pacing us, not a failure: it is waited out within the budget, uncounted.
      if (attempt > s.maxRetries && reason !== "429") return undefined;
      const told = outcome.kind === "response" ? serverDelayMs(outcome.response.headers, now) : undefined;
      const backoff = Math.min(s.maxDelayMs, s.baseDelayMs * 2 ** (attempt - 1));
      const delay = told !== undefined ? Math.min(told + random() * s.baseDelayMs, s.budgetMs) : random() * backoff;
      if (now() + delay > deadline) return undefined;
      if (stats) {
        stats.retries++;
        stats.byReason[reason] = (stats.byReason[reason] ?? 0) + 1;
      }
      return Math.round(delay);
    },
  };
}

/** `settings` over the defaults; unset (undefined) values take the default. */
export function retrySettings(...layers: Partial<RetrySettings>[]): RetrySettings {
  return layers.reduce<RetrySettings>((out, layer) => ({ ...out, ...setIn(layer) }), { ...DEFAULT_RETRY });
}

/** The settings a layer sets: an unset (undefined) value leaves the one below in place. */
function setIn(layer: Partial<RetrySettings>): Partial<RetrySettings> {
  return Object.fromEntries(Object.entries(layer).filter(([, v]) => v !== undefined));
}

function retryReason(outcome: AttemptOutcome, idempotent: boolean): string | undefined {
  if (outcome.kind === "response") {
    const status = outcome.response.status;
    if (!RETRIABLE_STATUS(status)) return undefined;
    if (!idempotent && !NOT_PROCESSED_STATUS(status)) return undefined;
    return String(status);
  }
  // A connection that cannot be made secure (TLS to a plain-HTTP port) will not become one by trying again, nor will
  // a proxy's refusal (its credentials, its policy, its certificate); a cancelled call is not to be tried again at all.
  if (outcome.error.code === "tls" || outcome.error.code === "proxy" || outcome.error.code === "cancelled") return undefined;
  if (idempotent) return "transport";
  return outcome.sent ? undefined : "transport";
}

/** Values above this (2001-09-09) are moments, not durations: no service asks for a 30-year wait. */
const EPOCH_SECONDS_THRESHOLD = 1e9;

/** Milliseconds the server asked to wait, from `Retry-After` or `X-RateLimit-Reset`. */
export function serverDelayMs(headers: Record<string, string | string[] | undefined>, now: () => number = Date.now): number | undefined {
  const first = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const retryAfter = first("retry-after");
  if (retryAfter !== undefined) {
    if (/^\s*\d+(\.\d+)?\s*$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now());
  }
  const reset = first("x-ratelimit-reset");
  if (reset !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(reset)) {
    const value = Number(reset);
    // Some services send the moment of the reset (epoch seconds) rather than the seconds until it.
    return value > EPOCH_SECONDS_THRESHOLD ? Math.max(0, value * 1000 - now()) : value * 1000;
  }
  return undefined;
}
