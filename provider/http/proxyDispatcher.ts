import { isIP, type Socket } from "node:net";
import type { buildConnector, Dispatcher } from "undici";
import { boundedConnector, type ConnectBounds } from "./connector";
import { proxyAnswerError, proxyConnectionError, proxyTimeoutError } from "./proxyErrors";
import type { ProxyRoute } from "./proxyRoute";
import { tlsConnectOptions, type TlsSettings } from "./tls";
import { undici } from "./undici";

/** What the HTTP client sends through: a dispatcher it can close. */
export type ClosableDispatcher = Pick<Dispatcher, "dispatch" | "close">;

export interface PoolSizing {
  connections: number;
  keepAliveTimeout: number;
  keepAliveMaxTimeout: number;
}

/**
 * Requests through a proxy, as Go's transport sends them: to an `https://` address through a CONNECT tunnel, with
 * TLS to the service inside it, the service's TLS settings (`tls`: its CA, skipping verification) applying to the
 * service's certificate only; to an `http://` address as a request whose target is the absolute URL. An `https://`
 * proxy is spoken TLS to, its certificate checked against the system's CAs (and `NODE_EXTRA_CA_CERTS`), never with
 * the service's settings. The credentials go to the proxy alone, in `Proxy-Authorization`.
 *
 * Built on undici's own parts (a `Pool` to the proxy, whose `connect` sends the CONNECT; an `Agent` whose connector
 * opens the tunnels) rather than its `ProxyAgent`, which reports a refused CONNECT only in its message's words (a
 * `RequestAbortedError`, whose code is also an abort's) and does not bound the wait for the CONNECT's answer: here
 * each failure of the proxy is an error of its own shape (`proxyErrors.ts`), bounded as a connection is.
 */
export function proxyDispatcher(route: ProxyRoute, tls: TlsSettings, sizing: PoolSizing, bounds: ConnectBounds): ClosableDispatcher {
  const { Agent, Pool } = undici();
  const proxyLeg = boundedConnector({}, bounds);
  // undici names the TLS server after a request's Host, which for a CONNECT is the service: an https:// proxy is
  // verified under its own name (or its address, where it is named by one).
  const proxyHost = new URL(route.origin).hostname;
  const servername = isIP(proxyHost.replace(/^\[|\]$/g, "")) ? undefined : proxyHost;
  const toProxy = new Pool(route.origin, {
    ...sizing,
    // Failures of the connection to the proxy are the proxy's, whichever request they meet.
    connect: (opts, callback) =>
      proxyLeg({ ...opts, servername }, (err, socket) => (err ? callback(proxyConnectionError(err, route), null) : callback(null, socket!))),
  });
  const service = boundedConnector(tlsConnectOptions(tls), bounds);
  const tunnels = new Agent({ ...sizing, connect: tunnelConnector(route, toProxy, service, bounds.connectMs) });
  return {
    dispatch(options, handler) {
      if (!String(options.origin).startsWith("http:")) return tunnels.dispatch(options, handler);
      // An `http://` address: the proxy gets the absolute URL, and the service's host in `Host`.
      const origin = String(options.origin).replace(/\/+$/, "");
      const headers = { ...(options.headers as Record<string, string>), host: new URL(origin).host, ...proxyHeaders(route) };
      return toProxy.dispatch({ ...options, origin: route.origin, path: `${origin}${options.path}`, headers }, handler);
    },
    close: (() => Promise.all([tunnels.close(), toProxy.close()]).then(() => undefined)) as ClosableDispatcher["close"],
  };
}

function proxyHeaders(route: ProxyRoute): Record<string, string> {
  return route.authorization ? { "proxy-authorization": route.authorization } : {};
}

/**
 * The connector of the tunnels' agent: a CONNECT to the service's `host:port` through the proxy, answered within
 * `answerMs` (as a TCP connection is made within its bound), then, for `https://`, the TLS handshake with the service
 * on the tunnel. Only a 2xx opens a tunnel (RFC 9110, 9.3.6).
 */
function tunnelConnector(route: ProxyRoute, toProxy: Dispatcher, service: buildConnector.connector, answerMs: number): buildConnector.connector {
  return (opts, callback) => {
    // `host` is the address's host as a URL writes it (IPv6 in brackets), with its port unless the scheme's own.
    const host = opts.host ?? opts.hostname;
    const target = opts.port ? host : `${host}:${opts.protocol === "https:" ? 443 : 80}`;
    const answer = new AbortController();
    const timer = setTimeout(() => answer.abort(), answerMs);
    undici()
      .connect(toProxy, { origin: route.origin, path: target, headers: { host: target, ...proxyHeaders(route) }, signal: answer.signal })
      .then(
        ({ statusCode, socket }) => {
          clearTimeout(timer);
          if (statusCode < 200 || statusCode > 299) {
            socket.on("error", () => undefined).destroy();
            return callback(proxyAnswerError(statusCode, target, route), null);
          }
          if (opts.protocol !== "https:") return callback(null, socket as Socket);
          service({ ...opts, httpSocket: socket as Socket }, callback);
        },
        (err: unknown) => {
          clearTimeout(timer);
          if (answer.signal.aborted) return callback(proxyTimeoutError(answerMs, target, route), null);
          // The proxy closed or reset the connection before answering: its failure, as a refused connection is. (undici
          // rejects with errors only; anything else is wrapped to keep the invariant that the cause is an Error.)
          callback(proxyConnectionError(err instanceof Error ? err : new Error(String(err)), route), null);
        },
      );
  };
}
