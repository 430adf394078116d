#!/usr/bin/env node
// `npm run sdks` (after `npm run schema`): writes the provider plugins' SDKs into plugin/sdks/ from
// plugin/schema/<name>.json, with the generator of toolchain/sdkgen (Pulumi's code generators at the version
// toolchain/go.mod pins), then tidies the Go module of plugin/sdks/go. A test runs the same generator and fails on
// any difference from what is committed.
"use strict";
const { execFileSync } = require("node:child_process");
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const repo = path.resolve(__dirname, "..");
const toolchain = path.join(repo, "toolchain");
/** The folder of the SDKs, one folder per language in it (plugin/schema/build.ts names it for the Go import paths). */
const SDKS = path.join(repo, "plugin", "sdks");
const PLUGINS = ["snapshot", "runtask"];
const GO_MODULE = "github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask/plugin/sdks/go";
const GO_SDK = "github.com/pulumi/pulumi/sdk/v3";

/** go.sum is committed and checks every module; the checksum database is not reachable from every network. */
function goEnv(extra = {}) {
  return { ...process.env, CGO_ENABLED: "0", GOSUMDB: process.env.GOSUMDB ?? "off", ...extra };
}

/** The version toolchain/go.mod requires of a module. */
function pinned(module) {
  const mod = readFileSync(path.join(toolchain, "go.mod"), "utf8");
  const match = new RegExp(`^\\s*${module.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} (v\\S+)`, "m").exec(mod);
  if (!match) throw new Error(`toolchain/go.mod requires no ${module}`);
  return match[1];
}

/** Builds the generator (Go reuses its build cache: seconds once the engine is built) and returns its path. */
function buildGenerator() {
  const out = path.join(repo, ".engine/sdkgen/sdkgen");
  mkdirSync(path.dirname(out), { recursive: true });
  execFileSync("go", ["build", "-trimpath", "-o", out, "./sdkgen"], {
    cwd: toolchain,
    env: goEnv({ GOFLAGS: "-mod=readonly" }),
    stdio: ["ignore", "ignore", "inherit"],
  });
  return out;
}

/** Writes both plugins' SDKs under `out` (`python/<name>`, `go/<name>`, `nodejs/<name>`); what the generator printed. */
function generate(out, generator = buildGenerator()) {
  const schemas = PLUGINS.map((name) => path.join(repo, "plugin", "schema", `${name}.json`));
  return execFileSync(generator, ["-out", out, ...schemas], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

/**
 * The Go module of both Go SDKs: it requires the Go SDK of the pinned Pulumi version, and `go mod tidy` lists the
 * rest (modules through the proxy; go.sum committed).
 */
function tidyGoModule(dir = path.join(SDKS, "go")) {
  const goMod = path.join(dir, "go.mod");
  if (!existsSync(goMod)) writeFileSync(goMod, `module ${GO_MODULE}\n\ngo 1.25\n`);
  const env = goEnv({ GOFLAGS: "-mod=mod" });
  execFileSync("go", ["mod", "edit", `-require=${GO_SDK}@${pinned("github.com/pulumi/pulumi/sdk/v3")}`], { cwd: dir, env });
  execFileSync("go", ["mod", "tidy"], { cwd: dir, env, stdio: ["ignore", "ignore", "inherit"] });
}

module.exports = { SDKS, PLUGINS, GO_MODULE, buildGenerator, generate, tidyGoModule, pinned };

if (require.main === module) {
  try {
    process.stdout.write(generate(SDKS));
    tidyGoModule();
    console.log(`plugin/sdks/go: go.mod and go.sum tidied (${GO_SDK} ${pinned(GO_SDK)})`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
