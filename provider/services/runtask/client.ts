import type { HttpClient, HttpMethod, HttpResponse, RequestOptions } from "../../http/client";
import { hasCode } from "../../common/errors";
import type { ServiceError } from "../../http/serviceError";
import type { RetrySettings } from "../../http/retry";
import { operationRetry, serviceHttpClient } from "../httpClient";
import type { ClientTuning } from "../tuning";
import { includedOf, JSON_API, resourcesOf, type ListDocument, type ResourceObject } from "./jsonApi";
import { runTaskHint, SERVICE_NOT_FOUND } from "./errors";
import { RUNTASK_SERVICE, type RunTaskSettings } from "./settings";

/** The page size asked for; fewer pages means fewer round trips when following a list. */
export const PAGE_SIZE = 100;
/** Pages of one list in flight at once, once their number is known: well under the service's rate limit. */
export const PAGE_CONCURRENCY = 8;

/** Pages of a list read at most, while they disagree (the list changed between them). */
export const LIST_READS = 3;

/**
 * Every item of a list, the related objects it included (undefined when no page carried `included`), and whether
 * its pages agree (`pagesAgree`): only such a list says what the service holds, an absence included.
 */
export interface ListResult {
  items: ResourceObject[];
  included?: ResourceObject[];
  consistent: boolean;
}

/**
 * JSON:API over the shared HTTP core: `Authorization: Bearer`, `application/vnd.api+json` both ways, and advice
 * on what the service's bare statuses mean.
 */
export class RunTaskHttp {
  private readonly http: HttpClient;
  /** POSTs a create may send at most (the first and those sent again after an unknown outcome). */
  readonly createAttempts: number;
  /** The operation's retry settings: how often, and how far apart, a read is made again. */
  private readonly retry: RetrySettings;

  constructor(settings: RunTaskSettings, tuning: ClientTuning = {}) {
    this.http = serviceHttpClient(
      RUNTASK_SERVICE,
      settings,
      { headers: { authorization: `Bearer ${settings.token}`, accept: JSON_API }, hint: runTaskHint },
      tuning,
    );
    this.retry = operationRetry(settings, tuning);
    this.createAttempts = this.retry.maxRetries + 1;
  }

  get service(): string {
    return this.http.service;
  }

  get addressSetting(): string {
    return this.http.addressSetting;
  }

  request(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<HttpResponse> {
    return this.http.request(method, path, { contentType: JSON_API, ...opts });
  }

  /** The error of an answer returned to the caller (a 404 it could not explain), through the client's one error path. */
  failure(method: HttpMethod, path: string, res: HttpResponse, opts: RequestOptions = {}): ServiceError {
    return this.http.failure(method, path, res, opts);
  }

  /** The error of a successful answer that is not the API's (see `HttpClient.unexpectedAnswer`). */
  unexpectedAnswer(method: HttpMethod, path: string, res: HttpResponse, expected: string, opts: RequestOptions = {}): ServiceError {
    return this.http.unexpectedAnswer(method, path, res, expected, opts);
  }

  /**
   * Whether a list answers this token (rather than the service's 404): one request, one item. A refusal of the
   * page size (400, 422) is an answer too: the list is there.
   */
  async answers(path: string): Promise<boolean> {
    const res = await this.request("GET", path, { query: { "page[size]": 1 }, ...SERVICE_NOT_FOUND, allowStatus: [400, 404, 422] });
    return res.status !== 404;
  }

  /**
   * `read` made again while `settled` says no, as a failed request is tried again: `maxRetries` more times at
   * most, the waits growing from `baseDelayMs` to `maxDelayMs`, within the operation's bound. The last value read,
   * and whether the bound (or the engine's Cancel) cut the reads short.
   */
  async readUntil<T>(read: () => Promise<T>, settled: (value: T) => boolean): Promise<{ value: T; cutShort: boolean }> {
    let value = await read();
    for (let retry = 1; !settled(value) && retry <= this.retry.maxRetries; retry++) {
      const wait = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (retry - 1));
      if (!(await this.http.pause(wait))) return { value, cutShort: true };
      value = await read();
    }
    return { value, cutShort: false };
  }

  /**
   * Every item of a paged list, read again (`LIST_READS` times at most) while its pages disagree: a list that
   * changed between two of its pages (another client created or deleted an object) may leave an object out, or show
   * one twice. The result says whether the last read's pages agreed.
   */
  async listAll(path: string, type: string, query: Record<string, string | undefined> = {}): Promise<ListResult> {
    for (let read = 1; ; read++) {
      const result = await this.readList(path, type, query);
      if (result.consistent || read >= LIST_READS) return result;
    }
  }

  /**
   * Every item of a paged list, read once. Pages of `PAGE_SIZE` are asked for; when the first page says how many
   * there are, the rest are fetched `PAGE_CONCURRENCY` at a time (in order), otherwise the next page is followed one
   * after another. A server that refuses that page size (400 or 422) is asked again with its own page size, and its
   * `links.next` followed. A page that is not a list of resource objects of `type` is an error that names the
   * address setting: never read as "none there", which would take every object for gone.
   */
  private async readList(path: string, type: string, query: Record<string, string | undefined>): Promise<ListResult> {
    let pageSize: number | undefined = PAGE_SIZE;
    const get = async (pagePath: string, pageQuery: RequestOptions["query"]) =>
      this.listPage(pagePath, type, await this.request("GET", pagePath, { query: pageQuery }));
    const fetchPage = (page: number) => get(path, { ...query, "page[number]": page, "page[size]": pageSize });
    let first: ListDocument;
    try {
      first = await fetchPage(1);
    } catch (err) {
      if (!hasCode(err, "bad_request", "invalid")) throw err;
      pageSize = undefined;
      first = await fetchPage(1);
    }
    const docs = [first];
    const totalPages = first.meta?.pagination?.["total-pages"];
    if (pageSize !== undefined && typeof totalPages === "number" && totalPages > 1 && first.meta?.pagination?.["next-page"] === 2) {
      const pages = Array.from({ length: totalPages - 1 }, (_, i) => i + 2);
      docs.push(...(await mapWithConcurrency(pages, PAGE_CONCURRENCY, fetchPage)));
    } else {
      // A link already followed ends the list: a server that links a page to itself does not loop.
      const followed = new Set<string>();
      for (let doc = first, page = 1, next = this.nextOf(doc, page); next !== undefined; next = this.nextOf(doc, page)) {
        page++;
        if (next.link) {
          const key = JSON.stringify(next.link);
          if (followed.has(key)) break;
          followed.add(key);
        }
        // The link decides the page; what the caller asked for (`include`) goes with it, should a server drop it.
        doc = next.link ? await get(next.link.path, { ...query, ...next.link.query }) : await fetchPage(page);
        docs.push(doc);
      }
    }
    const items = docs.flatMap((d) => resourcesOf(d));
    const consistent = pagesAgree(docs, items);
    return docs.some((d) => Array.isArray(d.included)) ? { items, included: docs.flatMap((d) => includedOf(d)), consistent } : { items, consistent };
  }

  /** A page of a list: `data` a list of resource objects of `type`, each with its id. */
  private listPage(path: string, type: string, res: HttpResponse): ListDocument {
    const data = (res.body as { data?: unknown } | undefined)?.data;
    const items = Array.isArray(data) ? resourcesOf(res.body) : [];
    if (Array.isArray(data) && items.length === data.length && items.every((item) => item.type === type)) return res.body as ListDocument;
    throw this.http.unexpectedAnswer("GET", path, res, `a JSON:API list of "${type}"`);
  }

  /**
   * The page after `current`: the document's `links.next` where it points into this service's API (a link
   * elsewhere is never followed: the token would go with it), else `meta.pagination.next-page`.
   */
  private nextOf(doc: ListDocument, current: number): { link?: { path: string; query: Record<string, string> } } | undefined {
    const link = this.http.pathOf(doc.links?.next ?? undefined);
    if (link) return { link };
    const next = doc.meta?.pagination?.["next-page"];
    if (typeof next === "number") return next > current ? {} : undefined;
    if (next === undefined && doc.links?.next) return {};
    return undefined;
  }
}

/**
 * Whether the pages of a list read one after another show one list: each page gives the same total count (the
 * spec's `meta.pagination.total-count`), no object is on two pages, and the objects read are as many as that
 * count. A list that changed between two page requests fails one of these: an object deleted ahead of the next
 * page moves another onto a page read already (the count drops), one made ahead of it moves an object onto the
 * next page as well (the count grows, and it is read twice). Without counts, only the second shows.
 */
export function pagesAgree(docs: ListDocument[], items: ResourceObject[]): boolean {
  const counts = new Set(docs.map((d) => d.meta?.pagination?.["total-count"]).filter((c): c is number => typeof c === "number"));
  if (counts.size > 1) return false;
  if (new Set(items.map((item) => item.id)).size !== items.length) return false;
  const [count] = counts;
  return count === undefined || count === items.length;
}

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
