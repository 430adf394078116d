import { PEER_SPEAKS_HTTP } from "./connector";
import { undici } from "./undici";

/**
 * What a failure without an answer was, read from what undici, Node and the connector report: a timeout or an
 * abort, a failure after the request may have reached the server, a port that speaks no TLS, or a connection that
 * could not be made, and what that says about the address. Read by shape (`code`, `name`, the `cause` chain),
 * never by a message's wording.
 */

/** How messages name the address where the client was not told which setting holds it. */
export const UNNAMED_ADDRESS_SETTING = "the service's address";

/** Timeouts and aborts, whichever layer reports them (undici's own errors, or the abort signal's reason). */
export function isTimeout(err: unknown): boolean {
  // Checked by shape, not `instanceof`: the signal's DOMException may come from another realm.
  for (let e = err, depth = 0; typeof e === "object" && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { name, code } = e as { name?: string; code?: unknown };
    if (name === "TimeoutError" || name === "AbortError") return true;
    if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_ABORTED") return true;
  }
  return false;
}

/**
 * Whether the request may have reached the server before the failure. Once it was `written` to a connection,
 * whatever ends it (a reset, `ECONNRESET`, or a broken pipe, `EPIPE`, which undici passes on as the system reports
 * them; a close; a timeout) may come after the server acted on it. Before that, only the failures that say a request
 * was under way: a timeout or an abort, undici's socket errors (the other side closed, with the request possibly
 * queued on a kept-alive connection). A reset or a broken pipe before the write (during the TLS handshake, say)
 * and a failed connect leave the request unsent.
 */
export function isAfterSend(err: unknown, written: boolean): boolean {
  return written || isTimeout(err) || err instanceof undici().SocketError || codeOf(err) === "UND_ERR_SOCKET";
}

/** Whether the port demonstrably speaks plain HTTP where TLS was asked for (the connector's verdict). */
export function isPlainHttpPort(err: unknown): boolean {
  return codeOf(err) === PEER_SPEAKS_HTTP;
}

/** What happened, with the system's or undici's code first (`ECONNREFUSED: connect ECONNREFUSED ...`). */
export function describeTransportError(err: unknown): string {
  if (err instanceof Error) {
    const code = transportCode(err);
    const cause = err.cause instanceof Error && err.cause.message !== err.message ? ` (${err.cause.message})` : "";
    return `${code ? `${code}: ` : ""}${err.message}${cause}`;
  }
  return String(err);
}

/** What a connection that could not be made says about the address, naming the setting it came from. */
export function unreachableAdvice(err: unknown, origin: string, setting: string): string | undefined {
  switch (transportCode(err)) {
    case "ECONNREFUSED":
      return `nothing accepts connections at ${origin}: check ${setting}, and that the service runs there`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host ${new URL(origin).hostname} is not found: check ${setting}`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return `no connection to ${origin}: check ${setting}, and the network path to it`;
    default:
      // Failures on a connection made (a certificate refused, a reset) say what they are themselves.
      return undefined;
  }
}

function codeOf(err: unknown): string | undefined {
  return (err as { code?: string } | undefined)?.code;
}

/** The system's or undici's code of a transport failure (`ECONNREFUSED`), on the error or its cause. */
function transportCode(err: unknown): string | undefined {
  return codeOf(err) ?? codeOf((err as { cause?: unknown } | undefined)?.cause);
}
