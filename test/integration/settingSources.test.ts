import { configure, providers } from "../../provider";
import { checkSettings, type ServiceNamespace } from "../../provider/config/configuredSettings";
import { resolveRunTaskSettings } from "../../provider/services/runtask/settings";
import { resolveSnapshotSettings } from "../../provider/services/snapshot/settings";

/**
 * Every configuration error names where its value came from, the stack config key or the environment variable, and
 * a wrong setting stops the calls of its service's resources, before any of them is touched.
 */
const config = (values: Record<string, string>) => (key: string) => values[key];

describe("each problem names the setting its value came from", () => {
  test.each<[string, Record<string, string>, NodeJS.ProcessEnv, ServiceNamespace, string]>([
    [
      "an address without a scheme, from the stack config",
      { "runtask:address": "runs.example.com" },
      {},
      "runtask",
      'runtask:address: "runs.example.com" has no http:// or https:// scheme; write it as e.g. https://runs.example.com',
    ],
    [
      "the same from the environment",
      {},
      { RUNTASK_ADDR: "localhost:8080" },
      "runtask",
      'RUNTASK_ADDR: "localhost:8080" has no http:// or https:// scheme; write it as e.g. https://localhost:8080',
    ],
    [
      "a request timeout from the environment",
      {},
      { SERVICE_CLIENT_TIMEOUT: "soon" },
      "snapshot",
      'SERVICE_CLIENT_TIMEOUT: expected seconds or a duration such as "30s", got "soon"',
    ],
    [
      "a retry count from the stack config",
      { "snapshot:maxRetries": "many" },
      {},
      "snapshot",
      'snapshot:maxRetries: expected a whole number, got "many"',
    ],
    [
      "a switch from the environment",
      {},
      { RUNTASK_SKIP_VERIFY: "perhaps" },
      "runtask",
      'RUNTASK_SKIP_VERIFY: expected true or false, got "perhaps"',
    ],
    [
      "a CA file from the environment",
      {},
      { SERVICE_CACERT: "/nonexistent/ca.pem" },
      "snapshot",
      'SERVICE_CACERT: cannot read the CA bundle "/nonexistent/ca.pem" (ENOENT)',
    ],
    [
      "a proxy of a scheme not spoken, from the stack config",
      { "snapshot:proxy": "socks5://user:pr0xy-secret@proxy.example.com:1080" },
      {},
      "snapshot",
      "snapshot:proxy names a socks5:// proxy, and only http:// and https:// proxies are supported (the value is not shown: it may hold a password)",
    ],
    [
      "a proxy from the environment that is no URL, where the address would take it",
      { "runtask:address": "https://runs.example.com" },
      { HTTPS_PROXY: "http://user:pr0xy-secret@proxy.example.com:port" },
      "runtask",
      "HTTPS_PROXY is not a proxy URL such as http://proxy.example.com:3128 (the value is not shown: it may hold a password)",
    ],
    [
      "HTTP_PROXY in a CGI environment",
      { "runtask:address": "http://runs.example.com" },
      { HTTP_PROXY: "proxy.example.com:3128", REQUEST_METHOD: "GET" },
      "runtask",
      "HTTP_PROXY is not used where REQUEST_METHOD is set",
    ],
  ])("%s", (_, values, env, service, message) => {
    const requireSettingsOf = checkSettings(config(values), env);
    expect(() => requireSettingsOf(service)).toThrow(`the provider's settings are wrong: ${message}`);
    // The other service's resources run.
    expect(() => requireSettingsOf(service === "snapshot" ? "runtask" : "snapshot")).not.toThrow();
  });

  test("the stack config wins over the environment, and is what the message names", () => {
    const env = { RUNTASK_ADDR: "https://ok.example.com", RUNTASK_TOKEN: "t" };
    expect(() => resolveRunTaskSettings(config({ "runtask:address": "runs.example.com" }), env)).toThrow(/^runtask:address: /);
    expect(resolveRunTaskSettings(config({}), env).address).toBe("https://ok.example.com");
    expect(() => resolveSnapshotSettings(config({}), { SERVICE_ADDR: "vault:8200", SERVICE_TOKEN: "t" })).toThrow(
      /^SERVICE_ADDR: "vault:8200" has no/,
    );
  });

  test("a proxy variable no address would take is no problem: the environment never proxies loopback, nor https:// with HTTP_PROXY", () => {
    const broken = "http://proxy.example.com:port";
    const requireRunTask = (values: Record<string, string>, env: NodeJS.ProcessEnv) => checkSettings(config(values), env)("runtask");
    expect(() => requireRunTask({ "runtask:address": "https://127.0.0.1:8443" }, { HTTPS_PROXY: broken })).not.toThrow();
    expect(() => requireRunTask({ "runtask:address": "https://runs.example.com" }, { HTTP_PROXY: broken })).not.toThrow();
    expect(() => requireRunTask({ "runtask:address": "https://runs.example.com", "runtask:proxy": "none" }, { HTTPS_PROXY: broken })).not.toThrow();
  });

  test("settings left unset are no problem until a call needs them; valid ones none at all", () => {
    for (const service of ["snapshot", "runtask"] as const) {
      expect(() => checkSettings(config({}), {})(service)).not.toThrow();
      expect(() =>
        checkSettings(config({ "runtask:address": "https://runs.example.com/api/v2", "snapshot:requestTimeout": "45s" }), {})(service),
      ).not.toThrow();
    }
  });
});

test("after configure (the engine's Configure of the dynamic provider), a wrong address fails every call of its service's resources, and of theirs only", async () => {
  configure({ get: (key) => ({ "snapshot:address": "vault.internal:8200" })[key] });
  const local = { name: "nightly", interval: 60, pathPrefix: "/p", storageType: "local", localMaxSpace: 1 };
  const refusal = 'the provider\'s settings are wrong: snapshot:address: "vault.internal:8200" has no http:// or https:// scheme';
  await expect(providers.snapshotAutoConfig.check({}, local)).rejects.toThrow(refusal);
  await expect(providers.snapshotAutoConfig.read("nightly", local)).rejects.toThrow(refusal);
  await expect(providers.snapshotAutoConfig.delete("nightly", local)).rejects.toThrow(refusal);
  const checked = await providers.runTask.check({}, { name: "scanner", url: "https://hooks.example.com/scan", organization: "acme" });
  expect(checked.failures ?? []).toEqual([]);
  configure({ get: () => undefined });
});
