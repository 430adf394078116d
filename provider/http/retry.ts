import type { AttemptOutcome, HttpMethod, RetryPolicy } from "./client";

/**
 * When to try a request again, by what its method allows:
 * - a status of 412, 429 or 5xx (but 501) is retried for every request: the server says it did not act
 *   (412, 429, 503) or might not have, and idempotent requests are safe to repeat. A non-idempotent POST is
 *   retried on 429 and 503 only, the statuses that mean the request was not processed;
 * - a transport failure is retried for idempotent requests, and for a POST only when it certainly never
 *   reached the server (refused connection). A POST that may have been acted on is left to the caller, which
 *   can look for what it created (see `ServiceError.ambiguous`);
 * - 400, 401, 403, 404, 422 and every other status are final.
 * Waits grow exponentially from `baseDelayMs` up to `maxDelayMs`, with full jitter, unless the server says how
 * long to wait (`Retry-After` in seconds or as an HTTP date, `X-RateLimit-Reset` in possibly fractional
 * seconds). 429s are retried for as long as the budget allows; other failures `maxRetries` times. No retry
 * starts once `budgetMs` has passed since the policy was made (one per operation).
 */
export interface RetrySettings {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Bound on the time spent in one operation, waits included. */
  budgetMs: number;
}

export const DEFAULT_RETRY: Readonly<RetrySettings> = { maxRetries: 5, baseDelayMs: 250, maxDelayMs: 20_000, budgetMs: 5 * 60_000 };

let processDefaults: RetrySettings = { ...DEFAULT_RETRY };

/** Replaces the defaults for this process (tests use short waits); returns the previous ones. */
export function setRetryDefaults(settings: Partial<RetrySettings>): RetrySettings {
  const previous = processDefaults;
  processDefaults = { ...processDefaults, ...settings };
  return previous;
}

const RETRIABLE_STATUS = (s: number) => s === 412 || s === 429 || (s >= 500 && s !== 501);
const NOT_PROCESSED_STATUS = (s: number) => s === 429 || s === 503;

export interface RetryStats {
  retries: number;
  byReason: Record<string, number>;
}

/** Process-wide counts of retries, for tests and benchmarks. */
export const retryStats: RetryStats = { retries: 0, byReason: {} };

export function retryPolicy(settings: Partial<RetrySettings> = {}, random: () => number = Math.random, now: () => number = Date.now): RetryPolicy {
  const s = { ...processDefaults, ...dropUndefined(settings) };
  const deadline = now() + s.budgetMs;
  return {
    delayBefore(attempt: number, outcome: AttemptOutcome, request: { method: HttpMethod; idempotent: boolean }): number | undefined {
      const reason = retryReason(outcome, request.idempotent);
      if (!reason) return undefined;
      // Rate limiting is the server pacing us, not a failure: it is waited out within the budget, uncounted.
      if (attempt > s.maxRetries && reason !== "429") return undefined;
      const told = outcome.kind === "response" ? serverDelayMs(outcome.response.headers, now) : undefined;
      const backoff = Math.min(s.maxDelayMs, s.baseDelayMs * 2 ** (attempt - 1));
      const delay = told !== undefined ? Math.min(told + random() * s.baseDelayMs, s.budgetMs) : random() * backoff;
      if (now() + delay > deadline) return undefined;
      retryStats.retries++;
      retryStats.byReason[reason] = (retryStats.byReason[reason] ?? 0) + 1;
      return Math.round(delay);
    },
  };
}

function dropUndefined(o: Partial<RetrySettings>): Partial<RetrySettings> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

function retryReason(outcome: AttemptOutcome, idempotent: boolean): string | undefined {
  if (outcome.kind === "response") {
    const status = outcome.response.status;
    if (!RETRIABLE_STATUS(status)) return undefined;
    if (!idempotent && !NOT_PROCESSED_STATUS(status)) return undefined;
    return String(status);
  }
  if (idempotent) return "transport";
  return outcome.sent ? undefined : "transport";
}

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
  if (reset !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(reset)) return Number(reset) * 1000;
  return undefined;
}
