import { retryPolicy } from "../http/retry";
import { HttpClient, type HttpMethod, type RequestOptions } from "../http/client";
import { resourcesOf, JSON_API, type ListDocument, type ResourceObject } from "./jsonApi";
import type { RunTaskSettings } from "./settings";

/** The service's largest page; fewer pages means fewer round trips when following a list. */
export const PAGE_SIZE = 100;
/** Pages of one list in flight at once, once their number is known: well under the service's rate limit. */
export const PAGE_CONCURRENCY = 8;

/** `fn` over `items`, at most `limit` at a time, results in the order of `items`. */
async function mapWithConcurrency<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * JSON:API over the shared HTTP core: `Authorization: Bearer`, `application/vnd.api+json` both ways, and
 * advice on what the service's bare statuses mean.
 */
export class RunTaskHttp {
  private readonly http: HttpClient;

  constructor(settings: RunTaskSettings) {
    this.http = new HttpClient({
      service: "run task service",
      baseUrl: `${settings.address.replace(/\/+$/, "")}/api/v2`,
      headers: { authorization: `Bearer ${settings.token}`, accept: JSON_API },
      tls: settings.tls,
      timeoutMs: settings.timeoutMs,
      secrets: [settings.token],
      // One policy per client, and one client per operation: the retry budget bounds the operation.
      retry: retryPolicy({ maxRetries: settings.maxRetries, budgetMs: settings.operationTimeoutMs }),
      hint: runTaskHint,
    });
  }

  request(method: HttpMethod, path: string, opts: RequestOptions = {}) {
    return this.http.request(method, path, { contentType: JSON_API, ...opts });
  }

  /**
   * Every item of a paged list. When the first page says how many pages there are, the rest are fetched
   * `PAGE_CONCURRENCY` at a time (in order); otherwise `meta.pagination.next-page` (or `links.next`) is
   * followed one page after another.
   */
  async listAll(path: string, query: Record<string, string | undefined> = {}): Promise<ResourceObject[]> {
    const fetchPage = async (page: number) =>
      (await this.request("GET", path, { query: { ...query, "page[number]": page, "page[size]": PAGE_SIZE } })).body as ListDocument;
    const first = await fetchPage(1);
    const items = resourcesOf(first);
    const totalPages = first.meta?.pagination?.["total-pages"];
    if (typeof totalPages === "number" && totalPages > 1 && first.meta?.pagination?.["next-page"] === 2) {
      const pages = Array.from({ length: totalPages - 1 }, (_, i) => i + 2);
      const docs = await mapWithConcurrency(pages, PAGE_CONCURRENCY, fetchPage);
      for (const doc of docs) items.push(...resourcesOf(doc));
      return items;
    }
    for (let doc = first, page: number | undefined = nextPage(first, 1); page !== undefined; page = nextPage(doc, page)) {
      doc = await fetchPage(page);
      items.push(...resourcesOf(doc));
    }
    return items;
  }
}

/** The page after `current`, from `meta.pagination.next-page`, else from `links.next`; undefined at the end. */
function nextPage(doc: ListDocument, current: number): number | undefined {
  const next = doc.meta?.pagination?.["next-page"];
  if (typeof next === "number") return next > current ? next : undefined;
  if (next === undefined && doc.links?.next) return current + 1;
  return undefined;
}

/** What a failed status usually means on this service. */
export function runTaskHint(status: number): string | undefined {
  switch (status) {
    case 401:
      return "the token is not valid (runtask:token / RUNTASK_TOKEN)";
    case 404:
      return "missing or not authorized: the service answers 404 both when the object does not exist and when the token lacks the permission (owner to create tasks, Manage Run Tasks, Manage Workspace Run Tasks)";
    default:
      return undefined;
  }
}
