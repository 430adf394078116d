/** The list envelope: one page of items plus `links` and `meta.pagination`, page size 20 by default, 100 at most. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface Page<T> {
  items: T[];
  links: Record<"self" | "first" | "prev" | "next" | "last", string | null>;
  meta: { pagination: Record<string, number | null> };
}

/**
 * One page of `all`. Links are absolute URLs on `origin` (as the service gives them) with `page[number]` and
 * `page[size]` percent-encoded, last; other query parameters (`include`) are kept. Sizes above 100 are clamped to 100;
 * missing or malformed numbers take the defaults; a page past the last is empty.
 */
export function paginate<T>(all: T[], query: URLSearchParams, origin: string, selfPath: string): Page<T> {
  const size = clamp(positiveInt(query.get("page[size]")) ?? DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE);
  const totalPages = Math.max(1, Math.ceil(all.length / size));
  const current = clamp(positiveInt(query.get("page[number]")) ?? 1, 1, Number.MAX_SAFE_INTEGER);
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

function clamp(n: number, min: number, max: number): number {
  return Math.min(Math.max(n, min), max);
}
