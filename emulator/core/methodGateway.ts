import type { Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { Duplex } from "node:stream";

/**
 * Node's HTTP parser accepts only the methods it knows, and LIST (which the snapshot service uses to list) is not
 * one of them: it answers 400 before any handler runs. The emulator therefore accepts connections itself and
 * hands each to its HTTP server through a stream that rewrites the request line of a LIST request to GET with an
 * `x-original-method: LIST` header; a header of that name a client sends is dropped from every request. The
 * rewriting follows request framing (Content-Length and chunked bodies), so bodies and keep-alive connections pass
 * through untouched. Every other byte goes straight through, in the
 * same process: no second connection per client.
 */
export const ORIGINAL_METHOD_HEADER = "x-original-method";

const REWRITTEN_METHODS = new Set(["LIST"]);
const MAX_HEAD_BYTES = 64 * 1024;

/**
 * Listens on `host:port` for `http`'s connections, rewriting LIST request lines on the way in. Closing the
 * returned server also ends every open connection.
 */
export async function listenWithMethodRewriting(http: HttpServer, host: string, port: number): Promise<{ server: Server; port: number }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.setNoDelay(true);
    http.emit("connection", new RewritingConnection(socket));
  });
  const close = server.close.bind(server);
  server.close = (cb?: (err?: Error) => void) => {
    for (const s of sockets) s.destroy();
    return close(cb);
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === "object" && address ? address.port : port };
}

/**
 * A client connection as the HTTP server sees it: request bytes rewritten by a `RequestRewriter`, response
 * bytes written to the socket as they are. The socket methods the HTTP server calls are passed on.
 */
class RewritingConnection extends Duplex {
  private readonly rewriter = new RequestRewriter();

  constructor(private readonly socket: Socket) {
    super({ allowHalfOpen: false });
    socket.on("data", (chunk: Buffer) => {
      const out = this.rewriter.push(chunk);
      if (out.length > 0 && !this.push(out)) socket.pause();
    });
    socket.on("end", () => this.push(null));
    socket.on("error", (err) => this.destroy(err));
    socket.on("close", () => this.destroy());
    // The HTTP server listens here for its idle timeouts (keep-alive, server.timeout), not on the socket.
    socket.on("timeout", () => this.emit("timeout"));
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  get remotePort(): number | undefined {
    return this.socket.remotePort;
  }

  setTimeout(ms: number, callback?: () => void): this {
    this.socket.setTimeout(ms);
    if (callback) this.once("timeout", callback);
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, delay?: number): this {
    this.socket.setKeepAlive(enable, delay);
    return this;
  }

  /** A reset (TCP RST) of the client's connection, as the HTTP server's own socket would do it. */
  resetAndDestroy(): this {
    this.socket.resetAndDestroy();
    return this;
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.socket.write(chunk, callback);
  }

  /** Head and body of a response in one write to the socket, as the HTTP server meant them. */
  override _writev(chunks: { chunk: Buffer }[], callback: (err?: Error | null) => void): void {
    this.socket.cork();
    chunks.forEach(({ chunk }, i) => this.socket.write(chunk, i === chunks.length - 1 ? callback : undefined));
    this.socket.uncork();
  }

  override _final(callback: (err?: Error | null) => void): void {
    this.socket.end(callback);
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.socket.destroy(err ?? undefined);
    callback(err);
  }
}

type State =
  { kind: "head" } | { kind: "body"; remaining: number } | { kind: "chunkSize" } | { kind: "chunkData"; remaining: number } | { kind: "trailer" };

/** Streams request bytes through, rewriting request lines; tracks where each request ends. */
export class RequestRewriter {
  private buffer: Buffer = Buffer.alloc(0);
  private state: State = { kind: "head" };

  push(chunk: Buffer): Buffer {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const out: Buffer[] = [];
    for (;;) {
      const produced = this.step();
      if (produced === undefined) break;
      out.push(produced);
    }
    return Buffer.concat(out);
  }

  /** Consumes one unit from the buffer; undefined when more bytes are needed. */
  private step(): Buffer | undefined {
    if (this.buffer.length === 0) return undefined;
    switch (this.state.kind) {
      case "head": {
        const end = this.buffer.indexOf("\r\n\r\n");
        if (end < 0) {
          // Not a request head we understand: stop interpreting and relay bytes as they are.
          if (this.buffer.length > MAX_HEAD_BYTES) return this.take(this.buffer.length);
          return undefined;
        }
        const head = this.take(end + 4).toString("latin1");
        this.state = nextStateAfterHead(head);
        return Buffer.from(rewriteHead(head), "latin1");
      }
      case "body": {
        const n = Math.min(this.state.remaining, this.buffer.length);
        this.state.remaining -= n;
        const part = this.take(n);
        if (this.state.remaining === 0) this.state = { kind: "head" };
        return part;
      }
      case "chunkSize": {
        const end = this.buffer.indexOf("\r\n");
        if (end < 0) return undefined;
        const line = this.take(end + 2);
        const size = parseInt(line.toString("latin1"), 16);
        this.state = size > 0 ? { kind: "chunkData", remaining: size + 2 } : { kind: "trailer" };
        return line;
      }
      case "chunkData": {
        const n = Math.min(this.state.remaining, this.buffer.length);
        this.state.remaining -= n;
        const part = this.take(n);
        if (this.state.remaining === 0) this.state = { kind: "chunkSize" };
        return part;
      }
      case "trailer": {
        const end = this.buffer.indexOf("\r\n");
        if (end < 0) return undefined;
        const line = this.take(end + 2);
        if (end === 0) this.state = { kind: "head" };
        return line;
      }
    }
  }

  private take(n: number): Buffer {
    const part = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return part;
  }
}

function nextStateAfterHead(head: string): State {
  const lines = head.split("\r\n");
  const header = (name: string) =>
    lines
      .find((l) => l.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim();
  if (header("transfer-encoding")?.toLowerCase().includes("chunked")) return { kind: "chunkSize" };
  const length = Number(header("content-length") ?? "0");
  return length > 0 ? { kind: "body", remaining: length } : { kind: "head" };
}

/**
 * The head as the HTTP server is to see it: without any `x-original-method` header the client sent (the header is
 * the gateway's word alone: a client's would make a GET count as a DELETE, easier than the spec), and with the
 * gateway's own where a LIST request line is rewritten.
 */
function rewriteHead(head: string): string {
  const firstLineEnd = head.indexOf("\r\n");
  const [method, ...rest] = head.slice(0, firstLineEnd).split(" ");
  const headers = head
    .slice(firstLineEnd)
    .split("\r\n")
    .filter((line) => !line.toLowerCase().startsWith(`${ORIGINAL_METHOD_HEADER}:`))
    .join("\r\n");
  if (!REWRITTEN_METHODS.has(method)) return `${head.slice(0, firstLineEnd)}${headers}`;
  return `GET ${rest.join(" ")}\r\n${ORIGINAL_METHOD_HEADER}: ${method}${headers}`;
}
