import type { Dispatcher } from "undici";
import { messageOf, type ErrorCode } from "../common/errors";
import { explainProxyFailure, proxyAuthenticationRequired } from "./proxyErrors";
import type { ProxyRoute } from "./proxyRoute";
import type { RateLimiter } from "./rateLimiter";
import type { ServiceError } from "./serviceError";
import { attemptSignal, boundText, remainingMs, seconds, within, type OperationBound } from "./timing";
import { describeTransportError, isAfterSend, isPlainHttpPort, isTimeout, unreachableAdvice, UNNAMED_ADDRESS_SETTING } from "./transportErrors";
import { undici } from "./undici";
import { watchWrites } from "./writeWatch";

/** The snapshot service lists with the HTTP method LIST; the run task service uses the usual ones. */
export type HttpMethod = "GET" | "LIST" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * One attempt's outcome, as a retry policy sees it: an answer, or a failure without one and whether the request
 * may have reached the server before it (`sent`).
 */
export type AttemptOutcome = { kind: "response"; response: HttpResponse } | { kind: "error"; error: ServiceError; sent: boolean };

/** One request to send once, and how to report a failure of it. */
export interface AttemptRequest {
  dispatcher: Dispatcher;
  /** `https://host:port`. */
  origin: string;
  method: HttpMethod;
  /** The path and query below the origin. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Bound on one request, from sending to the end of the body. */
  timeoutMs: number;
  /** The operation's bound, where it has one. */
  bound?: OperationBound;
  /** The pace of the service and token. */
  limiter: RateLimiter;
  /** The engine's Cancel. */
  signal?: AbortSignal;
  /** The setting that holds the address, where the client was told it. */
  addressSetting?: string;
  /** The proxy the dispatcher sends through, for messages. */
  proxy?: ProxyRoute;
  /** The error of a failure without an answer (redacted by the client): what happened, and what to check. */
  failed(detail: string, code: ErrorCode, advice?: string): ServiceError;
  /** The error of a call the engine cancelled. */
  cancelled(): ServiceError;
}

/**
 * One try of a request, bounded.
 *
 * The invariant that keeps a create from being made twice: `sent` is false only while nothing can have reached
 * the server (the operation's bound or the wait for the rate limit ran out before sending, or the connection was
 * never made). Every failure after that, a timeout included, is `sent: true`, and so is one whose timeout was
 * shortened to what is left of the operation's bound: the server may have acted on the request. The client then
 * marks the final error of a request that is not safe to repeat `ambiguous` (as it does a 5xx but 501), its retry
 * policy never sends such a request again once `sent`, and the caller (`createOnce`) looks for what it would have
 * made before any other POST. Taking a failure for "not sent" when it may have been acted on makes a duplicate;
 * taking one for "sent" when it was not costs one list.
 *
 * The attempt's timeout is the per-request timeout, cut short by what is left of the operation's bound, so that
 * a hung server fails the operation within its bound; the wait for the rate limit counts as well.
 */
export async function attempt(request: AttemptRequest): Promise<AttemptOutcome> {
  const { bound, limiter, signal } = request;
  const boundReached = (when: string): AttemptOutcome => ({
    kind: "error",
    error: request.failed(`operation time bound of ${boundText(bound!)} reached ${when}`, "timeout"),
    sent: false,
  });
  if (remainingMs(bound) <= 0) return boundReached("before the request was sent");
  if (limiter.paced && !(await within(limiter.acquire(), remainingMs(bound)))) {
    return boundReached("waiting for the service's rate limit");
  }
  const timeoutMs = Math.max(1, Math.ceil(Math.min(request.timeoutMs, remainingMs(bound))));
  const cutShort = timeoutMs < request.timeoutMs;
  let sent = false;
  const abort = attemptSignal(timeoutMs, signal);
  const watch = watchWrites(request.dispatcher);
  try {
    const res = await undici().request(watch.dispatcher, {
      origin: request.origin,
      path: request.path,
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers,
      body: request.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      // undici's own timeouts tick in coarse steps (up to a second late); the signal ends the attempt on time,
      // or at once on the engine's Cancel.
      signal: abort.signal,
    });
    if (request.proxy && res.statusCode === 407 && request.origin.startsWith("http:")) {
      // A request the proxy forwards itself (an `http://` address) is refused by the proxy, and was not forwarded.
      await res.body.dump();
      const { detail, code, advice } = proxyAuthenticationRequired(request.proxy);
      return { kind: "error", error: request.failed(detail, code, advice), sent: false };
    }
    sent = true;
    const limit = Number(firstHeader(res.headers["x-ratelimit-limit"]));
    if (limit > 0) limiter.learn(limit);
    const text = await res.body.text();
    return { kind: "response", response: { status: res.statusCode, headers: res.headers, body: parseBody(text) } };
  } catch (err) {
    // Once the request was written (a reset or a broken pipe then is a plain system error), or headers timed out,
    // or the connection dropped mid-response, the server may have acted on it.
    sent = sent || isAfterSend(err, watch.written);
    if (signal?.aborted) return { kind: "error", error: request.cancelled(), sent };
    const proxy = request.proxy;
    const ofProxy = proxy && explainProxyFailure(err, proxy, request.addressSetting ?? UNNAMED_ADDRESS_SETTING);
    if (ofProxy) return { kind: "error", error: request.failed(ofProxy.detail, ofProxy.code, ofProxy.advice), sent };
    const through = proxy ? `, through the proxy ${proxy.name} that ${proxy.from} names` : "";
    if (isPlainHttpPort(err)) {
      const where = request.addressSetting ? ` (${request.addressSetting})` : "";
      return { kind: "error", error: request.failed(`TLS handshake failed: ${messageOf(err)}${where}${through}`, "tls"), sent };
    }
    if (!isTimeout(err)) {
      const advice = unreachableAdvice(err, request.origin, request.addressSetting ?? UNNAMED_ADDRESS_SETTING);
      return { kind: "error", error: request.failed(`${describeTransportError(err)}${through}`, "network", advice), sent };
    }
    const detail = cutShort
      ? `no response before the operation's time bound of ${boundText(bound!)}`
      : `no response within ${seconds(request.timeoutMs)}`;
    return { kind: "error", error: request.failed(`${detail}${through}`, "timeout"), sent };
  } finally {
    abort.dispose();
  }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
