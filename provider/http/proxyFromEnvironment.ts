import { BlockList, isIP } from "node:net";
import { domainToASCII } from "node:url";

/**
 * The proxy the environment names for a request, read as Go's `http.ProxyFromEnvironment` reads it
 * (golang.org/x/net/http/httpproxy), which the clients of both services' own tools use (go-tfe, the Vault client):
 *
 * - `HTTPS_PROXY` for `https://` addresses, `HTTP_PROXY` for `http://` ones, each upper-case first, then lower-case;
 *   an empty variable counts as unset;
 * - `localhost` and loopback addresses (127.0.0.0/8, ::1) are never proxied;
 * - `NO_PROXY` (then `no_proxy`), a comma-separated list: `*` for every host; an IP address, with a port or not; a
 *   CIDR range; a domain name, which matches itself and its subdomains (`example.com`), or only its subdomains with a
 *   leading `.` (`.example.com`) or `*.`; a domain or address with `:port` matches that port only. Entries are
 *   lower-cased, IDNs compared in their ASCII form, and malformed ones ignored;
 * - with `REQUEST_METHOD` set (a CGI handler, whose `Proxy` request header would set `HTTP_PROXY`), `HTTP_PROXY`
 *   is refused (golang.org/s/cgihttpproxy).
 *
 * The value is returned as written, with the variable it came from; `proxyRoute.ts` parses it.
 */
export interface EnvironmentProxy {
  value: string;
  /** The variable that held it: `HTTPS_PROXY`, `https_proxy`, `HTTP_PROXY`, `http_proxy`. */
  from: string;
}

export type EnvironmentChoice = { proxy?: EnvironmentProxy } | { refused: string };

/** What the environment says for a request to `address`: a proxy, none, or a refusal (the CGI rule). */
export function proxyFromEnvironment(address: URL, env: NodeJS.ProcessEnv = process.env): EnvironmentChoice {
  const scheme = address.protocol;
  const proxy =
    scheme === "https:" ? envAny(env, "HTTPS_PROXY", "https_proxy") : scheme === "http:" ? envAny(env, "HTTP_PROXY", "http_proxy") : undefined;
  if (!proxy) return {};
  if (scheme === "http:" && env.REQUEST_METHOD) {
    return {
      refused:
        `${proxy.from} is not used where REQUEST_METHOD is set (a CGI environment, where a request's Proxy header would ` +
        "set it; golang.org/s/cgihttpproxy)",
    };
  }
  const port = address.port || (scheme === "https:" ? "443" : "80");
  return useProxy(noProxyMatchers(envAny(env, "NO_PROXY", "no_proxy")?.value ?? ""), hostOf(address), port) ? { proxy } : {};
}

/** The first of the variables that is set and not empty, with its name (Go's `getEnvAny`). */
function envAny(env: NodeJS.ProcessEnv, ...names: string[]): EnvironmentProxy | undefined {
  for (const name of names) {
    const value = env[name];
    if (value) return { value, from: name };
  }
  return undefined;
}

/** The host of an address as Go's `canonicalAddr` gives it: IPv6 without brackets; IDNs are ASCII already in a URL. */
function hostOf(address: URL): string {
  return address.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** One entry of NO_PROXY: it says whether a request to `host:port` (`ip` when the host is an address) goes direct. */
type Matcher = (host: string, port: string, ip: IpAddress | undefined) => boolean;

interface IpAddress {
  address: string;
  family: "ipv4" | "ipv6";
}

/** Go's `useProxy`: whether a request to `host:port` goes through the proxy. */
function useProxy(matchers: { ip: Matcher[]; domain: Matcher[] }, host: string, port: string): boolean {
  if (host === "localhost") return false;
  const ip = ipOf(host);
  if (ip && isLoopback(ip)) return false;
  const name = host.trim().toLowerCase();
  if (ip && matchers.ip.some((m) => m(name, port, ip))) return false;
  return !matchers.domain.some((m) => m(name, port, ip));
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** 127.0.0.0/8 and ::1, IPv4-mapped IPv6 forms included (`BlockList` compares them as Go's `net.IP` does). */
function isLoopback(ip: IpAddress): boolean {
  return LOOPBACK.check(ip.address, ip.family);
}

function ipOf(text: string): IpAddress | undefined {
  const version = isIP(text);
  return version === 0 ? undefined : { address: text, family: version === 4 ? "ipv4" : "ipv6" };
}

/** Go's `config.init` of NO_PROXY: each entry becomes an IP, CIDR or domain matcher; `*` matches everything. */
export function noProxyMatchers(noProxy: string): { ip: Matcher[]; domain: Matcher[] } {
  const ip: Matcher[] = [];
  const domain: Matcher[] = [];
  for (const raw of noProxy.split(",")) {
    const entry = raw.trim().toLowerCase();
    if (entry.length === 0) continue;
    if (entry === "*") return { ip: [() => true], domain: [() => true] };
    const cidr = parseCidr(entry);
    if (cidr) {
      ip.push((_host, _port, address) => address !== undefined && cidr.check(address.address, address.family));
      continue;
    }
    const split = splitHostPort(entry);
    let host = split ? split.host : entry;
    const port = split ? split.port : "";
    if (split && host.length === 0) continue;
    const entryIp = ipOf(host);
    if (entryIp) {
      const one = new BlockList();
      one.addAddress(entryIp.address, entryIp.family);
      ip.push((_host, p, address) => address !== undefined && one.check(address.address, address.family) && (port === "" || port === p));
      continue;
    }
    if (host.length === 0) continue;
    if (host.startsWith("*.")) host = host.slice(1);
    const matchHost = !host.startsWith(".");
    const suffix = asciiDomain(matchHost ? `.${host}` : host);
    domain.push((name, p, address) => {
      if (address !== undefined) return false;
      const matches = name.endsWith(suffix) || (matchHost && name === suffix.slice(1));
      return matches && (port === "" || port === p);
    });
  }
  return { ip, domain };
}

/** `1.2.3.0/24`, `2001:db8::/32` (Go's `net.ParseCIDR`), as a block list of that range. */
function parseCidr(entry: string): BlockList | undefined {
  const slash = entry.indexOf("/");
  if (slash < 0) return undefined;
  const ip = ipOf(entry.slice(0, slash));
  const bits = entry.slice(slash + 1);
  if (!ip || !/^\d{1,3}$/.test(bits) || Number(bits) > (ip.family === "ipv4" ? 32 : 128)) return undefined;
  const range = new BlockList();
  range.addSubnet(ip.address, Number(bits), ip.family);
  return range;
}

/**
 * Go's `net.SplitHostPort`: `host:port` or `[host]:port` (the brackets removed); undefined where there is no port
 * or more than one colon outside brackets (a bare IPv6 address).
 */
function splitHostPort(text: string): { host: string; port: string } | undefined {
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0 || text[end + 1] !== ":") return undefined;
    const port = text.slice(end + 2);
    if (port.includes(":") || port.includes("[") || port.includes("]")) return undefined;
    return { host: text.slice(1, end), port };
  }
  const colon = text.lastIndexOf(":");
  if (colon < 0 || text.indexOf(":") !== colon) return undefined;
  const host = text.slice(0, colon);
  const port = text.slice(colon + 1);
  if (/[[\]]/.test(host) || /[[\]]/.test(port)) return undefined;
  return { host, port };
}

const ASCII = /^\p{ASCII}*$/u;

/** A domain (with its leading dot) in ASCII, label by label, as a URL's host is (Go's `idnaASCII`). */
function asciiDomain(domain: string): string {
  if (ASCII.test(domain)) return domain;
  return domain
    .split(".")
    .map((label) => (label === "" || ASCII.test(label) ? label : domainToASCII(label) || label))
    .join(".");
}
