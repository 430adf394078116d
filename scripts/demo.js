#!/usr/bin/env node
// `npm run demo`: builds the package and runs the demo (demo/main.ts), passing its flags through. The build is
// incremental (tsconfig.build.json: where dist/ is up to date it writes nothing), then the bundles the plugins load
// are written again (under a second), so that the demo runs the sources as they are.
"use strict";
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const repo = path.resolve(__dirname, "..");
const run = (args) => spawnSync(process.execPath, args, { cwd: repo, stdio: "inherit" }).status;

const built = run([require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"]) ?? 1;
if (built !== 0) process.exit(built);
const bundled = run([path.join(repo, "scripts/bundle.js")]) ?? 1;
if (bundled !== 0) process.exit(bundled);
// A Ctrl-C reaches the demo, which stops once the engine has recorded what it was doing: this process waits for it
// (npm passes the SIGINT on to it as well) rather than end first and leave the demo writing to the terminal.
process.on("SIGINT", () => undefined);
process.exit(run([path.join(repo, "dist/demo/main.js"), ...process.argv.slice(2)]) ?? 1);
