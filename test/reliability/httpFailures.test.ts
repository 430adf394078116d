import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { HttpClient } from "../../provider/http/client";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { retryPolicy } from "../../provider/http/retry";
import { ServiceError } from "../../provider/http/serviceError";
import { isAfterSend } from "../../provider/http/transportErrors";

afterAll(() => closeSharedDispatchers());

/** Servers still open when a test ends (it failed before closing them): closed, so that jest can exit. */
const open = new Set<() => Promise<void>>();
afterEach(async () => {
  await Promise.all([...open].map((close) => close()));
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void, port = 0) {
  let n = 0;
  const server = createHttpServer((req, res) => handler(req, res, ++n));
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  const close = () => {
    open.delete(close);
    return new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
  };
  open.add(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => n, close };
}

const client = (url: string, timeoutMs = 5000) =>
  new HttpClient({ service: "test service", baseUrl: url, headers: {}, timeoutMs, retry: retryPolicy({ maxRetries: 3, baseDelayMs: 5 }) });

describe("retries against a flaky server", () => {
  test("503 twice, then success", async () => {
    const s = await serve((_q, res, n) => (res.writeHead(n < 3 ? 503 : 200), res.end(n < 3 ? "" : '{"ok":1}')));
    expect((await client(s.url).request("GET", "/x")).body).toEqual({ ok: 1 });
    expect(s.count()).toBe(3);
    await s.close();
  });

  test("a 422 is answered at once, never retried", async () => {
    const s = await serve((_q, res) => (res.writeHead(422), res.end('{"errors":[{"title":"bad"}]}')));
    await expect(client(s.url).request("PATCH", "/x", { json: {} })).rejects.toThrow("test service: PATCH /x failed (HTTP 422): bad");
    expect(s.count()).toBe(1);
    await s.close();
  });

  test("a POST whose connection drops after sending is not retried, and is marked ambiguous", async () => {
    const s = await serve((req) => req.socket.destroy());
    const err = (await client(s.url)
      .request("POST", "/tasks", { json: {} })
      .catch((e) => e)) as ServiceError;
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.ambiguous).toBe(true);
    expect(s.count()).toBe(1);
    await s.close();
  });

  test("a GET whose connection drops is retried", async () => {
    const s = await serve((req, res, n) => (n === 1 ? req.socket.destroy() : (res.writeHead(200), res.end("{}"))));
    expect((await client(s.url).request("GET", "/x")).status).toBe(200);
    expect(s.count()).toBe(2);
    await s.close();
  });
});

describe("never retried after a client error", () => {
  // LIST is left out: Node's own HTTP server rejects it before any handler (the emulator's gateway admits it).
  test.each([400, 401, 403, 404, 422])("%d: one request, whatever the method", async (status) => {
    const s = await serve((_q, res) => (res.writeHead(status), res.end('{"errors":["no"]}')));
    for (const [method, idempotent] of [
      ["GET", true],
      ["PATCH", true],
      ["DELETE", true],
      ["POST", true],
      ["POST", false],
    ] as const) {
      const before = s.count();
      const err = (await client(s.url)
        .request(method, "/x", { idempotent, json: method === "PATCH" || method === "POST" ? {} : undefined })
        .catch((e) => e)) as ServiceError;
      expect(err.status).toBe(status);
      expect(err.ambiguous).toBe(false);
      expect(s.count() - before).toBe(1);
    }
    await s.close();
  });
});

describe("a request that is not safe to repeat", () => {
  test.each([500, 502, 503, 504])("%d: not sent again, and its outcome is unknown", async (status) => {
    const s = await serve((_q, res) => (res.writeHead(status), res.end("{}")));
    const err = (await client(s.url)
      .request("POST", "/tasks", { json: {} })
      .catch((e) => e)) as ServiceError;
    expect([err.status, err.ambiguous, s.count()]).toEqual([status, true, 1]);
    await s.close();
  });

  test("501 says the method is not there at all: final, not ambiguous", async () => {
    const s = await serve((_q, res) => (res.writeHead(501), res.end("{}")));
    const err = (await client(s.url)
      .request("POST", "/tasks", { json: {} })
      .catch((e) => e)) as ServiceError;
    expect([err.status, err.ambiguous, s.count()]).toEqual([501, false, 1]);
    await s.close();
  });

  test("429 and 412 say it was not carried out: sent again", async () => {
    const s = await serve((_q, res, n) => (res.writeHead(n === 1 ? 429 : n === 2 ? 412 : 201, { "retry-after": "0" }), res.end('{"id":1}')));
    expect((await client(s.url).request("POST", "/tasks", { json: {} })).status).toBe(201);
    expect(s.count()).toBe(3);
    await s.close();
  });

  test("a refused connection certainly never reached the server: sent again once it listens", async () => {
    const s = await serve((_q, res) => (res.writeHead(201), res.end("{}")));
    const url = s.url;
    const port = Number(new URL(url).port);
    await s.close();
    const later = new Promise<Awaited<ReturnType<typeof serve>>>((resolve) =>
      setTimeout(() => resolve(serve((_q, res) => (res.writeHead(201), res.end("{}")), port)), 30),
    );
    const slow = new HttpClient({
      service: "test service",
      baseUrl: url,
      headers: {},
      timeoutMs: 5000,
      retry: retryPolicy({ maxRetries: 6, baseDelayMs: 40 }, () => 1),
    });
    expect((await slow.request("POST", "/tasks", { json: {} })).status).toBe(201);
    const restarted = await later;
    expect(restarted.count()).toBe(1);
    await restarted.close();
  });
});

describe("a connection reset (a system ECONNRESET, not undici's socket error)", () => {
  const readThenReset = (req: IncomingMessage) => (req.resume(), req.on("end", () => req.socket.resetAndDestroy()));

  test("after the request was written: a create is not sent again, and its outcome is unknown", async () => {
    const s = await serve(readThenReset);
    const err = (await client(s.url)
      .request("POST", "/tasks", { json: { name: "scanner" } })
      .catch((e) => e)) as ServiceError;
    expect(err).toBeInstanceOf(ServiceError);
    expect([err.code, err.ambiguous, s.count()]).toEqual(["network", true, 1]);
    expect(err.message).toContain("ECONNRESET");
    await s.close();
  });

  test("after the request was written: a PATCH is sent again", async () => {
    const s = await serve((req, res, n) => (n === 1 ? readThenReset(req) : (res.writeHead(200), res.end("{}"))));
    expect((await client(s.url).request("PATCH", "/tasks/1", { json: {} })).status).toBe(200);
    expect(s.count()).toBe(2);
    await s.close();
  });

  test("whether the request may have reached the server is read from the write, not from the error's wording", () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", syscall: "read" });
    const pipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE", syscall: "write" });
    for (const err of [reset, pipe]) expect([isAfterSend(err, false), isAfterSend(err, true)]).toEqual([false, true]);
  });
});

describe("the final error says how many attempts were made", () => {
  test("503 until the retries run out", async () => {
    const s = await serve((_q, res) => (res.writeHead(503), res.end('{"errors":["sealed"]}')));
    await expect(client(s.url).request("GET", "/x")).rejects.toThrow("test service: GET /x failed (HTTP 503, 4 attempts): sealed");
    expect(s.count()).toBe(4);
    await s.close();
  });
});

describe("the rate limit's pacing counts against the operation's bound", () => {
  test("a request that would wait past the bound for its turn fails, naming the call, without being sent", async () => {
    const s = await serve((_q, res) => (res.writeHead(200, { "x-ratelimit-limit": "1" }), res.end("{}")));
    const paced = new HttpClient({ service: "test service", baseUrl: s.url, headers: {}, retry: retryPolicy({ budgetMs: 400 }) });
    await paced.request("GET", "/first");
    const results = await Promise.allSettled([paced.request("GET", "/second"), paced.request("GET", "/third")]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe(
      "test service: GET /third failed (operation time bound of 0.4s reached waiting for the service's rate limit)",
    );
    expect(s.count()).toBe(2);
  });
});

describe("timeouts", () => {
  // In a plain Node process, as the plugin runs: the test environment's realms change how aborts propagate.
  const run = (scenario: string) => {
    const started = Date.now();
    const out = execFileSync(process.execPath, [join(__dirname, "scripts/hungServerCall.js"), scenario], { encoding: "utf8", timeout: 10_000 });
    // The process exited by itself: nothing (socket, timer) kept it alive.
    expect(Date.now() - started).toBeLessThan(8000);
    return JSON.parse(out) as { message: string; ambiguous: boolean; elapsedMs: number; sockets: number; open: number };
  };

  test("a hung server fails the call at the request timeout, naming it, and leaves no socket or process behind", () => {
    const result = run("request");
    expect(result.message).toBe("test service: GET /stuck failed (no response within 0.3s, 2 attempts)");
    expect(result.elapsedMs).toBeLessThan(2000);
    // undici may open a spare connection after an abort; what matters is that none is left open.
    expect(result.sockets).toBeGreaterThanOrEqual(2);
    expect(result.open).toBe(0);
  });

  test("the operation's bound cuts a long request timeout short", () => {
    const result = run("operation");
    expect(result.message).toBe("test service: GET /stuck failed (no response before the operation's time bound of 0.7s)");
    expect(result.elapsedMs).toBeLessThan(5000);
    expect(result.sockets).toBeGreaterThanOrEqual(1);
    expect(result.open).toBe(0);
  });

  test("a create that times out is not sent again, and its outcome is marked unknown", () => {
    const result = run("post");
    expect(result.message).toBe("test service: POST /stuck failed (no response within 0.3s)");
    expect(result.ambiguous).toBe(true);
    expect(result.sockets).toBeGreaterThanOrEqual(1);
    expect(result.open).toBe(0);
  });
});
