import { createConsumerProject, type ConsumerProject } from "../../toolchain/consumerProject";
import { secret, UNKNOWN } from "../support/plugin/pluginClient";
import { startNativeProviderPlugin, type NativeProviderPlugin } from "../support/plugin/pluginProcess";

/** The provider plugins judge their settings as the calls will read them: the configuration, then the environment. */
let project: ConsumerProject;
const plugins: NativeProviderPlugin[] = [];

beforeAll(() => {
  project = createConsumerProject({ name: "plugin-configure" });
});
afterAll(async () => {
  for (const p of plugins) await p.stop();
  project?.remove();
});

async function start(env: NodeJS.ProcessEnv): Promise<NativeProviderPlugin> {
  const plugin = await startNativeProviderPlugin(project.dir, "runtask", { RUNTASK_ADDR: undefined, RUNTASK_TOKEN: undefined, ...env });
  plugins.push(plugin);
  return plugin;
}

test("Configure fails on a wrong address from the environment, naming the variable, before any resource call", async () => {
  const plugin = await start({ RUNTASK_ADDR: "runs.example.com" });
  await expect(plugin.client.configure({ token: secret("t") })).rejects.toThrow(
    'runtask: the provider\'s settings are wrong: RUNTASK_ADDR: "runs.example.com" has no http:// or https:// scheme',
  );
});

test("a provider's failure reads as the provider words it, as the engine shows it, not as `2 UNKNOWN: ...`", async () => {
  const plugin = await start({ RUNTASK_ADDR: "runs.example.com" });
  const err = await plugin.client.configure({ token: secret("t") }).catch((e: unknown) => e);
  expect(err).toMatchObject({ code: 2, status: "UNKNOWN" });
  expect((err as Error).message).toMatch(/^runtask: the provider's settings are wrong: RUNTASK_ADDR/);
});

test("CheckConfig names the key of a wrong value, and waits for an unknown one", async () => {
  const plugin = await start({});
  expect(await plugin.client.checkConfig({ address: "localhost:8080", maxRetries: "many" })).toEqual([
    { property: "address", reason: 'runtask:address: "localhost:8080" has no http:// or https:// scheme; write it as e.g. https://localhost:8080' },
    { property: "maxRetries", reason: 'runtask:maxRetries: expected a whole number, got "many"' },
  ]);
  expect(await plugin.client.checkConfig({ address: UNKNOWN, requestTimeout: UNKNOWN })).toEqual([]);
});

test("CheckConfig names a wrong proxy without repeating it; Configure names a proxy variable the address would take", async () => {
  const plugin = await start({ HTTPS_PROXY: "http://user:pr0xy-secret@proxy.example.com:port" });
  const failures = await plugin.client.checkConfig({ proxy: "socks5://user:pr0xy-secret@proxy.example.com:1080" });
  expect(failures).toEqual([
    {
      property: "proxy",
      reason:
        "runtask:proxy names a socks5:// proxy, and only http:// and https:// proxies are supported (the value is not shown: it may hold a password)",
    },
  ]);
  await expect(plugin.client.configure({ address: "https://runs.example.com", token: secret("t") })).rejects.toThrow(
    "runtask: the provider's settings are wrong: HTTPS_PROXY is not a proxy URL such as http://proxy.example.com:3128 (the value is not shown: it may hold a password)",
  );
});
