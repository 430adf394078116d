import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from "node:net";
import { startEmulator, type Emulator } from "../../emulator";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { configureProvider } from "../support/providerConfig";

/**
 * `https://` written for a service that listens in the clear: the handshake fails (at once, against a server that
 * answers the TLS hello with an HTTP error, or after its own bound, against one that waits for a whole request
 * line, as the emulator's listener does), and one plain request to the port tells that HTTP answers there. The
 * error says so, names the address setting, and is not tried again.
 */
let emulator: Emulator;
let http: HttpServer;
let silent: TcpServer;
const sockets: Socket[] = [];

beforeAll(async () => {
  emulator = await startEmulator();
  http = createHttpServer((_req, res) => res.end("ok"));
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  silent = createTcpServer((socket) => sockets.push(socket));
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
  await new Promise((r) => http.close(r));
  await emulator.close();
  await closeSharedDispatchers();
});

async function readWith(address: string, extra: Record<string, string> = {}): Promise<{ ms: number; err: Error & { code?: string } }> {
  configureProvider({ "runtask:address": address, "runtask:token": "emulator-runtask-token", "runtask:organization": "emulator-org", ...extra });
  const started = Date.now();
  const err = await tasks.read("task-abc", { organization: "emulator-org" }).then(
    () => {
      throw new Error("expected a failure");
    },
    (e: Error & { code?: string }) => e,
  );
  return { ms: Date.now() - started, err };
}

const port = (server: { address(): unknown }) => (server.address() as AddressInfo).port;

test("a server that waits for a request line (the emulator): fails after the handshake's own bound, once, saying so", async () => {
  const { ms, err } = await readWith(emulator.url.replace("http://", "https://"));
  expect(err.code).toBe("tls");
  expect(err.message).toBe(
    `run task service: GET /tasks/task-abc failed (TLS handshake failed: 127.0.0.1:${emulator.port} answers plain HTTP, not TLS: ` +
      "use an http:// address, or the service's TLS port (runtask:address))",
  );
  // The handshake's bound is 5 s; before, each of six attempts waited out a 10 s connect timeout.
  expect(ms).toBeLessThan(9_000);
});

test("a server that answers the hello with HTTP: fails at once", async () => {
  const { ms, err } = await readWith(`https://127.0.0.1:${port(http)}`);
  expect(err.code).toBe("tls");
  expect(err.message).toContain(`127.0.0.1:${port(http)} answers plain HTTP, not TLS`);
  expect(ms).toBeLessThan(2_000);
});

test("a server that says nothing at all is not taken for plain HTTP: the handshake's timeout is a transport failure, tried again", async () => {
  const { err } = await readWith(`https://127.0.0.1:${port(silent)}`, { "runtask:maxRetries": "0" });
  expect(err.code).toBe("network");
  expect(err.message).toContain(`ERR_TLS_HANDSHAKE_TIMEOUT: no TLS handshake within 5000ms from 127.0.0.1:${port(silent)}`);
});

/**
 * A real HTTPS server answers a plain HTTP request sent to its port with a 400, as the usual ones do (Go's net/http,
 * nginx): so "HTTP answers there" proves nothing after a reset or a slow handshake. This one does just that, and
 * fails the first handshake of each test as a flaky network or a busy server would: by a reset, or by saying nothing
 * past the handshake's bound. The `tls` verdict is for a peer that demonstrably speaks no TLS; these are transport
 * failures, tried again, and the read succeeds.
 */
describe("an HTTPS server whose first handshake is reset, or slow", () => {
  let dir: string;
  let https: HttpsServer;
  let front: TcpServer;
  let firstConnection: "reset" | "hang" | undefined;
  const held: Socket[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tls-verdict-"));
    const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stdio: "ignore" },
    );
    https = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
      res.writeHead(200, { "content-type": "application/vnd.api+json" });
      res.end(JSON.stringify({ data: { id: "task-abc", type: "tasks", attributes: { name: "scan", url: "https://hooks.example.com" } } }));
    });
    front = createTcpServer((socket) => {
      if (firstConnection === "reset") {
        firstConnection = undefined;
        return void socket.resetAndDestroy();
      }
      if (firstConnection === "hang") {
        firstConnection = undefined;
        return void held.push(socket);
      }
      socket.once("data", (chunk: Buffer) => {
        socket.pause();
        socket.unshift(chunk);
        // TLS to the HTTPS server; anything else is a plain request, answered as a TLS server answers one.
        if (chunk[0] === 0x16) https.emit("connection", socket);
        else socket.end("HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n");
      });
    });
    await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
  });
  afterAll(async () => {
    for (const s of held) s.destroy();
    await new Promise((r) => front.close(r));
    https.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const readThrough = () => {
    configureProvider(
      {
        "runtask:address": `https://127.0.0.1:${port(front)}`,
        "runtask:token": "t",
        "runtask:organization": "o",
        "runtask:skipTlsVerify": "true",
      },
      { retry: { baseDelayMs: 5, maxDelayMs: 20 } },
    );
    return tasks.read("task-abc", { organization: "o" });
  };

  test("a reset handshake is tried again, and the read succeeds", async () => {
    firstConnection = "reset";
    await expect(readThrough()).resolves.toMatchObject({ id: "task-abc", props: { name: "scan" } });
    expect(firstConnection).toBeUndefined();
  });

  test("a handshake past its bound is tried again, and the read succeeds", async () => {
    firstConnection = "hang";
    await expect(readThrough()).resolves.toMatchObject({ id: "task-abc" });
    expect(held).toHaveLength(1);
  });
});
