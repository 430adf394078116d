import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProxyProcess, type ProxyProcess } from "../../bench/proxyProcess";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { RUNTASK_TOKEN } from "../support/emulatorStack";
import { engineSuite, scenarioEmulator } from "../support/engine/engineSuite";
import { opsByName, type EngineRun, type EngineStack, type ResourceSpec } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { isEncryptedSecret } from "../support/engine/stateFile";
import { makeTestCa, type TestCa } from "../support/proxy/certificates";
import { tlsFront } from "../support/proxy/tlsFront";

/**
 * Services reachable only through an authenticating proxy, through the Pulumi CLI, one stack per route: the dynamic
 * resources of an inline program behind `HTTPS_PROXY`, and the provider plugins of a YAML program behind an
 * `https://` proxy of its own CA named by `runtask:proxy` and `snapshot:proxy` (secret). The services answer over
 * HTTPS at a name that only the proxies resolve: every process the engine starts fails to resolve it (a preload,
 * through NODE_OPTIONS, that answers `ENOTFOUND` without asking the network), so that a request that goes around a
 * proxy fails. The proxies' password is looked for in everything the CLI printed, the state files and the outputs.
 */
jest.setTimeout(900_000);

const SERVICE = "services.corp.test";
const USER = "corp-user";
const PASSWORD = "pr0xy-canary:p@ss/engine-9c1d";
const PASSWORD_FORMS = [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(`${USER}:${PASSWORD}`).toString("base64")];
const UNRESOLVABLE = join(__dirname, "../support/proxy/unresolvable.js");

// A little latency, so that an up of many resources is still under way when the proxy goes.
const suite = engineSuite({ emulator: { ...scenarioEmulator(["app"]), faults: { latencyMs: 20 } } });
let dir: string;
let serviceCa: TestCa;
let front: { port: number; close(): Promise<void> };
/** A plain-HTTP proxy, and one that speaks TLS with a certificate of a CA of its own. */
let proxy: ProxyProcess;
let tlsProxy: ProxyProcess;
let proxyCa: TestCa;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "behind-proxy-"));
  serviceCa = makeTestCa(dir, "service-ca");
  front = await tlsFront(suite.emulator.port, serviceCa.issue([`DNS:${SERVICE}`]));
  const options = { auth: { user: USER, password: PASSWORD }, hosts: { [SERVICE]: "127.0.0.1" } };
  proxy = await startProxyProcess(options);
  proxyCa = makeTestCa(dir, "proxy-ca");
  tlsProxy = await startProxyProcess({ ...options, tls: proxyCa.issue(["IP:127.0.0.1"]) });
});

afterAll(async () => {
  await proxy?.close();
  await tlsProxy?.close();
  await front?.close();
  rmSync(dir, { recursive: true, force: true });
});

const address = () => `https://${SERVICE}:${front.port}`;
/** Both services at the name only the proxies resolve, their certificate of the test's CA. */
const serviceConfig = (): Record<string, string> => ({
  "runtask:address": address(),
  "runtask:token": RUNTASK_TOKEN,
  "runtask:organization": "acme",
  "runtask:caCert": serviceCa.file,
  "snapshot:address": address(),
  "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
  "snapshot:caCert": serviceCa.file,
});
/** The processes the engine starts (the program, the plugins) cannot resolve the services' name. */
const unresolvedEnv = (): NodeJS.ProcessEnv => ({
  NODE_OPTIONS: `--require ${UNRESOLVABLE}`,
  UNRESOLVABLE_NAMES: SERVICE,
  NODE_COMPILE_CACHE: join(suite.project.dir, ".node-compile-cache"),
});

/** Nothing the CLI printed, no state and no output holds the proxies' password, in any form. */
function expectNoPassword(stack: EngineStack, ...runs: EngineRun[]): void {
  const texts = [stack.state().text, ...runs.flatMap((run) => [run.output, run.error ?? "", JSON.stringify(run.outputs ?? {})])];
  for (const text of texts) for (const form of PASSWORD_FORMS) expect(text).not.toContain(form);
}

const tunnelsTo = async (p: ProxyProcess) => (await p.counts()).connect[`${SERVICE}:${front.port}`] ?? 0;
const tasksNamed = (pattern: RegExp) => suite.emulator.runTask.tasks().filter((t) => pattern.test(t.name));

test("dynamic resources behind HTTPS_PROXY: preview, up, refresh; a refresh with the proxy down fails naming it; an up of 50 resources whose proxy is killed midway loses and duplicates nothing, and the next up converges; destroy", async () => {
  const stack = suite.stack("inline", "behind-proxy", {
    config: serviceConfig(),
    env: { ...unresolvedEnv(), HTTPS_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1,.internal.example" },
  });
  const workspaceId = suite.emulator.runTask.workspace("app").id;
  const base: ResourceSpec[] = [
    { type: "RunTask", name: "scanner", args: { url: "https://hooks.example.com/scan" } },
    { type: "WorkspaceRunTask", name: "scanner-on-app", args: { workspaceId, taskId: { $ref: "scanner" }, enforcementLevel: "mandatory" } },
    {
      type: "SnapshotAutoConfig",
      name: "nightly",
      args: { interval: "24h", storageType: "local", pathPrefix: "/tmp/behind-proxy", localMaxSpace: 1e9 },
    },
  ];
  stack.program({ resources: base, outputs: { scannerId: { $ref: "scanner" } } });
  const runs: EngineRun[] = [];
  const run = async (command: Promise<EngineRun>) => {
    const done = await command;
    runs.push(done);
    return done;
  };

  const preview = await run(stack.preview());
  expect(preview.error).toBeUndefined();
  expect(opsByName(preview)).toEqual({ scanner: "create", "scanner-on-app": "create", nightly: "create" });
  const up = await run(stack.up({ debug: true }));
  expect(up.error).toBeUndefined();
  expect(up.outputs?.scannerId.value).toBe(tasksNamed(/^scanner$/)[0].id);
  expect(suite.emulator.snapshot.configs.has("nightly")).toBe(true);
  expect(await tunnelsTo(proxy)).toBeGreaterThan(0);
  const refreshed = await run(stack.refresh());
  expect(refreshed.error).toBeUndefined();
  expect(Object.values(opsByName(refreshed)).every((op) => op === "refresh")).toBe(true);
  expect(refreshed.changes).not.toHaveProperty("update");
  expectServiceMatchesState(suite.emulator, stack);

  // The proxy down: a refresh fails, naming it and the variable that chose it, and the state keeps every resource.
  await proxy.kill();
  const down = await run(stack.refresh());
  expect(down.ok).toBe(false);
  expect(down.output).toContain(
    `nothing accepts connections at the proxy 127.0.0.1:${proxy.port} (from HTTPS_PROXY): check HTTPS_PROXY, and that the proxy runs there`,
  );
  expectServiceMatchesState(suite.emulator, stack);
  await proxy.restart();

  // 50 more tasks; the proxy killed once ten of them are made, and started again a second later. Requests are tried
  // again past the outage; one cut off after it was sent is looked up before anything is sent again.
  const many: ResourceSpec[] = Array.from({ length: 50 }, (_, i) => ({
    type: "RunTask",
    name: `t${i}`,
    args: { url: `https://hooks.example.com/t${i}` },
  }));
  stack.setConfig({ ...serviceConfig(), "runtask:maxRetries": "8" });
  stack.program({ resources: [...base, ...many] });
  const running = stack.start("up");
  await until(() => tasksNamed(/^t\d+$/).length >= 10);
  await proxy.kill();
  const madeWhenKilled = tasksNamed(/^t\d+$/).length;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await proxy.restart();
  const cut = await running.done;
  runs.push(cut);
  expect(madeWhenKilled).toBeLessThan(50);
  // Whether the up outlived the outage or failed on some resources (naming the proxy), each task is made once, and
  // the service holds what the state names.
  if (!cut.ok) expect(cut.output).toContain(`the proxy 127.0.0.1:${proxy.port} (from HTTPS_PROXY)`);
  const names = tasksNamed(/^t\d+$/).map((t) => t.name);
  expect(new Set(names).size).toBe(names.length);
  expectServiceMatchesState(suite.emulator, stack);
  // The next up makes what is missing, and nothing else: then the service holds the program.
  const converged = await run(stack.up());
  expect(converged.error).toBeUndefined();
  const changed = Object.entries(opsByName(converged)).filter(([, op]) => op !== "same");
  expect(changed.map(([name]) => name).sort()).toEqual(
    many
      .map((r) => r.name)
      .filter((name) => !names.includes(name))
      .sort(),
  );
  expect(changed.every(([, op]) => op === "create")).toBe(true);
  expect(
    tasksNamed(/^t\d+$/)
      .map((t) => t.name)
      .sort(),
  ).toEqual(many.map((r) => r.name).sort());
  expectServiceMatchesState(suite.emulator, stack);

  const destroyed = await run(stack.destroy());
  expect(destroyed.error).toBeUndefined();
  expect([suite.emulator.runTask.tasks().length, suite.emulator.runTask.workspaceTasks().length, suite.emulator.snapshot.configs.size]).toEqual([
    0, 0, 0,
  ]);
  expectNoPassword(stack, ...runs);
});

test("provider plugins behind an https:// proxy of its own CA named by runtask:proxy and snapshot:proxy (secret), over HTTPS_PROXY: preview, up (a function among it), refresh, destroy; the settings encrypted in the state", async () => {
  const stack = suite.stack("yaml", "behind-proxy-yaml", {
    config: { ...serviceConfig(), "runtask:proxy": tlsProxy.url, "snapshot:proxy": tlsProxy.url },
    secretKeys: ["runtask:token", "snapshot:token", "runtask:proxy", "snapshot:proxy"],
    // The https:// proxy's CA, as users trust a proxy's; HTTPS_PROXY names the other proxy, which the settings outrank.
    env: { ...unresolvedEnv(), NODE_EXTRA_CA_CERTS: proxyCa.file, HTTPS_PROXY: proxy.url },
  });
  const workspaceId = suite.emulator.runTask.workspace("app").id;
  stack.yamlProgram(`resources:
  scanner:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/scan
  scanner-on-app:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${workspaceId}
      taskId: \${scanner.id}
      enforcementLevel: mandatory
  nightly:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      interval: 86400
      pathPrefix: /tmp/behind-proxy-yaml
      storageType: local
      localMaxSpace: 1000000
variables:
  found:
    fn::invoke:
      function: runtask:index:getRunTask
      arguments:
        id: \${scanner.id}
outputs:
  scannerId: \${scanner.id}
  foundUrl: \${found.url}
`);
  await proxy.reset();
  const preview = await stack.preview();
  expect(preview.error).toBeUndefined();
  expect(opsByName(preview)).toEqual({ scanner: "create", "scanner-on-app": "create", nightly: "create" });
  const up = await stack.up({ debug: true });
  expect(up.error).toBeUndefined();
  expect(up.output).toMatch(/foundUrl\s*: "https:\/\/hooks\.example\.com\/scan"/);
  const task = tasksNamed(/^scanner$/)[0];
  expect(suite.emulator.runTask.workspaceTasks().map((w) => w.taskId)).toEqual([task.id]);
  expect(suite.emulator.snapshot.configs.has("nightly")).toBe(true);
  const refreshed = await stack.refresh();
  expect(refreshed.error).toBeUndefined();
  expect(refreshed.changes).not.toHaveProperty("update");
  expectServiceMatchesState(suite.emulator, stack);

  // The engine records each default provider's settings: the proxy among them, encrypted.
  const providers = stack.state().resources.filter((r) => r.type === "pulumi:providers:runtask" || r.type === "pulumi:providers:snapshot");
  expect(providers).toHaveLength(2);
  for (const p of providers) expect(isEncryptedSecret(p.inputs?.proxy)).toBe(true);
  const outputs = stack.state().resources.find((r) => r.type === "pulumi:pulumi:Stack")!.outputs!;
  expect(outputs.scannerId).toBe(task.id);

  const destroyed = await stack.destroy();
  expect(destroyed.error).toBeUndefined();
  expect([suite.emulator.runTask.tasks().length, suite.emulator.snapshot.configs.size]).toEqual([0, 0]);
  expect(await tunnelsTo(tlsProxy)).toBeGreaterThan(0);
  expect(await proxy.counts()).toMatchObject({ connect: {}, forward: {} });
  expectNoPassword(stack, preview, up, refreshed, destroyed);
});

async function until(condition: () => boolean, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Last: its task stays at the emulator, which the file's other tests would take for one of theirs.
test("dynamic resources with runtask:proxy and snapshot:proxy: a password in plain stack config is warned of, and is in the state as the warning says; set as a secret, neither; a function the proxy refuses fails with its message alone, no stack", async () => {
  const stack = suite.stack("inline", "proxy-settings", {
    config: { ...serviceConfig(), "runtask:proxy": proxy.url, "snapshot:proxy": proxy.url },
    env: unresolvedEnv(),
  });
  const file = join(stack.programDir, "index.js");
  writeFileSync(
    file,
    `const rt = require("pulumi-snapshot-runtask");
module.exports = async () => {
  const scanner = new rt.RunTask("proxied-scanner", { url: "https://hooks.example.com/scan" });
  return { url: rt.getRunTaskOutput({ id: scanner.id }).url };
};
`,
  );
  stack.programModule(file);
  const warnings = (run: EngineRun) => run.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message.trim());
  const plainWarning = (key: string, variable: string) =>
    `${key} holds a proxy password, and is not a secret of the stack config: the state records the stack config as it is, so it holds that ` +
    `password in clear text. Set it as a secret (\`pulumi config set --secret ${key} <url>\`), or give ${variable} in the environment, which no state records`;

  const plain = await stack.up();
  expect(plain.error).toBeUndefined();
  expect(warnings(plain)).toEqual([plainWarning("snapshot:proxy", "SERVICE_PROXY_ADDR"), plainWarning("runtask:proxy", "RUNTASK_PROXY_ADDR")]);
  // As the warning says: the default provider's inputs, the whole stack config as it was.
  expect(stack.state().text).toContain(encodeURIComponent(PASSWORD));
  for (const form of PASSWORD_FORMS) expect(plain.output).not.toContain(form);

  for (const key of ["runtask:proxy", "snapshot:proxy"]) expect((await stack.cli(["config", "set", "--secret", key, proxy.url])).code).toBe(0);
  const secret = await stack.up();
  expect(secret.error).toBeUndefined();
  expect(warnings(secret)).toEqual([]);
  expectNoPassword(stack, secret);

  // A password the proxy refuses: the function's call fails, and its error is its message, wherever the SDK reports it.
  const refusing = proxy.url.replace(encodeURIComponent(PASSWORD), "not-the-password");
  expect((await stack.cli(["config", "set", "--secret", "runtask:proxy", refusing])).code).toBe(0);
  const refused = await stack.up();
  expect(refused.ok).toBe(false);
  const errors = refused.diagnostics.filter((d) => d.severity === "error").map((d) => d.message.trim());
  expect(errors.length).toBeGreaterThan(0);
  expect(new Set(errors).size).toBe(1);
  expect(errors[0]).toMatch(/^run task service: GET \/tasks\/task-\w+ failed \(the proxy 127\.0\.0\.1:\d+ answered 407 to CONNECT /);
  expect(errors[0]).toContain(
    `(from runtask:proxy) refused its credentials (407 Proxy Authentication Required): check the user and password in runtask:proxy`,
  );
  expect(refused.output).not.toMatch(/Unhandled exception|SnapshotRunTaskError|ServiceError|\n\s+at |PromiseRejectionHandledWarning/);
  expect(opsByName(refused)).toMatchObject({ "proxied-scanner": "same" });
});
