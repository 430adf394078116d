// Calls a server that accepts connections and never answers, through the built HTTP core, in a plain Node
// process (as the plugin runs it). Prints what happened as JSON; the process must then exit by itself.
"use strict";
const { createServer } = require("node:net");
const { HttpClient } = require("../../../dist/provider/http/client");
const { retryPolicy } = require("../../../dist/provider/http/retry");

const sockets = [];
const server = createServer((s) => {
  const entry = { closed: false };
  sockets.push(entry);
  s.on("close", () => (entry.closed = true));
  s.on("error", () => undefined);
  s.resume(); // read, so that the peer closing is noticed
});
server.listen(0, "127.0.0.1", async () => {
  const started = Date.now();
  const client = new HttpClient({
    service: "test service",
    baseUrl: `http://127.0.0.1:${server.address().port}`,
    headers: {},
    timeoutMs: 300,
    retry: retryPolicy({ maxRetries: 1, baseDelayMs: 5 }),
  });
  let message;
  try {
    await client.request("GET", "/stuck");
  } catch (err) {
    message = err.message;
  }
  const elapsedMs = Date.now() - started;
  setTimeout(() => {
    process.stdout.write(JSON.stringify({ message, elapsedMs, sockets: sockets.length, open: sockets.filter((s) => !s.closed).length }));
    server.close();
  }, 200);
});
