import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
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
