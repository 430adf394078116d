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
 * connection is opened first, the handshake runs on it with its own bound, and when it fails as a peer that speaks
 * no TLS makes it fail, one probe of the same port tells whether it does: then the error (`PEER_SPEAKS_HTTP`) says
 * so at once. Otherwise the failure stays what it was (a reset, a slow handshake), a transport failure tried again.
 * Over a tunnel through a proxy (`httpSocket`), the handshake is bounded the same way, but the port is not probed:
 * it is reached through the proxy only.
 */
export function boundedConnector(options: buildConnector.BuildOptions, bounds: ConnectBounds): buildConnector.connector {
  const connect = undici().buildConnector({ ...options, timeout: bounds.connectMs + bounds.handshakeMs });
  return (opts, callback) => {
    if (opts.protocol !== "https:") return connect(opts, callback);
    const port = Number(opts.port) || 443;
    const done = (err: Error | null, socket?: Socket) => (err ? callback(err, null) : callback(null, socket!));
    if (opts.httpSocket) return secureOn(connect, opts, opts.httpSocket as Socket, bounds.handshakeMs, undefined, done);
    let settled = false;
    const settle = (err: Error | null, socket?: Socket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(err, socket);
    };
    const tcp = tcpConnect({ host: opts.hostname, port, localAddress: opts.localAddress ?? undefined });
    const timer = setTimeout(() => {
      tcp.destroy();
      settle(
        codedError("UND_ERR_CONNECT_TIMEOUT", `Connect Timeout Error (attempted address: ${opts.hostname}:${port}, timeout: ${bounds.connectMs}ms)`),
      );
    }, bounds.connectMs);
    tcp.once("error", (err) => settle(err));
    tcp.once("connect", () => {
      clearTimeout(timer);
      secureOn(connect, opts, tcp, bounds.handshakeMs, { host: opts.hostname, port }, settle);
    });
  };
}

/**
 * The TLS handshake on a connection made (`socket`), bounded by `handshakeMs`. A failure is explained by a probe of
 * `probe` (see `explainHandshake`) where there is one to make.
 */
function secureOn(
  connect: buildConnector.connector,
  opts: buildConnector.Options,
  socket: Socket,
  handshakeMs: number,
  probe: { host: string; port: number } | undefined,
  settle: (err: Error | null, socket?: Socket) => void,
): void {
  let over = false;
  const finish = (err: Error | null, secured?: Socket) => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    settle(err, secured);
  };
  const handshakeFailed = (err: Error) => {
    if (over) return;
    socket.destroy();
    if (!probe) return finish(err);
    over = true;
    clearTimeout(timer);
    void explainHandshake(probe.host, probe.port, err).then((explained) => settle(explained));
  };
  const where = probe ? `${probe.host}:${probe.port}` : `${opts.hostname} through the proxy`;
  const timer = setTimeout(
    () => handshakeFailed(codedError(HANDSHAKE_TIMEOUT, `no TLS handshake within ${handshakeMs}ms from ${where}`)),
    handshakeMs,
  );
  connect({ ...opts, httpSocket: socket }, (err, secured) => (err ? handshakeFailed(err) : finish(null, secured as Socket)));
}

/** Handshake failures that a peer speaking no TLS may cause (as may a reset or a slow server that does speak it). */
const NOT_TLS = new Set([HANDSHAKE_TIMEOUT, "ERR_SSL_WRONG_VERSION_NUMBER", "ERR_SSL_PACKET_LENGTH_TOO_LONG", "ECONNRESET"]);

/** The handshake's error, or, where the port demonstrably speaks HTTP in the clear, one that says so. */
async function explainHandshake(host: string, port: number, err: Error): Promise<Error> {
  if (!NOT_TLS.has((err as { code?: string }).code ?? "")) return err;
  if (!(await answersTlsWithHttp(host, port))) return err;
  return codedError(PEER_SPEAKS_HTTP, `${host}:${port} answers plain HTTP, not TLS: use an http:// address, or the service's TLS port`);
}

/**
 * The start of a TLS handshake record (content type 22, version 3.1, two bytes of a client hello), then a line end,
 * for a server that reads requests by the line. A TLS server answers it with TLS (an alert) or closes; only a
 * server that speaks no TLS answers it in HTTP. A plain HTTP request would not tell: a TLS server of the usual
 * kinds answers one sent to its port with an HTTP 400, so that a reset or a slow handshake there would pass for a
 * plain-HTTP port.
 */
const TLS_RECORD_PROBE = Buffer.from([0x16, 0x03, 0x01, 0x00, 0x02, 0x01, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]);

/** Whether the port answers the start of a TLS handshake in HTTP within a second (its first bytes are `HTTP/`). */
function answersTlsWithHttp(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("close", () => done(false));
    socket.once("connect", () => socket.write(TLS_RECORD_PROBE));
    socket.once("data", (chunk: Buffer) => done(chunk.subarray(0, 5).toString("latin1") === "HTTP/"));
  });
}

/**
 * A connection failure in the shape of Node's own (a `code` such as `ECONNREFUSED`), for undici to hand back to
 * the client. Never a user's error, hence a plain `Error`: it is an internal invariant of the client that every
 * failure of a connection becomes a `ServiceError` in `attempt` (attempt.ts), whose classification
 * (transportErrors.ts) reads this `code`; an error of the family would put one of its own codes there instead.
 */
function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
