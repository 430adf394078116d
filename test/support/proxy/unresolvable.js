/**
 * Names that resolve nowhere but in the proxy: in this process, a lookup of one fails at once with `ENOTFOUND`, as the
 * system's resolver answers a name it does not know, without a query leaving the machine. Loaded into a test's own
 * process (`unresolvable(names)`, undone by the function it returns), or into the processes the Pulumi engine starts
 * (`node --require` of this file, through `NODE_OPTIONS`, with the names in `UNRESOLVABLE_NAMES`, comma-separated).
 */
const dns = require("node:dns");

function unresolvable(names) {
  const unknown = new Set(names.map((name) => name.toLowerCase()));
  const original = dns.lookup;
  dns.lookup = function lookup(hostname, options, callback) {
    const done = typeof options === "function" ? options : callback;
    if (!unknown.has(String(hostname).toLowerCase())) return original.call(dns, hostname, options, callback);
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
      code: "ENOTFOUND",
      errno: -3008,
      syscall: "getaddrinfo",
      hostname,
    });
    process.nextTick(() => done(error));
    return {};
  };
  return () => {
    dns.lookup = original;
  };
}

module.exports = { unresolvable };

if (process.env.UNRESOLVABLE_NAMES) unresolvable(process.env.UNRESOLVABLE_NAMES.split(","));
