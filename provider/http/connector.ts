import { connect as tcpConnect, type Socket } from "node:net";
import type { buildConnector } from "undici";
import { undici } from "./undici";

/** Error codes of a connection that could not be made secure, for the client's messages and retries. */
export const PEER_SPEAKS_HTTP = "ERR_TLS_PEER_SPEAKS_HTTP";
export const HANDSHAKE_TIMEOUT = "ERR_TLS_HANDSHAKE_TIMEOUT";

export interface ConnectBounds {
  /** Bound on opening the TCP connection. */
  connectMs: number;
  /** Bound on the TLS handshake once connected, on its own: a server that is not speaking TLS may say nothing. */
  handshakeMs: number;
}

/**
 * undici's connector, with the TLS handshake bounded on its own and a failed one explained. An `https://` address
 * that reaches a plain-HTTP port either answers the handshake with HTTP (a TLS "wrong version number") or, for a
 * server that waits for a whole request line, says nothing until a connect timeout, on every retry. Here the TCP
 * connection is opened first, the handshake runs on it with its own bound, and when it fails that way one plain
 * request to the same port tells whether HTTP answers there: then the error (`PEER_SPEAKS_HTTP`) says so at once.
 */
export function boundedConnector(options: buildConnector.BuildOptions, bounds: ConnectBounds): buildConnector.connector {
  const connect = undici().buildConnector({ ...options, timeout: bounds.connectMs + bounds.handshakeMs });
  return (opts, callback) => {
    if (opts.protocol !== "https:" || opts.httpSocket) return connect(opts, callback);
    const port = Number(opts.port) || 443;
    let settled = false;
    const settle = (err: Error | null, socket?: Socket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) callback(err, null);
      else callback(null, socket!);
    };
    const tcp = tcpConnect({ host: opts.hostname, port, localAddress: opts.localAddress ?? undefined });
    let timer = setTimeout(() => {
      tcp.destroy();
      settle(
        codedError("UND_ERR_CONNECT_TIMEOUT", `Connect Timeout Error (attempted address: ${opts.hostname}:${port}, timeout: ${bounds.connectMs}ms)`),
      );
    }, bounds.connectMs);
    tcp.once("error", (err) => settle(err));
    tcp.once("connect", () => {
      clearTimeout(timer);
      let failed = false;
      const handshakeFailed = (err: Error) => {
        if (failed || settled) return;
        failed = true;
        tcp.destroy();
        void explainHandshake(opts.hostname, port, err).then((explained) => settle(explained));
      };
      timer = setTimeout(
        () => handshakeFailed(codedError(HANDSHAKE_TIMEOUT, `no TLS handshake within ${bounds.handshakeMs}ms from ${opts.hostname}:${port}`)),
        bounds.handshakeMs,
      );
      connect({ ...opts, httpSocket: tcp }, (err, socket) => (err ? handshakeFailed(err) : settle(null, socket as Socket)));
    });
  };
}

/** Handshake failures that mean the peer may not speak TLS at all. */
const NOT_TLS = new Set([HANDSHAKE_TIMEOUT, "ERR_SSL_WRONG_VERSION_NUMBER", "ERR_SSL_PACKET_LENGTH_TOO_LONG", "ECONNRESET"]);

/** The handshake's error, or, where the port answers a plain HTTP request, one that says so. */
async function explainHandshake(host: string, port: number, err: Error): Promise<Error> {
  if (!NOT_TLS.has((err as { code?: string }).code ?? "")) return err;
  if (!(await answersPlainHttp(host, port))) return err;
  return codedError(PEER_SPEAKS_HTTP, `${host}:${port} answers plain HTTP, not TLS: use an http:// address, or the service's TLS port`);
}

/** Whether the port answers an HTTP request in the clear within a second (the answer's first bytes are `HTTP/`). */
function answersPlainHttp(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write(`HEAD / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
    socket.once("data", (chunk: Buffer) => done(chunk.subarray(0, 5).toString("latin1") === "HTTP/"));
  });
}

/**
 * A connection failure in the shape of Node's own (a `code` such as `ECONNREFUSED`), for undici to hand back to
 * the client. Never a user's error: it is an invariant of the client that every failure of a connection becomes a
 * `ServiceError` there (`HttpClient.attempt`), which reads this code.
 */
function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
