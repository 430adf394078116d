// `node provisionElsewhere.js <options.json>`, from a consumer project: one `provision` of the helper as that project
// installed it, in a process of its own: an update of a stack run from elsewhere, as another service or a pipeline
// runs one. Prints `@@result ` and JSON ({ ok, changes } or { ok: false, kind, message }) as its last line.
"use strict";
const { readFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { join } = require("node:path");

const { provision } = createRequire(join(process.cwd(), "package.json"))("pulumi-snapshot-runtask/automation");
const options = JSON.parse(readFileSync(process.argv[2], "utf8"));
provision(options).then(
  ({ changes }) => process.stdout.write(`@@result ${JSON.stringify({ ok: true, changes })}\n`),
  (err) => {
    process.stdout.write(`@@result ${JSON.stringify({ ok: false, kind: err.kind, message: err.message })}\n`);
    process.exitCode = 1;
  },
);
