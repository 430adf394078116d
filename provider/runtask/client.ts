import { retryPolicy } from "../http/retry";
import { HttpClient, type HttpMethod, type RequestOptions } from "../http/client";
import { resourcesOf, JSON_API, type ListDocument, type ResourceObject } from "./jsonApi";
import type { RunTaskSettings } from "./settings";

/** The service's largest page; fewer pages means fewer round trips when following a list. */
export const PAGE_SIZE = 100;

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
      retry: retryPolicy({ maxRetries: settings.maxRetries }),
      hint: runTaskHint,
    });
  }

  request(method: HttpMethod, path: string, opts: RequestOptions = {}) {
    return this.http.request(method, path, { contentType: JSON_API, ...opts });
  }

  /** Every item of a paged list, following `meta.pagination.next-page` (or `links.next`) to the end. */
  async listAll(path: string, query: Record<string, string | undefined> = {}): Promise<ResourceObject[]> {
    const items: ResourceObject[] = [];
    for (let page: number | undefined = 1; page !== undefined; ) {
      const res = await this.request("GET", path, { query: { ...query, "page[number]": page, "page[size]": PAGE_SIZE } });
      const doc = res.body as ListDocument;
      const pageItems = resourcesOf(doc);
      items.push(...pageItems);
      page = nextPage(doc, page);
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
