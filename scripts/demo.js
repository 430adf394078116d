#!/usr/bin/env node
// `npm run demo`: builds the package and runs the demo (demo/main.ts), passing its flags through. With a `pulumi`
// CLI on PATH the demo drives it through the Automation API; without one it runs the same program through the
// bundled engine driver, unless `--require-cli`: then it stops at once, before building anything, with the same
// message as automation/pulumiCli.ts. The build is incremental (tsconfig.build.json): where dist/ is up to date
// it writes nothing.
"use strict";
const { spawnSync } = require("node:child_process");
const { accessSync, constants, statSync } = require("node:fs");
const path = require("node:path");

const INSTALL_URL = "https://www.pulumi.com/docs/install/";
const repo = path.resolve(__dirname, "..");
const args = process.argv.slice(2);

function onPath(name) {
  const names = process.platform === "win32" ? [`${name}.exe`, `${name}.cmd`, name] : [name];
  for (const dir of (process.env.PATH || process.env.Path || "").split(path.delimiter)) {
    for (const n of dir ? names : []) {
      try {
        const file = path.join(dir, n);
        if (statSync(file).isFile()) {
          accessSync(file, constants.X_OK);
          return true;
        }
      } catch {
        // not here
      }
    }
  }
  return false;
}

const help = args.includes("--help") || args.includes("-h");
if (!help && args.includes("--require-cli") && !onPath("pulumi")) {
  process.stderr.write(
    "The demo needs the Pulumi CLI, and no `pulumi` executable was found on PATH.\n" +
      `Install it (${INSTALL_URL}), e.g. \`curl -fsSL https://get.pulumi.com | sh\` on Linux and macOS or ` +
      "`brew install pulumi/tap/pulumi`, open a new shell so that PATH includes it, and run again.\n",
  );
  process.exit(1);
}

const build = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: repo, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
const demo = spawnSync(process.execPath, [path.join(repo, "dist/demo/main.js"), ...args], { cwd: repo, stdio: "inherit" });
process.exit(demo.status ?? 1);
