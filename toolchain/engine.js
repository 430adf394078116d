#!/usr/bin/env node
// `npm run engine`: builds the Pulumi engine this project is tested with, the `pulumi` CLI and the YAML language
// host, from the versions pinned in toolchain/go.mod (fetched from the Go module proxy), into .engine/bin, and puts
// `pulumi-resource-pulumi-nodejs` (the dynamic provider plugin @pulumi/pulumi ships) beside them. A build whose
// versions match is reused. The last line printed is the folder. Everything else goes to stderr.
"use strict";
const { spawn, spawnSync } = require("node:child_process");
const { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const repo = path.resolve(__dirname, "..");
const toolchain = path.join(repo, "toolchain");
const engineDir = path.join(repo, ".engine");
const binDir = path.join(engineDir, "bin");
const stampFile = path.join(binDir, "versions.json");

const CLI_PACKAGE = "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi";
const YAML_PACKAGE = "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml";
/** What a first build costs on a 2-core machine (measured; the figures the README gives). */
const FIRST_BUILD = "about 4 to 10 minutes on 2 cores, 4.3 GB of Go module and build caches, 200 MB in .engine/";

const log = (line) => process.stderr.write(`${line}\n`);

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
    goSum: require("node:crypto")
      .createHash("sha256")
      .update(readFileSync(path.join(toolchain, "go.sum")))
      .digest("hex")
      .slice(0, 16),
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

function goVersion() {
  const go = spawnSync("go", ["version"], { encoding: "utf8" });
  return go.status === 0 ? go.stdout.trim() : undefined;
}

/** Runs `go build` of one package into `out`, printing a line of progress every 20 seconds. */
function goBuild(label, pkg, out, ldflags, tags) {
  const args = ["build", "-v", "-trimpath", ...(tags ? ["-tags", tags] : []), "-ldflags", ldflags, "-o", out, pkg];
  const env = {
    ...process.env,
    CGO_ENABLED: "0",
    // go.sum is committed and checks every module; the checksum database is not reachable from every network.
    GOSUMDB: process.env.GOSUMDB ?? "off",
    GOFLAGS: "-mod=readonly",
  };
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let packages = 0;
    let last = "";
    const child = spawn("go", args, { cwd: toolchain, env, stdio: ["ignore", "ignore", "pipe"] });
    let errors = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      for (const line of chunk.split("\n").filter(Boolean)) {
        if (/^go: downloading /.test(line) || /^[\w.\-/]+$/.test(line)) {
          packages++;
          last = line.replace(/^go: /, "");
        } else errors += `${line}\n`;
      }
    });
    const timer = setInterval(
      () => log(`  ${label}: ${Math.round((Date.now() - started) / 1000)} s, ${packages} modules and packages so far (${last})`),
      20_000,
    );
    child.on("error", (err) => {
      clearInterval(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearInterval(timer);
      if (code === 0) {
        log(`  ${label}: built in ${Math.round((Date.now() - started) / 1000)} s`);
        resolve();
      } else reject(new Error(`go build of ${pkg} failed (exit ${code}):\n${errors}`));
    });
  });
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
  await goBuild(
    `pulumi ${wanted.pulumi}`,
    CLI_PACKAGE,
    path.join(next, "pulumi"),
    stampVersion("github.com/pulumi/pulumi/sdk/v3/go/common/version.Version", wanted.pulumi),
    "osusergo,grpcnotrace",
  );
  await goBuild(
    `pulumi-language-yaml ${wanted.yaml}`,
    YAML_PACKAGE,
    path.join(next, "pulumi-language-yaml"),
    stampVersion("github.com/pulumi/pulumi-yaml/pkg/version.Version", wanted.yaml.replace(/^v/, "")),
  );
  const nodejsPlugin = path.join(next, "pulumi-resource-pulumi-nodejs");
  copyFileSync(require.resolve("@pulumi/pulumi/pulumi-resource-pulumi-nodejs", { paths: [repo] }), nodejsPlugin);
  chmodSync(nodejsPlugin, 0o755);
  writeFileSync(path.join(next, "versions.json"), `${JSON.stringify(wanted)}\n`);
  rmSync(binDir, { recursive: true, force: true });
  renameSync(next, binDir);
  process.stdout.write(`${binDir}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
