import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chooseProxy } from "../../provider/config/proxySetting";
import { proxyFromEnvironment } from "../../provider/http/proxyFromEnvironment";

/**
 * The proxy the environment chooses, as Go's `http.ProxyFromEnvironment` chooses it: the cases of Go's own tests
 * (golang.org/x/net/http/httpproxy, proxy_test.go), then every case below asked of Go itself, a program built here
 * with the Go toolchain the engine's build uses.
 */

/** The proxy for `url` under `env`, as Go writes it: `<nil>` for none, else the URL (credentials and path dropped). */
function chosen(env: NodeJS.ProcessEnv, url: string): string {
  const route = chooseProxy(undefined, url, env);
  return route ? route.origin : "<nil>";
}

/** Go's URL of a proxy, its default port written out as ours is. */
function normalised(goUrl: string): string {
  if (goUrl === "<nil>" || goUrl === "error") return goUrl;
  const url = new URL(goUrl);
  return `${url.protocol}//${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

describe("Go's cases (proxy_test.go)", () => {
  // proxyForURLTests: the variable's value as written, the request's URL (default http://example.com), the proxy.
  test.each<[NodeJS.ProcessEnv, string, string]>([
    [{ HTTP_PROXY: "127.0.0.1:8080" }, "http://example.com", "http://127.0.0.1:8080"],
    [{ HTTP_PROXY: "cache.corp.example.com:1234" }, "http://example.com", "http://cache.corp.example.com:1234"],
    [{ HTTP_PROXY: "cache.corp.example.com" }, "http://example.com", "http://cache.corp.example.com"],
    [{ HTTP_PROXY: "localhost" }, "http://example.com", "http://localhost"],
    [{ HTTP_PROXY: "https://cache.corp.example.com" }, "http://example.com", "https://cache.corp.example.com"],
    [{ HTTP_PROXY: "http://127.0.0.1:8080" }, "http://example.com", "http://127.0.0.1:8080"],
    [{ HTTP_PROXY: "https://127.0.0.1:8080" }, "http://example.com", "https://127.0.0.1:8080"],
    [{ HTTP_PROXY: "http.proxy.tld", HTTPS_PROXY: "secure.proxy.tld" }, "http://insecure.tld/", "http://http.proxy.tld"],
    [{ HTTP_PROXY: "http.proxy.tld", HTTPS_PROXY: "secure.proxy.tld" }, "https://secure.tld/", "http://secure.proxy.tld"],
    [{ HTTP_PROXY: "http.proxy.tld", HTTPS_PROXY: "https://secure.proxy.tld" }, "https://secure.tld/", "https://secure.proxy.tld"],
    [{ HTTP_PROXY: "http.proxy.tld" }, "https://secure.tld/", "<nil>"],
    [{ HTTPS_PROXY: "https://secure.proxy.tld", REQUEST_METHOD: "PUT" }, "https://secure.tld/", "https://secure.proxy.tld"],
    [{}, "http://example.com", "<nil>"],
    [{ NO_PROXY: "example.com", HTTP_PROXY: "proxy" }, "http://example.com/", "<nil>"],
    [{ NO_PROXY: ".example.com", HTTP_PROXY: "proxy" }, "http://example.com/", "http://proxy"],
    [{ NO_PROXY: "ample.com", HTTP_PROXY: "proxy" }, "http://example.com/", "http://proxy"],
    [{ NO_PROXY: "example.com", HTTP_PROXY: "proxy" }, "http://foo.example.com/", "<nil>"],
    [{ NO_PROXY: ".foo.com", HTTP_PROXY: "proxy" }, "http://example.com/", "http://proxy"],
    [{ NO_PROXY: ".示例.com", HTTP_PROXY: "proxy" }, "http://www.示例.com", "<nil>"],
    [{ NO_PROXY: "xn--fsq092h.com", HTTP_PROXY: "proxy" }, "http://www.示例.com", "<nil>"],
    [{ NO_PROXY: "示例.com", HTTP_PROXY: "proxy" }, "http://www.xn--fsq092h.com", "<nil>"],
    [{ http_proxy: "httpproxy", https_proxy: "httpsproxy" }, "https://example.com", "http://httpsproxy"],
  ])("%j for %s: %s", (env, url, want) => {
    expect(chosen(env, url)).toBe(normalised(want));
  });

  test("HTTP_PROXY is refused where REQUEST_METHOD is set (a CGI environment)", () => {
    expect(() => chosen({ HTTP_PROXY: "http://10.1.2.3:8080", REQUEST_METHOD: "GET" }, "http://example.com")).toThrow(
      "HTTP_PROXY is not used where REQUEST_METHOD is set (a CGI environment, where a request's Proxy header would set it; golang.org/s/cgihttpproxy)",
    );
  });

  // UseProxyTests, under NO_PROXY = noProxy, each host on port 80: whether the request goes through the proxy.
  const noProxy =
    "foobar.com, .barbaz.net, *.wildcard.io, 192.168.1.1, 192.168.1.2:81, 192.168.1.3:80, 10.0.0.0/30, 2001:db8::52:0:1, [2001:db8::52:0:2]:443, [2001:db8::52:0:3]:80, 2002:db8:a::45/64";
  const useProxy: [string, boolean][] = [
    ["localhost", false],
    ["127.0.0.1", false],
    ["127.0.0.2", false],
    ["[::1]", false],
    ["[::2]", true],
    ["192.168.1.1", false],
    ["192.168.1.2", true],
    ["192.168.1.3", false],
    ["192.168.1.4", true],
    ["10.0.0.2", false],
    ["[2001:db8::52:0:1]", false],
    ["[2001:db8::52:0:2]", true],
    ["[2001:db8::52:0:3]", false],
    ["[2002:db8:a::123]", false],
    ["[fe80::424b:c8be:1643:a1b6]", true],
    ["barbaz.net", true],
    ["www.barbaz.net", false],
    ["foobar.com", false],
    ["www.foobar.com", false],
    ["foofoobar.com", true],
    ["baz.com", true],
    ["localhost.net", true],
    ["local.localhost", true],
    ["barbarbaz.net", true],
    ["wildcard.io", true],
    ["nested.wildcard.io", false],
    ["awildcard.io", true],
  ];
  test.each(useProxy)("NO_PROXY of Go's test, %s:80 proxied: %s", (host, proxied) => {
    expect(chosen({ HTTP_PROXY: "proxy:3128", NO_PROXY: noProxy }, `http://${host}:80`)).toBe(proxied ? "http://proxy:3128" : "<nil>");
  });

  test("NO_PROXY=* sends every host direct; a malformed entry is ignored", () => {
    for (const [host] of useProxy) expect(chosen({ HTTP_PROXY: "proxy:3128", NO_PROXY: "*" }, `http://${host}:80`)).toBe("<nil>");
    expect(chosen({ HTTP_PROXY: "proxy:3128", NO_PROXY: ":1" }, "http://example.com")).toBe("http://proxy:3128");
  });

  test("the variable that chose the proxy is named: upper-case first, an empty one counts as unset", () => {
    expect(proxyFromEnvironment(new URL("https://a.example"), { HTTPS_PROXY: "p:1", https_proxy: "q:1" })).toEqual({
      proxy: { value: "p:1", from: "HTTPS_PROXY" },
    });
    expect(proxyFromEnvironment(new URL("https://a.example"), { HTTPS_PROXY: "", https_proxy: "q:1" })).toEqual({
      proxy: { value: "q:1", from: "https_proxy" },
    });
    expect(proxyFromEnvironment(new URL("http://a.example"), { http_proxy: "r:1", NO_PROXY: "", no_proxy: "a.example" })).toEqual({});
  });
});

describe("the same choices as Go's own net/http", () => {
  const ENVIRONMENTS: NodeJS.ProcessEnv[] = [
    {
      HTTPS_PROXY: "secure.proxy:3128",
      HTTP_PROXY: "http://user:pass@plain.proxy:8080",
      NO_PROXY:
        "foobar.com, .barbaz.net, *.wildcard.io, 192.168.1.1, 192.168.1.2:81, 192.168.1.3:80, 10.0.0.0/30, 2001:db8::52:0:1, [2001:db8::52:0:2]:443, [2001:db8::52:0:3]:80, 2002:db8:a::45/64",
    },
    { https_proxy: "https://u:p@secure.proxy", http_proxy: "plain.proxy" },
    { HTTPS_PROXY: "http://upper.proxy", https_proxy: "http://lower.proxy", HTTP_PROXY: "", http_proxy: "lower.plain:3128" },
    { HTTPS_PROXY: "p.proxy:1", HTTP_PROXY: "p.proxy:2", NO_PROXY: "*" },
    {
      HTTPS_PROXY: "p.proxy:1",
      HTTP_PROXY: "p.proxy:2",
      NO_PROXY: "example.com:8443, .corp.example.com, 10.0.0.0/8, [::2]:443, 示例.com",
      no_proxy: "ignored.example",
    },
    { HTTPS_PROXY: "p.proxy:1", NO_PROXY: "", no_proxy: "EXAMPLE.com , ,svc.internal:80" },
    { HTTP_PROXY: "p.proxy:1", HTTPS_PROXY: "https://s.proxy", REQUEST_METHOD: "GET" },
  ];
  const HOSTS = [
    "example.com",
    "EXAMPLE.com",
    "www.example.com",
    "svc.corp.example.com",
    "corp.example.com",
    "foobar.com",
    "www.foobar.com",
    "foofoobar.com",
    "barbaz.net",
    "www.barbaz.net",
    "nested.wildcard.io",
    "wildcard.io",
    "svc.internal",
    "ignored.example",
    "www.示例.com",
    "localhost",
    "127.0.0.1",
    "127.9.9.9",
    "[::1]",
    "[::2]",
    "[::ffff:127.0.0.1]",
    "[::ffff:10.0.0.2]",
    "10.0.0.2",
    "10.0.0.9",
    "192.168.1.1",
    "192.168.1.2",
    "192.168.1.3",
    "[2001:db8::52:0:1]",
    "[2001:db8::52:0:2]",
    "[2002:db8:a::123]",
  ];
  const URLS = HOSTS.flatMap((host) => [
    `https://${host}`,
    `https://${host}:8443`,
    `http://${host}`,
    `http://${host}:80`,
    `http://${host}:8080/v1/x?y=1`,
  ]);

  let goProgram: string;
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "go-proxy-"));
    writeFileSync(join(dir, "main.go"), GO_PROGRAM);
    goProgram = join(dir, "proxy-from-environment");
    // Go is the engine's build tool (npm run engine): a machine that runs these tests has it.
    execFileSync("go", ["build", "-o", goProgram, "main.go"], {
      cwd: dir,
      env: { ...process.env, GOFLAGS: "-trimpath", CGO_ENABLED: "0" },
      stdio: "pipe",
    });
  }, 300_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.each(ENVIRONMENTS.map((env, i) => [i + 1, env] as const))("environment %i: %j", (_, env) => {
    const answers = execFileSync(goProgram, [], { input: URLS.join("\n"), env: { PATH: process.env.PATH, ...env }, encoding: "utf8" })
      .trimEnd()
      .split("\n");
    expect(answers).toHaveLength(URLS.length);
    const ours = URLS.map((url) => {
      try {
        return chosen(env, url);
      } catch {
        return "error";
      }
    });
    expect(ours.map((answer, i) => `${URLS[i]} -> ${answer}`)).toEqual(answers.map((answer, i) => `${URLS[i]} -> ${normalised(answer)}`));
  });
});

/** Reads URLs, one a line, and writes the proxy `http.ProxyFromEnvironment` gives each: `<nil>`, `error`, or its URL. */
const GO_PROGRAM = `package main

import (
	"bufio"
	"fmt"
	"net/http"
	"net/url"
	"os"
)

func main() {
	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		u, err := url.Parse(lines.Text())
		if err != nil {
			fmt.Println("error")
			continue
		}
		proxy, err := http.ProxyFromEnvironment(&http.Request{URL: u})
		switch {
		case err != nil:
			fmt.Println("error")
		case proxy == nil:
			fmt.Println("<nil>")
		default:
			fmt.Println(proxy.Scheme + "://" + proxy.Host)
		}
	}
}
`;
