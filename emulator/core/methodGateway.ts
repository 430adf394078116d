import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * Node's HTTP parser accepts only the methods it knows, and LIST (which the snapshot service uses to list) is not
 * one of them: it answers 400 before any handler runs. This gateway sits in front of the emulator's HTTP server,
 * relays each connection to it, and rewrites the request line of a LIST request to GET with an
 * `x-original-method: LIST` header. It follows request framing (Content-Length and chunked bodies), so bodies
 * and keep-alive connections pass through untouched.
 */
export const ORIGINAL_METHOD_HEADER = "x-original-method";

const REWRITTEN_METHODS = new Set(["LIST"]);
const MAX_HEAD_BYTES = 64 * 1024;

export async function startMethodGateway(targetPort: number, host: string, port: number): Promise<{ server: Server; port: number }> {
  const sockets = new Set<Socket>();
  const server = createServer((front) => {
    const back = connect(targetPort, "127.0.0.1");
    sockets.add(front).add(back);
    const rewriter = new RequestRewriter();
    front.on("data", (chunk: Buffer) => {
      const out = rewriter.push(chunk);
      if (out.length > 0 && !back.write(out)) front.pause();
    });
    back.on("drain", () => front.resume());
    back.on("data", (chunk: Buffer) => {
      if (!front.write(chunk)) back.pause();
    });
    front.on("drain", () => back.resume());
    front.on("end", () => back.end());
    back.on("end", () => front.end());
    const closeBoth = () => {
      front.destroy();
      back.destroy();
      sockets.delete(front);
      sockets.delete(back);
    };
    front.on("close", closeBoth).on("error", closeBoth);
    back.on("close", closeBoth).on("error", closeBoth);
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

type State = { kind: "head" } | { kind: "body"; remaining: number } | { kind: "chunkSize" } | { kind: "chunkData"; remaining: number } | { kind: "trailer" };

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
  const header = (name: string) => lines.find((l) => l.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
  if (header("transfer-encoding")?.toLowerCase().includes("chunked")) return { kind: "chunkSize" };
  const length = Number(header("content-length") ?? "0");
  return length > 0 ? { kind: "body", remaining: length } : { kind: "head" };
}

function rewriteHead(head: string): string {
  const firstLineEnd = head.indexOf("\r\n");
  const [method, ...rest] = head.slice(0, firstLineEnd).split(" ");
  if (!REWRITTEN_METHODS.has(method)) return head;
  return `GET ${rest.join(" ")}\r\n${ORIGINAL_METHOD_HEADER}: ${method}${head.slice(firstLineEnd)}`;
}
