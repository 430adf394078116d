import type { ErrorCode } from "../common/errors";
import { PEER_SPEAKS_HTTP } from "./connector";
import type { ProxyRoute } from "./proxyRoute";

/**
 * The failures of a proxy, as the proxy dispatcher reports them to undici (each a plain `Error` with a `code`, like
 * Node's own: see `codedError` in connector.ts), and what each means to a user: the proxy named as `host:port` and
 * by the setting or variable that chose it, what to check, and whether trying again may help. Read by shape
 * (`code`, `status`, the cause's `code`), never by a message's wording.
 */

/** The connection to the proxy failed (refused, not found, reset, its TLS); the system's error is the `cause`. */
export const PROXY_CONNECTION = "ERR_PROXY_CONNECTION";
/** The proxy answered a CONNECT with a status other than 2xx (`status`). */
export const PROXY_ANSWER = "ERR_PROXY_ANSWER";
/** The proxy took the connection but did not answer the CONNECT in time. */
export const PROXY_TIMEOUT = "ERR_PROXY_TIMEOUT";

interface ProxyFailure extends Error {
  code: string;
  status?: number;
  target?: string;
}

export function proxyConnectionError(cause: Error, route: ProxyRoute): Error {
  if (isProxyFailure(cause)) return cause;
  return failure(PROXY_CONNECTION, `no connection to the proxy ${route.name}: ${cause.message}`, { cause });
}

export function proxyAnswerError(status: number, target: string, route: ProxyRoute): Error {
  return failure(PROXY_ANSWER, `the proxy ${route.name} answered ${status} to CONNECT ${target}`, { status, target });
}

export function proxyTimeoutError(ms: number, target: string, route: ProxyRoute): Error {
  return failure(PROXY_TIMEOUT, `the proxy ${route.name} did not answer CONNECT ${target} within ${ms}ms`, { target });
}

/** What a failure through a proxy was, for the message: what happened, its code, what to check. */
export interface ProxyExplanation {
  detail: string;
  code: ErrorCode;
  advice: string;
}

/**
 * A failure of the proxy explained, or undefined for one that is not the proxy's (the service's certificate, a
 * timeout of the request). `proxy`-coded ones are final (the proxy refused: credentials, policy, its certificate);
 * the others are transport failures, tried again as a lost connection is.
 */
export function explainProxyFailure(err: unknown, route: ProxyRoute, addressSetting: string): ProxyExplanation | undefined {
  const at = `the proxy ${route.name} (from ${route.from})`;
  const failure = proxyFailureIn(err);
  if (!failure) return undefined;
  if (failure.code === PROXY_TIMEOUT) {
    return {
      detail: failure.message,
      code: "network",
      advice: `${at} took the connection but did not answer: check ${route.from}, and the proxy's health`,
    };
  }
  if (failure.code === PROXY_ANSWER) return explainAnswer(failure.status!, failure.target!, route, at, addressSetting);
  const cause = (failure as { cause?: unknown }).cause;
  const code = (cause as { code?: string } | undefined)?.code;
  const detail = `${code ? `${code}: ` : ""}${failure.message}`;
  switch (code) {
    case "ECONNREFUSED":
      return { detail, code: "network", advice: `nothing accepts connections at ${at}: check ${route.from}, and that the proxy runs there` };
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return { detail, code: "network", advice: `the host of ${at} is not found: check ${route.from}` };
    case PEER_SPEAKS_HTTP:
      return {
        detail: `${code}: TLS handshake with the proxy ${route.name} failed: it answers plain HTTP`,
        code: "proxy",
        advice: `${at} speaks plain HTTP, not TLS: write its URL with http:// in ${route.from}`,
      };
    default:
      if (code && CERTIFICATE_FAILURES.test(code)) {
        return {
          detail,
          code: "proxy",
          advice:
            `the certificate of ${at} is not trusted: add its CA to the file NODE_EXTRA_CA_CERTS names; the service's CA ` +
            "and skipTlsVerify settings apply to the service's certificate, not the proxy's",
        };
      }
      return { detail, code: "network", advice: `the connection to ${at} failed: check ${route.from}, and the network path to the proxy` };
  }
}

/** The answer 407 to a request the proxy forwards itself (an `http://` address), explained. */
export function proxyAuthenticationRequired(route: ProxyRoute): ProxyExplanation {
  return explainAnswer(407, undefined, route, `the proxy ${route.name} (from ${route.from})`, "");
}

function explainAnswer(status: number, target: string | undefined, route: ProxyRoute, at: string, addressSetting: string): ProxyExplanation {
  const detail = target ? `the proxy ${route.name} answered ${status} to CONNECT ${target}` : `the proxy ${route.name} answered ${status}`;
  if (status === 407) {
    const advice = route.authorization
      ? `${at} refused its credentials (407 Proxy Authentication Required): check the user and password in ${route.from}`
      : `${at} requires credentials (407 Proxy Authentication Required): give them in ${route.from} as http://user:password@host:port`;
    return { detail, code: "proxy", advice };
  }
  if (status >= 500) {
    const service = addressSetting ? `check ${addressSetting}, and ` : "check ";
    return { detail, code: "network", advice: `${at} could not reach the service: ${service}that the proxy can reach it` };
  }
  return {
    detail,
    code: "proxy",
    advice:
      `${at} refused to open a tunnel to ${target ?? "the service"}: its policy may not allow this host or port; where the ` +
      "service is reachable without the proxy, add its host to NO_PROXY or set the service's proxy setting to none",
  };
}

/** Node's codes of a certificate that failed verification. */
const CERTIFICATE_FAILURES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_CERT_ALTNAME_INVALID/;

/** The proxy's failure in `err` or its causes. */
function proxyFailureIn(err: unknown): ProxyFailure | undefined {
  for (let e = err, depth = 0; typeof e === "object" && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isProxyFailure(e)) return e;
  }
  return undefined;
}

function isProxyFailure(err: unknown): err is ProxyFailure {
  const code = (err as { code?: unknown } | null)?.code;
  return code === PROXY_CONNECTION || code === PROXY_ANSWER || code === PROXY_TIMEOUT;
}

/**
 * A failure in the shape of Node's own, for undici to hand back to the client. Never a user's error, hence a plain
 * `Error`: it is an internal invariant of the client that every failure of a connection becomes a `ServiceError` in
 * `attempt` (attempt.ts), which reads this `code` (see `codedError` in connector.ts).
 */
function failure(code: string, message: string, extra: { cause?: Error; status?: number; target?: string }): Error {
  const { cause, ...rest } = extra;
  return Object.assign(new Error(message, cause ? { cause } : undefined), { code, ...rest });
}
