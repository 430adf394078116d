import type { EmulatorRequest, EmulatorResponse } from "./router";
import type { Interceptor } from "./server";

/**
 * Faults the emulator injects, as real services and networks produce them. Every decision comes from a seeded
 * generator, so a run with the same seed and the same request order injects the same faults.
 */
export interface FaultOptions {
  /** Seed of the generator. Default 1. */
  seed?: number;
  /** Probability, per request, of each kind of fault (their sum at most 1). */
  rates?: Partial<Record<FaultKind, number>>;
  /** Routes (`METHOD /prefix/template`) faults apply to. Default: every route. */
  routes?: RegExp;
  /** Latency added to every request: fixed, or uniform in [min, max] milliseconds. */
  latencyMs?: number | { min: number; max: number };
  /** Requests per second allowed per token on the routes of `rateLimitRoutes`; above it, 429. Off by default. */
  rateLimitPerSecond?: number;
  /** Default: the run task API (`/api/v2`), whose real service limits each user to 30 requests per second. */
  rateLimitRoutes?: RegExp;
}

export type FaultKind = "rateLimited" | "serverError" | "dropBeforeCommit" | "dropAfterCommit";

const KINDS: FaultKind[] = ["rateLimited", "serverError", "dropBeforeCommit", "dropAfterCommit"];

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
  /** Faults injected so far, by kind (`rateLimit` counts 429s of the per-token limit). */
  readonly counts: Record<FaultKind | "rateLimit", number> = { rateLimited: 0, serverError: 0, dropBeforeCommit: 0, dropAfterCommit: 0, rateLimit: 0 };
  private readonly random: () => number;
  private readonly windows = new Map<string, number[]>();

  constructor(private readonly options: FaultOptions) {
    this.random = seededRandom(options.seed ?? 1);
  }

  readonly interceptor: Interceptor = async (req, routeKey) => {
    const key = `${req.method} ${routeKey}`;
    const latency = this.latency();
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    const limited = this.rateLimit(req, key);
    if (limited) return limited;
    if (this.options.routes && !this.options.routes.test(key)) return undefined;
    let roll = this.random();
    for (const kind of KINDS) {
      const rate = this.options.rates?.[kind] ?? 0;
      if (roll < rate) {
        this.counts[kind]++;
        return this.fault(kind, routeKey);
      }
      roll -= rate;
    }
    return undefined;
  };

  private latency(): number {
    const l = this.options.latencyMs;
    if (l === undefined) return 0;
    return typeof l === "number" ? l : l.min + this.random() * (l.max - l.min);
  }

  private fault(kind: FaultKind, routeKey: string): EmulatorResponse | "drop" | "dropAfter" {
    switch (kind) {
      case "rateLimited":
        return tooManyRequests(routeKey, 0.05 + this.random() * 0.15);
      case "serverError": {
        const status = [500, 502, 503][Math.floor(this.random() * 3)];
        return { status, body: errorBody(routeKey, status, "injected server error") };
      }
      case "dropBeforeCommit":
        return "drop";
      case "dropAfterCommit":
        return "dropAfter";
    }
  }

  /** A sliding one-second window per token, as the run task service limits its users. */
  private rateLimit(req: EmulatorRequest, key: string): EmulatorResponse | undefined {
    const limit = this.options.rateLimitPerSecond;
    if (!limit || !(this.options.rateLimitRoutes ?? /^\w+ \/api\/v2\//).test(key)) return undefined;
    const token = String(req.headers.authorization ?? req.headers["x-service-token"] ?? "");
    const now = Date.now();
    const window = (this.windows.get(token) ?? []).filter((t) => t > now - 1000);
    if (window.length >= limit) {
      this.windows.set(token, window);
      this.counts.rateLimit++;
      return tooManyRequests(key, (window[0] + 1000 - now) / 1000, limit);
    }
    window.push(now);
    this.windows.set(token, window);
    return undefined;
  }
}

function tooManyRequests(routeKey: string, resetSeconds: number, limit = 30): EmulatorResponse {
  return {
    status: 429,
    headers: { "x-ratelimit-limit": String(limit), "x-ratelimit-reset": resetSeconds.toFixed(3) },
    body: errorBody(routeKey, 429, `You have exceeded the API's rate limit of ${limit} requests per second.`),
  };
}

/** Each API's own error shape: JSON:API objects for the run task service, strings for the snapshot service. */
function errorBody(routeKey: string, status: number, detail: string): unknown {
  if (routeKey.includes("/api/v2/")) return { errors: [{ status: String(status), title: status === 429 ? "Too many requests" : "internal error", detail }] };
  return { errors: [detail] };
}
