/**
 * The proxy process's entry (see proxyProcess.ts): the npm `proxy` package (an HTTP proxy: CONNECT tunnels and
 * forwarded absolute-URI requests), with Basic authentication, over HTTP or TLS, answering over IPC with what it
 * served and the CPU it has used. ESM, as the `proxy` package is. Options, as JSON in the first argument:
 *
 * - `port`: the port to listen on (127.0.0.1), 0 for a free one;
 * - `auth`: `{ user, password }` the proxy requires, else none;
 * - `tls`: `{ key, cert }` (PEM) to serve TLS (an `https://` proxy);
 * - `hosts`: names this process alone resolves, to addresses (`{ "svc.corp.test": "127.0.0.1" }`): the names of
 *   services reachable only through the proxy;
 * - `refuse`: CONNECT targets (`host:port`) answered with a status instead of a tunnel (`{ "x:443": 403 }`).
 */
import { Buffer } from "node:buffer";
import dns from "node:dns";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import process from "node:process";
import { createProxy } from "proxy";

const options = JSON.parse(process.argv[2] ?? "{}");
const hosts = options.hosts ?? {};

// The names of `hosts` resolve here, and nowhere else: the proxy connects to them with Node's default lookup.
const systemLookup = dns.lookup;
dns.lookup = function lookup(hostname, opts, callback) {
  const cb = typeof opts === "function" ? opts : callback;
  const address = hosts[String(hostname).toLowerCase()];
  if (address === undefined) return systemLookup.call(dns, hostname, opts, callback);
  const family = address.includes(":") ? 6 : 4;
  const all = typeof opts === "object" && opts !== null && opts.all;
  process.nextTick(() => (all ? cb(null, [{ address, family }]) : cb(null, address, family)));
  return {};
};

const counts = { connect: {}, forward: {}, refusedCredentials: 0, refusedTargets: 0 };
const server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }) : createHttpServer();
createProxy(server);

const expected = options.auth ? `Basic ${Buffer.from(`${options.auth.user}:${options.auth.password}`).toString("base64")}` : undefined;
const authorized = (req) => expected === undefined || req.headers["proxy-authorization"] === expected;
server.authenticate = (req) => {
  const ok = authorized(req);
  if (!ok) counts.refusedCredentials++;
  return ok;
};

// Forwarded requests are counted by method and URL, tunnels by target; refused targets answer their status.
const forward = server.listeners("request");
server.removeAllListeners("request");
server.on("request", (req, res) => {
  if (authorized(req)) bump(counts.forward, `${req.method} ${req.url}`);
  for (const listener of forward) listener.call(server, req, res);
});
const tunnel = server.listeners("connect");
server.removeAllListeners("connect");
server.on("connect", (req, socket, head) => {
  const status = options.refuse?.[req.url];
  if (status && authorized(req)) {
    counts.refusedTargets++;
    socket.end(`HTTP/1.1 ${status} Refused by policy\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
    return;
  }
  if (authorized(req)) bump(counts.connect, req.url);
  for (const listener of tunnel) listener.call(server, req, socket, head);
});

function bump(table, key) {
  table[key] = (table[key] ?? 0) + 1;
}

server.listen(options.port ?? 0, "127.0.0.1", () => {
  process.on("message", (request) => {
    if (request.kind === "reset") for (const key of Object.keys(counts)) counts[key] = typeof counts[key] === "number" ? 0 : {};
    const cpu = process.cpuUsage();
    process.send({ id: request.id, counts, cpuMs: (cpu.user + cpu.system) / 1000 });
  });
  // Never outlive the process that started it.
  process.on("disconnect", () => process.exit(0));
  process.send({ id: 0, port: server.address().port });
});
