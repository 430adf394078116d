// Calls a server that accepts connections and never answers, through the built HTTP core, in a plain Node
// process (as the plugin runs it). Prints what happened as JSON; the process must then exit by itself.
// Argument: "request" (the per-request timeout ends it), "operation" (the operation's bound ends it first),
// or "post" (a create whose answer never comes: ambiguous, and not sent again).
"use strict";
const { createServer } = require("node:net");
const { HttpClient } = require("../../../dist/provider/http/client");
const { retryPolicy } = require("../../../dist/provider/http/retry");

const scenario = process.argv[2] ?? "request";
const settings = {
  request: { timeoutMs: 300, retry: { maxRetries: 1, baseDelayMs: 5 }, method: "GET" },
  operation: { timeoutMs: 30_000, retry: { maxRetries: 5, baseDelayMs: 5, budgetMs: 700 }, method: "GET" },
  post: { timeoutMs: 300, retry: { maxRetries: 3, baseDelayMs: 5 }, method: "POST" },
}[scenario];

const sockets = [];
const server = createServer((s) => {
  const entry = { closed: false };
  sockets.push(entry);
  s.on("close", () => (entry.closed = true));
  s.on("error", () => undefined);
  s.resume(); // read, so that the peer closing is noticed
});
server.listen(0, "127.0.0.1", async () => {
  const client = new HttpClient({
    service: "test service",
    baseUrl: `http://127.0.0.1:${server.address().port}`,
    headers: {},
    timeoutMs: settings.timeoutMs,
    retry: retryPolicy(settings.retry),
  });
  const started = Date.now();
  let message, ambiguous;
  try {
    await client.request(settings.method, "/stuck", settings.method === "POST" ? { json: {} } : {});
  } catch (err) {
    message = err.message;
    ambiguous = err.ambiguous;
  }
  const elapsedMs = Date.now() - started;
  setTimeout(() => {
    process.stdout.write(JSON.stringify({ message, ambiguous, elapsedMs, sockets: sockets.length, open: sockets.filter((s) => !s.closed).length }));
    server.close();
  }, 200);
});
