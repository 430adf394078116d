#!/usr/bin/env node
// `npm run engine`: builds the Pulumi engine this project is tested with, the `pulumi` CLI and the YAML language
// host, from the versions pinned in toolchain/go.mod (fetched from the Go module proxy), into .engine/bin, and puts
// `pulumi-resource-pulumi-nodejs` (the dynamic provider plugin @pulumi/pulumi ships) beside them. A build whose
// versions match is reused. The last line printed is the folder. Everything else goes to stderr.
"use strict";
const { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const { goBuild, goVersion, log, runMain, sumHash } = require("./goBuild");

const repo = path.resolve(__dirname, "..");
const toolchain = path.join(repo, "toolchain");
const engineDir = path.join(repo, ".engine");
const binDir = path.join(engineDir, "bin");
const stampFile = path.join(binDir, "versions.json");

const CLI_PACKAGE = "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi";
const YAML_PACKAGE = "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml";
/** What a first build costs on a 2-core machine (measured; the figures the README gives). */
const FIRST_BUILD = "about 4 to 10 minutes on 2 cores, 4.3 GB of Go module and build caches, 200 MB in .engine/";

/** The versions toolchain/go.mod requires of a module. */
function pinned(module) {
  const mod = readFileSync(path.join(toolchain, "go.mod"), "utf8");
  const match = new RegExp(`^\\s*${module.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} (v\\S+)`, "m").exec(mod);
  if (!match) throw new Error(`toolchain/go.mod requires no ${module}`);
  return match[1];
}

function versions() {
  return {
    pulumi: pinned("github.com/pulumi/pulumi/pkg/v3"),
    yaml: pinned("github.com/pulumi/pulumi-yaml"),
    // A change of any dependency rebuilds.
    goSum: sumHash(path.join(toolchain, "go.sum")),
  };
}

function upToDate(wanted) {
  try {
    const stamp = JSON.parse(readFileSync(stampFile, "utf8"));
    return (
      JSON.stringify(stamp) === JSON.stringify(wanted) &&
      ["pulumi", "pulumi-language-yaml", "pulumi-resource-pulumi-nodejs"].every((f) => existsSync(path.join(binDir, f)))
    );
  } catch {
    return false;
  }
}

async function main() {
  const wanted = versions();
  if (upToDate(wanted)) {
    log(`The Pulumi engine ${wanted.pulumi} (YAML host ${wanted.yaml}) is built already.`);
    process.stdout.write(`${binDir}\n`);
    return 0;
  }
  const go = goVersion();
  if (!go) {
    log(
      "Building the Pulumi engine needs Go 1.26 or later (https://go.dev/dl/), and none was found on PATH.\n" +
        "Alternatively install the Pulumi CLI (https://www.pulumi.com/docs/install/): the demo uses a `pulumi` on PATH.",
    );
    return 1;
  }
  log(`Building the Pulumi engine ${wanted.pulumi} and the YAML language host ${wanted.yaml} with ${go} into ${binDir}.`);
  log(`A first build takes ${FIRST_BUILD}; later ones reuse it.`);
  // Built into a new folder, which replaces the old one only when everything is there.
  const next = path.join(engineDir, "bin.next");
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  const stampVersion = (variable, version) => `-s -w -X ${variable}=${version}`;
  // Unstamped, the CLI says v0.0.0 and the Node Automation API refuses it.
  await goBuild(`pulumi ${wanted.pulumi}`, CLI_PACKAGE, path.join(next, "pulumi"), {
    cwd: toolchain,
    ldflags: stampVersion("github.com/pulumi/pulumi/sdk/v3/go/common/version.Version", wanted.pulumi),
    tags: "osusergo,grpcnotrace",
  });
  await goBuild(`pulumi-language-yaml ${wanted.yaml}`, YAML_PACKAGE, path.join(next, "pulumi-language-yaml"), {
    cwd: toolchain,
    ldflags: stampVersion("github.com/pulumi/pulumi-yaml/pkg/version.Version", wanted.yaml.replace(/^v/, "")),
  });
  const nodejsPlugin = path.join(next, "pulumi-resource-pulumi-nodejs");
  copyFileSync(require.resolve("@pulumi/pulumi/pulumi-resource-pulumi-nodejs", { paths: [repo] }), nodejsPlugin);
  chmodSync(nodejsPlugin, 0o755);
  writeFileSync(path.join(next, "versions.json"), `${JSON.stringify(wanted)}\n`);
  rmSync(binDir, { recursive: true, force: true });
  renameSync(next, binDir);
  process.stdout.write(`${binDir}\n`);
  return 0;
}

runMain(main);
