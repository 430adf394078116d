// `go build` of a package pinned by one of the project's Go modules (toolchain/go.mod for the engine,
// toolchain/actionlint/go.mod for actionlint, test/vendor-clients/driver/go.mod for the vendors' clients), with a line
// of progress every 20 seconds on stderr.
"use strict";
const { spawn, spawnSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const log = (line) => process.stderr.write(`${line}\n`);

/** `go version`'s line, or undefined where Go is not on PATH. */
function goVersion() {
  const go = spawnSync("go", ["version"], { encoding: "utf8" });
  return go.status === 0 ? go.stdout.trim() : undefined;
}

/** A short hash of a module's go.sum: a change of any dependency changes it, and so rebuilds. */
function sumHash(goSum) {
  return createHash("sha256").update(readFileSync(goSum)).digest("hex").slice(0, 16);
}

/** Runs `go build` of `pkg` in the module at `cwd` into `out`. */
function goBuild(label, pkg, out, { cwd, ldflags, tags }) {
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
    const child = spawn("go", args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
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

/**
 * An executable built once per `stamp` (the versions and sources it is built from): reused while the stamp file beside
 * it says the same, else built by `build(next)` into a file renamed over it once done, then stamped. Resolves to the
 * executable; a missing Go, or a failed build, rejects with the message for the user.
 */
async function stampedBuild({ executable, stamp, what, firstBuild, build }) {
  const stampFile = path.join(path.dirname(executable), "versions.json");
  try {
    if (readFileSync(stampFile, "utf8").trim() === JSON.stringify(stamp) && existsSync(executable)) {
      log(`${what} is built already.`);
      return executable;
    }
  } catch {
    // No stamp: build it.
  }
  const go = goVersion();
  if (!go) throw new Error(`Building ${what} needs Go 1.26 or later (https://go.dev/dl/), and none was found on PATH.`);
  log(`Building ${what} with ${go} into ${path.dirname(executable)} (${firstBuild}).`);
  mkdirSync(path.dirname(executable), { recursive: true });
  const next = `${executable}.next`;
  try {
    await build(next);
  } catch (err) {
    rmSync(next, { force: true });
    throw err;
  }
  renameSync(next, executable);
  writeFileSync(stampFile, `${JSON.stringify(stamp)}\n`);
  return executable;
}

/** Runs a build script's `main`: its exit code, or 1 and its error's message on standard error. */
function runMain(main) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}

module.exports = { goBuild, goVersion, log, runMain, stampedBuild, sumHash };
