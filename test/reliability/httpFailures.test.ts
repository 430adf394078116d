import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { HttpClient } from "../../provider/http/client";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { retryPolicy } from "../../provider/http/retry";
import { ServiceError } from "../../provider/http/serviceError";

afterAll(() => closeSharedDispatchers());

async function serve(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
  let n = 0;
  const server = createHttpServer((req, res) => handler(req, res, ++n));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => n,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
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
    const err = (await client(s.url).request("POST", "/tasks", { json: {} }).catch((e) => e)) as ServiceError;
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

describe("timeouts", () => {
  // In a plain Node process, as the plugin runs: the test environment's realms change how aborts propagate.
  test("a hung server fails the call within its bound, naming it, and leaves no socket or process behind", () => {
    const started = Date.now();
    const out = execFileSync(process.execPath, [join(__dirname, "scripts/hungServerCall.js")], { encoding: "utf8", timeout: 10_000 });
    const result = JSON.parse(out);
    expect(result.message).toBe("test service: GET /stuck failed (no response within 0.3s)");
    expect(result.elapsedMs).toBeLessThan(2000);
    expect(result.sockets).toBeGreaterThanOrEqual(2);
    expect(result.open).toBe(0);
    // The process exited by itself: nothing (socket, timer) kept it alive.
    expect(Date.now() - started).toBeLessThan(8000);
  });
});
