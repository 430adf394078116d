import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProxyProcess, type ProxyProcess } from "../../bench/proxyProcess";
import { DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN, startEmulator, type Emulator } from "../../emulator";
import { hasCode, messageOf } from "../../provider/common/errors";
import { getSnapshotStatus, listSnapshotAutoConfigs } from "../../provider/functions/snapshot";
import { listRunTasks } from "../../provider/functions/runTask";
import { startDeployment } from "../../provider/takeover/heldObjects";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { ServiceError } from "../../provider/http/serviceError";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { newClientStats, type ClientTuning } from "../../provider/services/tuning";
import { snapshotAutoConfigProvider as configs } from "../../provider/snapshotAutoConfig/provider";
import { checkedInputs } from "../support/checkedInputs";
import { configureProvider } from "../support/providerConfig";
import { makeTestCa, type TestCa } from "../support/proxy/certificates";
import { tlsFront } from "../support/proxy/tlsFront";

const { unresolvable } = require("../support/proxy/unresolvable") as { unresolvable(names: string[]): () => void };

/**
 * The provider against the emulator through a real proxy on loopback (the npm `proxy` package in a process of its
 * own, with Basic authentication): the services' name resolves in the proxy alone, so that a request that goes
 * around it fails. The emulator answers over HTTP, and over HTTPS with a certificate of a CA made here.
 */
const SERVICE = "services.corp.test";
const DENIED = "denied.corp.test";
const GATEWAY = "gateway.corp.test";
const USER = "corp-user";
// Characters a URL must percent-encode, so that the credentials are decoded before they are sent.
const PASSWORD = "pr0xy-canary:p@ss/7f3a";
const ORGANIZATION = "emulator-org";

let dir: string;
let restoreNames: () => void;
let emulator: Emulator;
let serviceCa: TestCa;
let front: { port: number; close(): Promise<void> };
let proxy: ProxyProcess;
/** Whether the emulator received a proxy's credentials, which are the proxy's alone. */
let credentialsReachedService = false;
/** Every message the provider gave in this file, scanned for the password at the end. */
const messages: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "proxy-"));
  restoreNames = unresolvable([SERVICE, DENIED, GATEWAY]);
  emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    interceptors: [
      (req) => {
        if (req.headers["proxy-authorization"] !== undefined) credentialsReachedService = true;
        return undefined;
      },
    ],
  });
  serviceCa = makeTestCa(dir, "service-ca");
  front = await tlsFront(emulator.port, serviceCa.issue([`DNS:${SERVICE}`, `DNS:${DENIED}`, `DNS:${GATEWAY}`]));
  proxy = await startProxyProcess({
    auth: { user: USER, password: PASSWORD },
    hosts: { [SERVICE]: "127.0.0.1", [DENIED]: "127.0.0.1", [GATEWAY]: "127.0.0.1" },
    refuse: { [`${DENIED}:${front.port}`]: 403, [`${GATEWAY}:${front.port}`]: 502 },
  });
});

afterEach(async () => {
  await closeSharedDispatchers();
  await proxy.reset();
});

afterAll(async () => {
  await closeSharedDispatchers();
  await proxy?.close();
  await front?.close();
  await emulator?.close();
  restoreNames?.();
  rmSync(dir, { recursive: true, force: true });
  expect(credentialsReachedService).toBe(false);
  for (const message of messages) {
    for (const form of [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(`${USER}:${PASSWORD}`).toString("base64")]) {
      expect(message).not.toContain(form);
    }
  }
});

const http = () => `http://${SERVICE}:${emulator.port}`;
const https = (host = SERVICE) => `https://${host}:${front.port}`;
const runTaskConfig =
  (address: string, more: Record<string, string> = {}) =>
  (key: string) =>
    ({ "runtask:address": address, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": ORGANIZATION, ...more })[key];
const quickRetries = (): ClientTuning => ({ retry: { baseDelayMs: 1, maxDelayMs: 5 }, stats: newClientStats() });

/** Runs `body` with the environment variables set (undefined: removed), then puts them back. */
async function withEnv<T>(vars: Record<string, string | undefined>, body: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  set(vars);
  try {
    return await body();
  } finally {
    set(before);
  }
}

/** The error `call` fails with, its message kept for the scan at the end. */
async function failure(call: () => Promise<unknown>): Promise<ServiceError> {
  const err = await call().then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e,
  );
  messages.push(messageOf(err));
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

const proxyName = () => `127.0.0.1:${proxy.port}`;
const NO_PROXY_ENV = {
  HTTPS_PROXY: undefined,
  https_proxy: undefined,
  HTTP_PROXY: undefined,
  http_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
};

test("the services' name resolves in the proxy alone: a request that goes around it fails", async () => {
  const err = await withEnv(NO_PROXY_ENV, () => failure(() => listRunTasks({}, runTaskConfig(http()), quickRetries())));
  expect(err.message).toContain(`the host ${SERVICE} is not found: check runtask:address`);
  expect(await proxy.counts()).toMatchObject({ connect: {}, forward: {} });
});

describe("over HTTP, through runtask:proxy and snapshot:proxy", () => {
  test("every request goes to the proxy as an absolute URL with its credentials: a task made, read, updated and deleted", async () => {
    configureProvider({
      "runtask:address": http(),
      "runtask:token": DEFAULT_RUNTASK_TOKEN,
      "runtask:organization": ORGANIZATION,
      "runtask:proxy": proxy.url,
    });
    startDeployment();
    const made = await tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan" }));
    const read = await tasks.read(made.id, made.outs);
    expect(read.props).toMatchObject({ name: "scanner" });
    const updated = await tasks.update(
      made.id,
      made.outs,
      await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/v2" }, made.outs),
    );
    expect(updated.outs).toMatchObject({ url: "https://hooks.example.com/v2" });
    startDeployment(); // a destroy, after the up that made it
    await tasks.delete(made.id, updated.outs);
    expect(emulator.runTask.tasks()).toEqual([]);
    const { forward, connect } = await proxy.counts();
    expect(connect).toEqual({});
    expect(Object.keys(forward)).toEqual(
      expect.arrayContaining([
        `POST ${http()}/api/v2/organizations/${ORGANIZATION}/tasks`,
        `GET ${http()}/api/v2/tasks/${made.id}`,
        `PATCH ${http()}/api/v2/tasks/${made.id}`,
        `DELETE ${http()}/api/v2/tasks/${made.id}`,
      ]),
    );
  });

  test("a snapshot configuration through snapshot:proxy, and its status", async () => {
    const config = { "snapshot:address": http(), "snapshot:token": DEFAULT_SNAPSHOT_TOKEN, "snapshot:proxy": proxy.url };
    configureProvider(config);
    startDeployment();
    const made = await configs.create(
      await checkedInputs(configs, { name: "nightly", interval: "24h", storageType: "local", pathPrefix: "/var/snap", localMaxSpace: 1e9 }),
    );
    expect(made.id).toBe("nightly");
    expect(await getSnapshotStatus({ name: "nightly" }, (k) => (config as Record<string, string>)[k])).toMatchObject({ lastSnapshotError: "" });
    startDeployment();
    await configs.delete(made.id, made.outs);
    expect(emulator.snapshot.configs.size).toBe(0);
    expect(Object.keys((await proxy.counts()).forward)).toContain(`POST ${http()}/v1/sys/storage/raft/snapshot-auto/config/nightly`);
  });
});

test("the snapshot service's LIST over http://: this proxy, built on Node's HTTP parser, refuses the method, and the message says what to do", async () => {
  const lookup = (key: string) =>
    ({ "snapshot:address": http(), "snapshot:token": DEFAULT_SNAPSHOT_TOKEN, "snapshot:proxy": proxy.url, "snapshot:maxRetries": "0" })[key];
  const err = await failure(() => listSnapshotAutoConfigs(lookup));
  expect(err.message).toBe(
    "snapshot service: LIST /sys/storage/raft/snapshot-auto/config failed (HTTP 400): " +
      `the proxy ${proxyName()} (from snapshot:proxy) may not forward the LIST method: use the service's https:// address (a tunnel, ` +
      "whose requests the proxy does not read), or send it direct (NO_PROXY, or the service's proxy setting none)",
  );
});

describe("over HTTPS, through a CONNECT tunnel", () => {
  test("HTTPS_PROXY (and https_proxy) carry the requests; the service's CA setting verifies the service's certificate; one tunnel serves several requests", async () => {
    for (const variable of ["HTTPS_PROXY", "https_proxy"]) {
      await closeSharedDispatchers();
      await proxy.reset();
      const lookup = runTaskConfig(https(), { "runtask:caCertPem": serviceCa.pem });
      await withEnv({ ...NO_PROXY_ENV, [variable]: proxy.url }, async () => {
        for (let i = 0; i < 6; i++) expect(await listRunTasks({}, lookup)).toEqual([]);
      });
      // Kept alive: the tunnels, and the TLS sessions in them, are used again.
      const { connect } = await proxy.counts();
      expect(Object.keys(connect)).toEqual([`${SERVICE}:${front.port}`]);
      expect(connect[`${SERVICE}:${front.port}`]).toBeLessThanOrEqual(2);
    }
  });

  test("the LIST of the snapshot service goes inside the tunnel, where the proxy does not see the method", async () => {
    const lookup = (key: string) =>
      ({ "snapshot:address": https(), "snapshot:token": DEFAULT_SNAPSHOT_TOKEN, "snapshot:caCertPem": serviceCa.pem, "snapshot:proxy": proxy.url })[
        key
      ];
    expect(await listSnapshotAutoConfigs(lookup)).toEqual([]);
  });

  test("without the service's CA its certificate is refused, through the proxy; skipTlsVerify skips the check", async () => {
    const err = await withEnv({ ...NO_PROXY_ENV, HTTPS_PROXY: proxy.url }, () =>
      failure(() => listRunTasks({}, runTaskConfig(https(), { "runtask:maxRetries": "0" }))),
    );
    expect(err.message).toMatch(/certificate/i);
    expect(err.message).toContain(`, through the proxy ${proxyName()} that HTTPS_PROXY names`);
    await withEnv({ ...NO_PROXY_ENV, HTTPS_PROXY: proxy.url }, async () => {
      expect(await listRunTasks({}, runTaskConfig(https(), { "runtask:skipTlsVerify": "true" }))).toEqual([]);
    });
  });

  test("HTTP_PROXY is not the proxy of an https:// address", async () => {
    const err = await withEnv({ ...NO_PROXY_ENV, HTTP_PROXY: proxy.url }, () =>
      failure(() => listRunTasks({}, runTaskConfig(https(), { "runtask:caCertPem": serviceCa.pem }), quickRetries())),
    );
    expect(err.message).toContain(`the host ${SERVICE} is not found`);
  });
});

describe("which requests the proxy carries", () => {
  test("NO_PROXY sends a matching host direct (the name then does not resolve), and a port that does not match through the proxy", async () => {
    const lookup = runTaskConfig(https(), { "runtask:caCertPem": serviceCa.pem });
    const direct = await withEnv({ ...NO_PROXY_ENV, HTTPS_PROXY: proxy.url, NO_PROXY: "localhost, .corp.test" }, () =>
      failure(() => listRunTasks({}, lookup, quickRetries())),
    );
    expect(direct.message).toContain(`the host ${SERVICE} is not found`);
    expect((await proxy.counts()).connect).toEqual({});
    await withEnv({ ...NO_PROXY_ENV, https_proxy: proxy.url, no_proxy: `${SERVICE}:1` }, async () => {
      expect(await listRunTasks({}, lookup)).toEqual([]);
    });
    expect((await proxy.counts()).connect).toEqual({ [`${SERVICE}:${front.port}`]: 1 });
  });

  test("the environment never proxies a loopback address; runtask:proxy does", async () => {
    const loopback = `http://127.0.0.1:${emulator.port}`;
    await withEnv({ ...NO_PROXY_ENV, HTTP_PROXY: proxy.url }, async () => {
      expect(await listRunTasks({}, runTaskConfig(loopback))).toEqual([]);
      expect((await proxy.counts()).forward).toEqual({});
      expect(await listRunTasks({}, runTaskConfig(loopback, { "runtask:proxy": proxy.url }))).toEqual([]);
    });
    const forwarded = Object.keys((await proxy.counts()).forward);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]).toMatch(new RegExp(`^GET ${loopback}/api/v2/organizations/${ORGANIZATION}/tasks\\?`));
  });

  test.each([
    ["an empty runtask:proxy", { "runtask:proxy": "" }, {}],
    ["runtask:proxy none", { "runtask:proxy": "none" }, {}],
    ["RUNTASK_PROXY_ADDR none", {}, { RUNTASK_PROXY_ADDR: "none" }],
  ])("%s sends every request direct, whatever HTTPS_PROXY says", async (_, config, env) => {
    const err = await withEnv({ ...NO_PROXY_ENV, HTTPS_PROXY: proxy.url, ...env }, () =>
      failure(() => listRunTasks({}, runTaskConfig(https(), { "runtask:caCertPem": serviceCa.pem, ...config }), quickRetries())),
    );
    expect(err.message).toContain(`the host ${SERVICE} is not found`);
    expect((await proxy.counts()).connect).toEqual({});
  });

  test("RUNTASK_PROXY_ADDR carries the requests when the stack config has no runtask:proxy; the stack config wins over it", async () => {
    await withEnv({ ...NO_PROXY_ENV, RUNTASK_PROXY_ADDR: proxy.url }, async () => {
      expect(await listRunTasks({}, runTaskConfig(https(), { "runtask:caCertPem": serviceCa.pem }))).toEqual([]);
      const err = await failure(() =>
        listRunTasks({}, runTaskConfig(https(), { "runtask:caCertPem": serviceCa.pem, "runtask:proxy": "none" }), quickRetries()),
      );
      expect(err.message).toContain(`the host ${SERVICE} is not found`);
    });
    expect((await proxy.counts()).connect).toEqual({ [`${SERVICE}:${front.port}`]: 1 });
  });
});

describe("a proxy that refuses, fails or never answers", () => {
  const wrong = () => `http://${USER}:not-the-password@127.0.0.1:${proxy.port}`;
  const anonymous = () => `http://127.0.0.1:${proxy.port}`;

  test.each([
    ["a CONNECT", () => https()],
    ["a forwarded request", () => http()],
  ])("wrong credentials: %s answered 407 fails at once, naming the proxy and the setting, never the password", async (_, address) => {
    const tuning = quickRetries();
    const err = await failure(() =>
      listRunTasks({}, runTaskConfig(address(), { "runtask:caCertPem": serviceCa.pem, "runtask:proxy": wrong() }), tuning),
    );
    expect(hasCode(err, "proxy")).toBe(true);
    expect(err.message).toContain(
      `the proxy ${proxyName()} (from runtask:proxy) refused its credentials (407 Proxy Authentication Required): check the user and password in runtask:proxy`,
    );
    expect(err.attempts).toBe(1);
    expect(tuning.stats!.retries.retries).toBe(0);
    expect((await proxy.counts()).refusedCredentials).toBe(1);
    const none = await failure(() =>
      listRunTasks({}, runTaskConfig(address(), { "runtask:caCertPem": serviceCa.pem, "runtask:proxy": anonymous() })),
    );
    expect(none.message).toContain(
      `requires credentials (407 Proxy Authentication Required): give them in runtask:proxy as http://user:password@host:port`,
    );
  });

  test("a CONNECT refused by the proxy's policy (403) fails at once; one its gateway failed (502) is tried again as a lost connection", async () => {
    const lookup = (host: string) =>
      runTaskConfig(https(host), { "runtask:caCertPem": serviceCa.pem, "runtask:proxy": proxy.url, "runtask:maxRetries": "2" });
    const denied = await failure(() => listRunTasks({}, lookup(DENIED), quickRetries()));
    expect(hasCode(denied, "proxy")).toBe(true);
    expect(denied.attempts).toBe(1);
    expect(denied.message).toContain(`the proxy ${proxyName()} answered 403 to CONNECT ${DENIED}:${front.port}`);
    expect(denied.message).toContain(`the proxy ${proxyName()} (from runtask:proxy) refused to open a tunnel to ${DENIED}:${front.port}`);
    const tuning = quickRetries();
    const gateway = await failure(() => listRunTasks({}, lookup(GATEWAY), tuning));
    expect(hasCode(gateway, "network")).toBe(true);
    expect(gateway.attempts).toBe(3);
    expect(tuning.stats!.retries.byReason).toEqual({ transport: 2 });
    expect(gateway.message).toContain(`(from runtask:proxy) could not reach the service: check runtask:address, and that the proxy can reach it`);
    expect((await proxy.counts()).refusedTargets).toBe(4);
  });

  test("a proxy that is not running: the refused connection names the proxy, and is tried again", async () => {
    const closed = await freePort();
    const tuning = quickRetries();
    const err = await withEnv({ ...NO_PROXY_ENV, HTTPS_PROXY: `127.0.0.1:${closed}` }, () =>
      failure(() => listRunTasks({}, runTaskConfig(https(), { "runtask:maxRetries": "1" }), tuning)),
    );
    expect(hasCode(err, "network")).toBe(true);
    expect(err.attempts).toBe(2);
    expect(err.message).toContain(
      `ECONNREFUSED: no connection to the proxy 127.0.0.1:${closed}: connect ECONNREFUSED 127.0.0.1:${closed}, 2 attempts): ` +
        `nothing accepts connections at the proxy 127.0.0.1:${closed} (from HTTPS_PROXY): check HTTPS_PROXY, and that the proxy runs there`,
    );
  });

  test("a proxy that takes the connection and never answers: a CONNECT fails within its bound, a forwarded request within the request's", async () => {
    const silent = await silentServer();
    try {
      const url = `http://127.0.0.1:${silent.port}`;
      const started = Date.now();
      const tunnel = await failure(() => listRunTasks({}, runTaskConfig(https(), { "runtask:proxy": url, "runtask:maxRetries": "0" })));
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(tunnel.message).toContain(`the proxy 127.0.0.1:${silent.port} did not answer CONNECT ${SERVICE}:${front.port} within 10000ms`);
      expect(tunnel.message).toContain(`took the connection but did not answer: check runtask:proxy, and the proxy's health`);
      const forwarded = await failure(() =>
        listRunTasks({}, runTaskConfig(http(), { "runtask:proxy": url, "runtask:maxRetries": "0", "runtask:requestTimeout": "1s" })),
      );
      expect(hasCode(forwarded, "timeout")).toBe(true);
      expect(forwarded.message).toContain(`(no response within 1s, through the proxy 127.0.0.1:${silent.port} that runtask:proxy names)`);
    } finally {
      await silent.close();
    }
  });

  test("an https:// proxy whose CA is not trusted is refused, naming NODE_EXTRA_CA_CERTS; one that speaks plain HTTP says so", async () => {
    const proxyCa = makeTestCa(dir, "proxy-ca");
    const tlsProxy = await startProxyProcess({
      auth: { user: USER, password: PASSWORD },
      hosts: { [SERVICE]: "127.0.0.1" },
      tls: proxyCa.issue(["IP:127.0.0.1"]),
    });
    try {
      const untrusted = await failure(() =>
        listRunTasks({}, runTaskConfig(https(), { "runtask:caCertPem": proxyCa.pem, "runtask:proxy": tlsProxy.url }), quickRetries()),
      );
      expect(hasCode(untrusted, "proxy")).toBe(true);
      expect(untrusted.attempts).toBe(1);
      // Verified under the proxy's own address (its certificate names it), against the system's CAs: its CA is unknown.
      expect(untrusted.message).toContain(`(UNABLE_TO_VERIFY_LEAF_SIGNATURE: no connection to the proxy 127.0.0.1:${tlsProxy.port}: `);
      expect(untrusted.message).toContain(
        `the certificate of the proxy 127.0.0.1:${tlsProxy.port} (from runtask:proxy) is not trusted: add its CA to the file NODE_EXTRA_CA_CERTS names`,
      );
    } finally {
      await tlsProxy.close();
    }
    const plain = await failure(() =>
      listRunTasks({}, runTaskConfig(https(), { "runtask:proxy": proxy.url.replace(/^http:/, "https:") }), quickRetries()),
    );
    expect(hasCode(plain, "proxy")).toBe(true);
    expect(plain.message).toContain(
      `the proxy ${proxyName()} (from runtask:proxy) speaks plain HTTP, not TLS: write its URL with http:// in runtask:proxy`,
    );
  });
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server that takes connections and says nothing. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
