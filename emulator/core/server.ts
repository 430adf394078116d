import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { listenWithMethodRewriting, ORIGINAL_METHOD_HEADER } from "./methodGateway";
import { RequestLog } from "./requestLog";
import type { EmulatorRequest, EmulatorResponse, Router } from "./router";

/** One API mounted under a path prefix, with its own answers for unknown paths and methods. */
export interface Mount {
  prefix: string;
  router: Router;
  notFound(req: EmulatorRequest): EmulatorResponse;
  methodNotAllowed(req: EmulatorRequest): EmulatorResponse;
  /** A path that is not a URL path (a malformed percent-escape, `%zz`): the request is bad, whatever route it meant. */
  badPath(req: EmulatorRequest, detail: string): EmulatorResponse;
  /** Headers every answer under the prefix carries, as a service reports its API version on each. */
  headers?: Record<string, string>;
}

/**
 * What an interceptor decides: answer in place of the handler (an injected fault), destroy the connection
 * (`"drop"`), or wrap the handler: run it, then close the connection without an answer (`"dropAfter"`) or reset it
 * with a TCP RST (`"resetAfter"`). A client reads the close as a socket closed by the other side, and the reset as
 * a plain `ECONNRESET` of the system, as it would a crashed server or a proxy that gave up on the request.
 */
export type Verdict = EmulatorResponse | "drop" | "dropAfter" | "resetAfter" | undefined;

/** Runs before the handler of a matched route, and may answer, drop or wrap it (`Verdict`). */
export type Interceptor = (req: EmulatorRequest, routeKey: string) => Verdict | Promise<Verdict>;

export interface HttpServerHandle {
  url: string;
  port: number;
  log: RequestLog;
  close(): Promise<void>;
}

export async function startHttpServer(
  mounts: Mount[],
  options: {
    host?: string;
    port?: number;
    interceptors?: Interceptor[];
    /**
     * Runs after each handler of a matched route, before its answer leaves (or its connection is dropped); the answer
     * waits for it.
     */
    beforeAnswer?: () => void | Promise<void>;
  } = {},
): Promise<HttpServerHandle> {
  const log = new RequestLog();
  const interceptors = options.interceptors ?? [];
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) send(res, { status: 500, body: { errors: [`emulator error: ${String(err)}`] } });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://emulator");
    const rawBody = await readBody(req);
    const request: EmulatorRequest = {
      method: originalMethod(req),
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: parseJson(rawBody),
      rawBody,
      params: {},
    };
    const mount = mounts.find((m) => request.path.startsWith(m.prefix));
    const reply = (answer: EmulatorResponse) => send(res, mount?.headers ? { ...answer, headers: { ...mount.headers, ...answer.headers } } : answer);
    const malformed = malformedEscape(request.path);
    if (malformed) {
      // As the services' HTTP servers refuse a request line that does not parse, before any route: never a 500.
      const detail = `invalid URL escape "${malformed}" in the path`;
      const answer = mount ? mount.badPath(request, detail) : { status: 400, body: { errors: [detail] } };
      log.record(request.method, `${mount?.prefix ?? ""}(malformed)`, request.path, answer.status);
      return reply(answer);
    }
    if (!mount) {
      log.record(request.method, "(unknown)", request.path, 404);
      return send(res, { status: 404, body: { errors: ["no such path"] } });
    }
    const sub = request.path.slice(mount.prefix.length) || "/";
    const found = mount.router.find(request.method, sub);
    if (found === undefined || found === "methodNotAllowed") {
      const answer = found === undefined ? mount.notFound(request) : mount.methodNotAllowed(request);
      log.record(request.method, `${mount.prefix}(unmatched)`, request.path, answer.status);
      return reply(answer);
    }
    request.params = found.params;
    const routeKey = `${mount.prefix}${found.route.template}`;
    let after: "dropAfter" | "resetAfter" | undefined;
    for (const intercept of interceptors) {
      const verdict = await intercept(request, routeKey);
      if (verdict === "drop") {
        log.record(request.method, routeKey, request.path, 0);
        req.socket.destroy();
        return;
      }
      if (verdict === "dropAfter" || verdict === "resetAfter") after = verdict;
      else if (verdict) {
        log.record(request.method, routeKey, request.path, verdict.status);
        return reply(verdict);
      }
    }
    const answer = await found.route.handler(request);
    await options.beforeAnswer?.();
    log.record(request.method, routeKey, request.path, after ? 0 : answer.status);
    if (after === "dropAfter") req.socket.destroy();
    // A TCP RST rather than a FIN (the gateway's connection passes it on to its socket).
    else if (after === "resetAfter") req.socket.resetAndDestroy();
    else reply(answer);
  }

  // Clients connect to a listener of the emulator's own, which admits LIST (see methodGateway.ts).
  const host = options.host ?? "127.0.0.1";
  const listener = await listenWithMethodRewriting(server, host, options.port ?? 0);
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${listener.port}`,
    port: listener.port,
    log,
    close: () => new Promise<void>((resolve) => listener.server.close(() => resolve())),
  };
}

/** The first percent-escape of `path` that is not two hex digits, or (as a whole) one that decodes to no UTF-8. */
function malformedEscape(path: string): string | undefined {
  const bad = /%(?![0-9A-Fa-f]{2}).{0,2}/s.exec(path);
  if (bad) return bad[0];
  try {
    decodeURIComponent(path);
    return undefined;
  } catch {
    return /(%[0-9A-Fa-f]{2})+/.exec(path)?.[0] ?? path;
  }
}

function originalMethod(req: IncomingMessage): string {
  const original = req.headers[ORIGINAL_METHOD_HEADER];
  return (typeof original === "string" ? original : (req.method ?? "GET")).toUpperCase();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(res: ServerResponse, answer: EmulatorResponse): void {
  const headers: Record<string, string> = { ...(answer.headers ?? {}) };
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(answer.body);
  headers["content-type"] = answer.contentType ?? "application/json";
  headers["content-length"] = String(Buffer.byteLength(text));
  res.writeHead(answer.status, headers);
  res.end(text);
}
