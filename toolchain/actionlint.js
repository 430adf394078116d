#!/usr/bin/env node
// `npm run actionlint`: builds actionlint, the checker of GitHub Actions workflow files, at the version
// toolchain/actionlint/go.mod pins (a module of its own, so that its dependencies never rebuild the engine), into
// .engine/actionlint. A build whose version and go.sum match is reused. The last line printed is the executable;
// everything else goes to stderr.
"use strict";
const { readFileSync } = require("node:fs");
const path = require("node:path");
const { goBuild, runMain, stampedBuild, sumHash } = require("./goBuild");

const repo = path.resolve(__dirname, "..");
const moduleDir = path.join(__dirname, "actionlint");
const executable = path.join(repo, ".engine/actionlint/actionlint");
const MODULE = "github.com/rhysd/actionlint";

function wantedVersions() {
  const match = /^\s*github\.com\/rhysd\/actionlint (v\S+)/m.exec(readFileSync(path.join(moduleDir, "go.mod"), "utf8"));
  if (!match) throw new Error(`toolchain/actionlint/go.mod requires no ${MODULE}`);
  return { actionlint: match[1], goSum: sumHash(path.join(moduleDir, "go.sum")) };
}

async function main() {
  const wanted = wantedVersions();
  await stampedBuild({
    executable,
    stamp: wanted,
    what: `actionlint ${wanted.actionlint}`,
    firstBuild: "a first build: under a minute and 30 MB of Go modules",
    build: (next) =>
      goBuild(`actionlint ${wanted.actionlint}`, `${MODULE}/cmd/actionlint`, next, {
        cwd: moduleDir,
        ldflags: `-s -w -X ${MODULE}.version=${wanted.actionlint}`,
      }),
  });
  process.stdout.write(`${executable}\n`);
  return 0;
}

runMain(main);
