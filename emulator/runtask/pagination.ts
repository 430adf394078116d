import type { EmulatorResponse } from "../core/router";
import { invalidParameter } from "./jsonApi";

/**
 * The list envelope: one page of items plus `links` and `meta.pagination`. The spec gives the default page size
 * (20) and leaves the maximum out; the emulator's maximum is 100 unless `maxPageSize` says otherwise.
 */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** How a server bounds `page[size]`. */
export interface PageLimits {
  /** The largest page served. */
  max: number;
  /** A larger `page[size]`: served at `max` (`"clamp"`), or refused with a JSON:API error (`"reject"`). */
  aboveMax: "clamp" | "reject";
  /** The status of a refusal: 400 (a bad query parameter) or 422. */
  rejectStatus: 400 | 422;
}

export const DEFAULT_PAGE_LIMITS: PageLimits = { max: MAX_PAGE_SIZE, aboveMax: "clamp", rejectStatus: 400 };

export interface Page<T> {
  items: T[];
  links: Record<"self" | "first" | "prev" | "next" | "last", string | null>;
  meta: { pagination: Record<string, number | null> };
}

/**
 * The page size a list request asks for: `page[size]` when it is a positive integer, else the default (20, or
 * the maximum when that is smaller). Above the maximum it is clamped, or refused with an error object whose
 * `source.parameter` is `page[size]`, as `limits` say.
 */
export function pageSizeOf(query: URLSearchParams, limits: PageLimits): number | EmulatorResponse {
  const asked = positiveInt(query.get("page[size]"));
  if (asked === undefined) return Math.min(DEFAULT_PAGE_SIZE, limits.max);
  if (asked <= limits.max) return asked;
  if (limits.aboveMax === "clamp") return limits.max;
  return invalidParameter("page[size]", `page[size] must be at most ${limits.max}`, limits.rejectStatus);
}

/**
 * One page of `all`, of `size` items. Links are absolute URLs on `origin` (as the service gives them) with
 * `page[number]` and `page[size]` percent-encoded, last; other query parameters (`include`) are kept. A missing
 * or malformed `page[number]` is the first page; a page past the last is empty.
 */
export function paginate<T>(all: T[], size: number, query: URLSearchParams, origin: string, selfPath: string): Page<T> {
  const totalPages = Math.max(1, Math.ceil(all.length / size));
  const current = Math.min(positiveInt(query.get("page[number]")) ?? 1, Number.MAX_SAFE_INTEGER);
  const items = all.slice((current - 1) * size, current * size);
  const prev = current > 1 ? Math.min(current - 1, totalPages) : null;
  const next = current < totalPages ? current + 1 : null;
  const link = (n: number) => {
    const q = new URLSearchParams(query);
    q.delete("page[number]");
    q.delete("page[size]");
    q.append("page[number]", String(n));
    q.append("page[size]", String(size));
    return `${origin}${selfPath}?${q.toString()}`;
  };
  return {
    items,
    links: { self: link(current), first: link(1), prev: prev ? link(prev) : null, next: next ? link(next) : null, last: link(totalPages) },
    meta: {
      pagination: {
        "current-page": current,
        "page-size": size,
        "prev-page": prev,
        "next-page": next,
        "total-pages": totalPages,
        "total-count": all.length,
      },
    },
  };
}

function positiveInt(v: string | null): number | undefined {
  return v !== null && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined;
}
