import { createServer } from "node:http";
import { connect } from "node:net";
import { listenWithMethodRewriting, RequestRewriter } from "../../emulator/core/methodGateway";
import { localConfig, SnapshotApi } from "../support/snapshotApi";

// A body that itself looks like a LIST request: only correct framing leaves it alone.
const trap = "\r\n\r\nLIST /v1/c HTTP/1.1\r\n\r\n";
const stream = [
  "LIST /v1/a HTTP/1.1\r\nHost: x\r\n\r\n",
  `POST /v1/b HTTP/1.1\r\nContent-Length: ${trap.length}\r\n\r\n${trap}`,
  "PUT /v1/d HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nLIST \r\n3\r\nabc\r\n0\r\n\r\n",
  "LIST /v1/e?list=true HTTP/1.1\r\n\r\n",
].join("");

const expected = stream
  .replace("LIST /v1/a HTTP/1.1\r\n", "GET /v1/a HTTP/1.1\r\nx-original-method: LIST\r\n")
  .replace("LIST /v1/e?list=true HTTP/1.1\r\n", "GET /v1/e?list=true HTTP/1.1\r\nx-original-method: LIST\r\n");

describe("RequestRewriter", () => {
  test("rewrites LIST request lines only, whatever the chunk boundaries", () => {
    for (const size of [1, 2, 3, 7, 16, 1000]) {
      const rewriter = new RequestRewriter();
      const bytes = Buffer.from(stream, "latin1");
      const out: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) out.push(rewriter.push(bytes.subarray(i, i + size)));
      expect(Buffer.concat(out).toString("latin1")).toBe(expected);
    }
  });
});

describe("listenWithMethodRewriting", () => {
  test("the HTTP server's keep-alive timeout still closes an idle connection", async () => {
    const http = createServer((_req, res) => res.end("ok"));
    http.keepAliveTimeout = 200;
    const { server, port } = await listenWithMethodRewriting(http, "127.0.0.1", 0);
    try {
      const socket = connect(port, "127.0.0.1");
      const answered = new Promise<string>((resolve) => socket.once("data", (d) => resolve(String(d))));
      const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
      socket.write("LIST /v1/x HTTP/1.1\r\nHost: x\r\n\r\n");
      expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
      const idleSince = Date.now();
      const at = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(-1), 3000))]);
      socket.destroy();
      expect(at).toBeGreaterThanOrEqual(idleSince);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("a client's own x-original-method", () => {
  test("is dropped: a request is served as its request line says, a LIST as the gateway says", () => {
    const rewriter = new RequestRewriter();
    const sent = "GET /v1/a HTTP/1.1\r\nX-Original-Method: DELETE\r\nHost: x\r\n\r\nLIST /v1/b HTTP/1.1\r\nx-original-method: DELETE\r\n\r\n";
    expect(rewriter.push(Buffer.from(sent, "latin1")).toString("latin1")).toBe(
      "GET /v1/a HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/b HTTP/1.1\r\nx-original-method: LIST\r\n\r\n",
    );
  });

  test("never makes a GET of a snapshot configuration a DELETE at the emulator", async () => {
    const api = await SnapshotApi.start();
    try {
      await api.write("daily", localConfig());
      expect((await api.call("GET", "/config/daily", undefined, { headers: { "x-original-method": "DELETE" } })).status).toBe(200);
      expect(api.emulator.snapshot.configs.has("daily")).toBe(true);
      expect(api.emulator.requests.entries.map((e) => e.method)).toEqual(["POST", "GET"]);
    } finally {
      await api.close();
    }
  });
});
