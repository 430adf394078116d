#!/usr/bin/env node
// `npm run vendor-clients`: builds the program of test/vendor-clients/driver, which drives the services' vendors' own
// Go clients (go-tfe, Vault's api, at the versions its go.mod pins, fetched from the Go module proxy) against the
// emulator, into .engine/vendor-clients. A module of its own, so that its dependencies never rebuild the engine; a
// build whose sources and go.sum match is reused. The last line printed is the executable; everything else goes to
// stderr.
"use strict";
const { createHash } = require("node:crypto");
const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");
const { goBuild, runMain, stampedBuild } = require("./goBuild");

const repo = path.resolve(__dirname, "..");
const moduleDir = path.join(repo, "test/vendor-clients/driver");
const executable = path.join(repo, ".engine/vendor-clients/vendor-clients");
const CLIENTS = ["github.com/hashicorp/go-tfe", "github.com/hashicorp/vault/api"];

/** The clients' pinned versions, and a hash of everything the build reads (go.mod, go.sum, the program's sources). */
function wanted() {
  const goMod = readFileSync(path.join(moduleDir, "go.mod"), "utf8");
  const versions = Object.fromEntries(
    CLIENTS.map((module) => {
      const match = new RegExp(`^\\s*${module.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} (v\\S+)`, "m").exec(goMod);
      if (!match) throw new Error(`test/vendor-clients/driver/go.mod requires no ${module}`);
      return [module, match[1]];
    }),
  );
  const hash = createHash("sha256");
  for (const file of readdirSync(moduleDir)
    .filter((f) => /\.go$|^go\.(mod|sum)$/.test(f))
    .sort()) {
    hash.update(`${file}\0`).update(readFileSync(path.join(moduleDir, file)));
  }
  return { ...versions, sources: hash.digest("hex").slice(0, 16) };
}

async function main() {
  const stamp = wanted();
  await stampedBuild({
    executable,
    stamp,
    what: `the program of the vendors' clients (${CLIENTS.map((m) => `${m} ${stamp[m]}`).join(", ")})`,
    firstBuild: "a first build: one to two minutes and 200 MB of Go modules and build cache",
    build: (next) => goBuild("vendor-clients", ".", next, { cwd: moduleDir, ldflags: "-s -w" }),
  });
  process.stdout.write(`${executable}\n`);
  return 0;
}

runMain(main);
