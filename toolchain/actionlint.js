#!/usr/bin/env node
// `npm run actionlint`: builds actionlint, the checker of GitHub Actions workflow files, at the version
// toolchain/actionlint/go.mod pins (a module of its own, so that its dependencies never rebuild the engine), into
// .engine/actionlint. A build whose version and go.sum match is reused. The last line printed is the executable;
// everything else goes to stderr.
"use strict";
const { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const { goBuild, goVersion, log, sumHash } = require("./goBuild");

const repo = path.resolve(__dirname, "..");
const moduleDir = path.join(__dirname, "actionlint");
const outDir = path.join(repo, ".engine/actionlint");
const executable = path.join(outDir, "actionlint");
const stampFile = path.join(outDir, "versions.json");
const MODULE = "github.com/rhysd/actionlint";

function wantedVersions() {
  const match = /^\s*github\.com\/rhysd\/actionlint (v\S+)/m.exec(readFileSync(path.join(moduleDir, "go.mod"), "utf8"));
  if (!match) throw new Error(`toolchain/actionlint/go.mod requires no ${MODULE}`);
  return { actionlint: match[1], goSum: sumHash(path.join(moduleDir, "go.sum")) };
}

function upToDate(wanted) {
  try {
    return readFileSync(stampFile, "utf8").trim() === JSON.stringify(wanted) && existsSync(executable);
  } catch {
    return false;
  }
}

async function main() {
  const wanted = wantedVersions();
  if (upToDate(wanted)) {
    log(`actionlint ${wanted.actionlint} is built already.`);
    process.stdout.write(`${executable}\n`);
    return 0;
  }
  const go = goVersion();
  if (!go) {
    log("Building actionlint needs Go 1.26 or later (https://go.dev/dl/), and none was found on PATH.");
    return 1;
  }
  log(`Building actionlint ${wanted.actionlint} with ${go} into ${outDir} (a first build: under a minute and 30 MB of Go modules).`);
  mkdirSync(outDir, { recursive: true });
  const next = `${executable}.next`;
  await goBuild(`actionlint ${wanted.actionlint}`, `${MODULE}/cmd/actionlint`, next, {
    cwd: moduleDir,
    ldflags: `-s -w -X ${MODULE}.version=${wanted.actionlint}`,
  });
  renameSync(next, executable);
  writeFileSync(stampFile, `${JSON.stringify(wanted)}\n`);
  process.stdout.write(`${executable}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    rmSync(`${executable}.next`, { force: true });
    log(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
