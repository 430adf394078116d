import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listRunTasks } from "../../provider/functions/runTask";
import { HttpClient } from "../../provider/http/client";
import { resolveRunTaskSettings } from "../../provider/services/runtask/settings";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";

let dir: string;
let server: Server;
let base: string;
let caPem: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tls-"));
  // A throwaway CA-signed-by-itself certificate for 127.0.0.1, made fresh for each run.
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
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  caPem = readFileSync(join(dir, "cert.pem"), "utf8");
  writeFileSync(join(dir, "ca.pem"), caPem);
  server = createServer({ key: readFileSync(join(dir, "key.pem")), cert: caPem }, (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    // An empty list, in the run task service's shape.
    res.end('{"data":[]}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeSharedDispatchers();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const client = (tls: ConstructorParameters<typeof HttpClient>[0]["tls"]) =>
  new HttpClient({ service: "test service", baseUrl: base, headers: {}, tls, timeoutMs: 5000 });

describe("TLS settings of the HTTP core", () => {
  test("an untrusted certificate is refused with a message naming the call", async () => {
    await expect(client({}).request("GET", "/x")).rejects.toThrow(/^test service: GET \/x failed \(.*(self-signed|SELF_SIGNED|certificate).*\)$/i);
  });

  test("a CA bundle file named by the settings makes it trusted", async () => {
    const lookup = (key: string) => ({ "runtask:address": base, "runtask:token": "t", "runtask:caCert": join(dir, "ca.pem") })[key];
    expect(await listRunTasks({ organization: "o" }, lookup)).toEqual([]);
  });

  test.each<[string, Record<string, string>, NodeJS.ProcessEnv, string]>([
    ["the stack config", { "runtask:caCert": "/nonexistent/ca.pem" }, {}, 'runtask:caCert: cannot read the CA bundle "/nonexistent/ca.pem" (ENOENT)'],
    ["the environment", {}, { RUNTASK_CACERT: "/nonexistent/ca.pem" }, 'RUNTASK_CACERT: cannot read the CA bundle "/nonexistent/ca.pem" (ENOENT)'],
  ])("a CA bundle file that cannot be read, named by %s, fails naming that setting", (_, config, env, message) => {
    const lookup = (key: string) => ({ "runtask:address": base, "runtask:token": "t", ...config })[key];
    expect(() => resolveRunTaskSettings(lookup, env)).toThrow(message);
  });

  test("CA PEM text makes it trusted", async () => {
    expect((await client({ caCertPem: caPem }).request("GET", "/x")).status).toBe(200);
  });

  test("skip-verify accepts it (test servers only)", async () => {
    expect((await client({ skipVerify: true }).request("GET", "/x")).status).toBe(200);
  });
});
