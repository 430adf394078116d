import { SnapshotRunTaskError } from "../common/errors";

/** A proxy the requests of a service go through, and where it was chosen, for messages. */
export interface ProxyRoute {
  protocol: "http:" | "https:";
  /** `http://host:port`, without the credentials: what connections are opened to. */
  origin: string;
  /** The `Proxy-Authorization` header's value (Basic), where the URL holds credentials. */
  authorization?: string;
  /** How messages name the proxy: `host:port`, never with its credentials. */
  name: string;
  /** The setting or variable that chose it: `snapshot:proxy`, `SERVICE_PROXY_ADDR`, `HTTPS_PROXY`, `https_proxy`. */
  from: string;
  /** The credentials in the forms they may be quoted in, for redaction: the password, and `user:password`. */
  secrets: string[];
}

/** How a proxy URL is written, for messages. */
export const PROXY_EXAMPLE = "http://proxy.example.com:3128";

/**
 * A proxy URL as Go's `httpproxy` parses one: a full URL, or `host[:port]`, taken as `http://`; the port defaults to
 * the scheme's (80, 443); a path is ignored. Credentials in it (`http://user:password@host:port`) are sent as
 * Basic `Proxy-Authorization`, to the proxy only. Only `http://` and `https://` proxies are spoken.
 *
 * Messages never repeat the value, which may hold a password: they name `from`, the setting or variable it came
 * from, and the proxy as `host:port`.
 */
export function proxyRoute(from: string, value: string): ProxyRoute {
  const url = parseLikeGo(value.trim());
  if (!url) throw invalidProxy(from, `is not a proxy URL such as ${PROXY_EXAMPLE}`);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalidProxy(from, `names a ${url.protocol}// proxy, and only http:// and https:// proxies are supported`);
  }
  let user: string;
  let password: string;
  try {
    user = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw invalidProxy(from, "holds credentials that are not percent-encoded correctly");
  }
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const name = `${url.hostname}:${port}`;
  const credentials = url.username || url.password ? `${user}:${password}` : undefined;
  return {
    protocol: url.protocol,
    origin: `${url.protocol}//${name}`,
    authorization: credentials === undefined ? undefined : `Basic ${Buffer.from(credentials).toString("base64")}`,
    name,
    from,
    secrets: [password, credentials, url.password].filter((s): s is string => !!s),
  };
}

/**
 * Go's `parseProxy`: the value as a URL, else, where that fails or gives no scheme and host (`proxy:3128` reads as
 * the scheme `proxy:`), the value after `http://`; but not a value with a scheme already, which Go would read as the
 * host `http` (`http://http://...`): that one is refused.
 */
function parseLikeGo(value: string): URL | undefined {
  if (value === "") return undefined;
  const asIs = parse(value);
  if (asIs && asIs.protocol && asIs.hostname) return asIs;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  const withScheme = parse(`http://${value}`);
  return withScheme?.hostname ? withScheme : undefined;
}

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function invalidProxy(from: string, what: string): SnapshotRunTaskError {
  return new SnapshotRunTaskError("invalid_setting", `${from} ${what} (the value is not shown: it may hold a password)`);
}
