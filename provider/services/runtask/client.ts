import type { HttpClient, HttpMethod, HttpResponse, RequestOptions } from "../../http/client";
import { hasCode } from "../../common/errors";
import { ServiceError } from "../../http/serviceError";
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
 * Pages of one list read at most: 100,000 objects at `PAGE_SIZE` (20,000 at the spec's default page size). A first
 * page that claims more, or a server that links page after page past it, is not answering a list this provider can
 * follow: the read fails saying what the server sent, before memory or the operation's time bound run out.
 */
export const MAX_PAGES = 1000;

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
   *
   * Pages are read as far as the first page says there are (`pageCountOf`), never beyond `MAX_PAGES`: a page that
   * links a next one past that ends the read as changed while read when its own count says the list grew (another
   * client made objects meanwhile), and is an error saying what the server sent otherwise, as a first page that
   * claims more pages than `MAX_PAGES` or than its own count fills is.
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
    const claimed = this.pageCountOf(path, first);
    if (pageSize !== undefined && claimed !== undefined && claimed > 1 && first.meta?.pagination?.["next-page"] === 2) {
      const pages = Array.from({ length: claimed - 1 }, (_, i) => i + 2);
      docs.push(...(await mapWithConcurrency(pages, PAGE_CONCURRENCY, fetchPage)));
      return resultOf(docs, true);
    }
    // A link already followed ends the list: a server that links a page to itself does not loop.
    const followed = new Set<string>();
    for (let doc = first, page = 1, next = this.nextOf(doc, page); next !== undefined; next = this.nextOf(doc, page)) {
      if (page >= (claimed ?? MAX_PAGES)) {
        if (claimed !== undefined && pageCountSaid(doc) > claimed) return resultOf(docs, false);
        throw this.pagingError(path, pastTheEnd(doc, page, claimed));
      }
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
    return resultOf(docs, true);
  }

  /**
   * How many pages the first page of a list says there are: its `total-pages`, or what its `total-count` fills at
   * its `page-size`; undefined where it says neither. A count that is not a whole number, one above `MAX_PAGES`, or
   * `total-pages` that `total-count` would not fill at `page-size`, is an error naming what the page sent: such a
   * page is no list to follow (reading four billion pages would end the process out of memory, or the operation's
   * time bound).
   */
  private pageCountOf(path: string, first: ListDocument): number | undefined {
    const { "total-pages": pages, "total-count": count, "page-size": size } = first.meta?.pagination ?? {};
    const said = [`total-pages ${String(pages)}`, `total-count ${String(count)}`, `page-size ${String(size)}`].join(", ");
    for (const [name, value] of [
      ["total-pages", pages],
      ["total-count", count],
    ] as const) {
      if (value !== undefined && value !== null && !(typeof value === "number" && Number.isSafeInteger(value) && value >= 0)) {
        throw this.pagingError(path, `its first page gives ${name} ${JSON.stringify(value)}, which counts nothing (meta.pagination ${said})`);
      }
    }
    const filled =
      typeof count === "number" && typeof size === "number" && Number.isSafeInteger(size) && size > 0
        ? Math.max(1, Math.ceil(count / size))
        : undefined;
    const claimed = typeof pages === "number" ? Math.max(1, pages) : filled;
    if (claimed === undefined) return undefined;
    if (claimed > MAX_PAGES) {
      throw this.pagingError(path, `its first page claims ${claimed} pages (meta.pagination ${said}), more than the ${MAX_PAGES} a list is read to`);
    }
    if (filled !== undefined && claimed !== filled) {
      throw this.pagingError(path, `its first page claims ${claimed} pages, which its own count does not fill (meta.pagination ${said})`);
    }
    return claimed;
  }

  /** The error of a list whose pages cannot be followed as they say, naming what the server sent. */
  private pagingError(path: string, what: string): ServiceError {
    return new ServiceError({
      service: this.service,
      method: "GET",
      path,
      status: 200,
      code: "unexpected_answer",
      advice: `${what}: the list is not read further, and nothing is concluded from it (check ${this.addressSetting}, and the service)`,
    });
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

/** What the pages of one read hold, and whether they agree (a read cut short, the list having grown, does not). */
function resultOf(docs: ListDocument[], complete: boolean): ListResult {
  const items = docs.flatMap((d) => resourcesOf(d));
  const consistent = complete && pagesAgree(docs, items);
  return docs.some((d) => Array.isArray(d.included)) ? { items, included: docs.flatMap((d) => includedOf(d)), consistent } : { items, consistent };
}

/** The number of pages a page says its list has (its `total-pages`, or its count at its page size); 0 where it says none. */
function pageCountSaid(doc: ListDocument): number {
  const { "total-pages": pages, "total-count": count, "page-size": size } = doc.meta?.pagination ?? {};
  if (typeof pages === "number") return pages;
  return typeof count === "number" && typeof size === "number" && size > 0 ? Math.ceil(count / size) : 0;
}

/** What a page that links past the pages the list has sent, for the error. */
function pastTheEnd(doc: ListDocument, page: number, claimed: number | undefined): string {
  const next = String(doc.links?.next ?? `next-page ${String(doc.meta?.pagination?.["next-page"])}`).slice(0, 200);
  return claimed === undefined
    ? `page ${page} links yet another (${next}), and no page says how many there are: a list is read to ${MAX_PAGES} pages at most`
    : `page ${page} links another (${next}), though the first page said the list has ${claimed} page${claimed === 1 ? "" : "s"}, and this one no more`;
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
