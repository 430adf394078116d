import { configure } from "../../provider";
import { requireValidSettings } from "../../provider/config/configuredSettings";
import { resolveRunTaskSettings } from "../../provider/services/runtask/settings";
import { resolveSnapshotSettings } from "../../provider/services/snapshot/settings";

/**
 * Every configuration error names where its value came from, the stack config key or the environment variable, and
 * a wrong setting stops the provider when it is configured, before any resource is touched.
 */
const config = (values: Record<string, string>) => (key: string) => values[key];

describe("each problem names the setting its value came from", () => {
  test.each<[string, Record<string, string>, NodeJS.ProcessEnv, string]>([
    [
      "an address without a scheme, from the stack config",
      { "runtask:address": "runs.example.com" },
      {},
      'runtask:address: "runs.example.com" has no http:// or https:// scheme; write it as e.g. https://runs.example.com',
    ],
    [
      "the same from the environment",
      {},
      { RUNTASK_ADDR: "localhost:8080" },
      'RUNTASK_ADDR: "localhost:8080" has no http:// or https:// scheme; write it as e.g. https://localhost:8080',
    ],
    [
      "a request timeout from the environment",
      {},
      { SERVICE_CLIENT_TIMEOUT: "soon" },
      'SERVICE_CLIENT_TIMEOUT: expected seconds or a duration such as "30s", got "soon"',
    ],
    ["a retry count from the stack config", { "snapshot:maxRetries": "many" }, {}, 'snapshot:maxRetries: expected a whole number, got "many"'],
    ["a switch from the environment", {}, { RUNTASK_SKIP_VERIFY: "perhaps" }, 'RUNTASK_SKIP_VERIFY: expected true or false, got "perhaps"'],
    [
      "a CA file from the environment",
      {},
      { SERVICE_CACERT: "/nonexistent/ca.pem" },
      'SERVICE_CACERT: cannot read the CA bundle "/nonexistent/ca.pem" (ENOENT)',
    ],
    [
      "a proxy of a scheme not spoken, from the stack config",
      { "snapshot:proxy": "socks5://user:pr0xy-secret@proxy.example.com:1080" },
      {},
      "snapshot:proxy names a socks5:// proxy, and only http:// and https:// proxies are supported (the value is not shown: it may hold a password)",
    ],
    [
      "a proxy from the environment that is no URL, where the address would take it",
      { "runtask:address": "https://runs.example.com" },
      { HTTPS_PROXY: "http://user:pr0xy-secret@proxy.example.com:port" },
      "HTTPS_PROXY is not a proxy URL such as http://proxy.example.com:3128 (the value is not shown: it may hold a password)",
    ],
    [
      "HTTP_PROXY in a CGI environment",
      { "runtask:address": "http://runs.example.com" },
      { HTTP_PROXY: "proxy.example.com:3128", REQUEST_METHOD: "GET" },
      "HTTP_PROXY is not used where REQUEST_METHOD is set",
    ],
  ])("%s", (_, values, env, message) => {
    expect(() => requireValidSettings(config(values), env)).toThrow(`the provider's settings are wrong: ${message}`);
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
    expect(() => requireValidSettings(config({ "runtask:address": "https://127.0.0.1:8443" }), { HTTPS_PROXY: broken })).not.toThrow();
    expect(() => requireValidSettings(config({ "runtask:address": "https://runs.example.com" }), { HTTP_PROXY: broken })).not.toThrow();
    expect(() =>
      requireValidSettings(config({ "runtask:address": "https://runs.example.com", "runtask:proxy": "none" }), { HTTPS_PROXY: broken }),
    ).not.toThrow();
  });

  test("settings left unset are no problem until a call needs them; valid ones none at all", () => {
    expect(() => requireValidSettings(config({}), {})).not.toThrow();
    expect(() =>
      requireValidSettings(config({ "runtask:address": "https://runs.example.com/api/v2", "snapshot:requestTimeout": "45s" }), {}),
    ).not.toThrow();
  });
});

test("configure (the engine's Configure of the dynamic provider) refuses a wrong address before any resource call", () => {
  expect(() => configure({ get: (key) => ({ "snapshot:address": "vault.internal:8200" })[key] })).toThrow(
    'the provider\'s settings are wrong: snapshot:address: "vault.internal:8200" has no http:// or https:// scheme',
  );
});
