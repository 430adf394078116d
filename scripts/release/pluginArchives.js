#!/usr/bin/env node
// `npm run plugins -- ... | node scripts/release/pluginArchives.js --version <v> --target <os>-<arch> --out <dir>`:
// takes the archives `npm run plugins` printed (their paths, one a line, last), checks that they are the release's
// two plugins for that platform under Pulumi's names (`pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz`), each
// holding its executable; signs a macOS executable ad hoc (Apple silicon runs no unsigned code, and an executable
// changed after linking, as a Node single executable is, keeps no valid signature) and packs it again; runs each
// executable that this machine can run with `--help`; and copies the archives to <dir>, printing their paths.
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");

const PLUGINS = ["snapshot", "runtask"];
const TARGETS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"];

/** This machine's platform in Pulumi's names (`linux-amd64`), or undefined where Pulumi has none. */
function hostTarget(platform = process.platform, arch = process.arch) {
  const os = { linux: "linux", darwin: "darwin", win32: "windows" }[platform];
  const cpu = { x64: "amd64", arm64: "arm64" }[arch];
  return os && cpu ? `${os}-${cpu}` : undefined;
}

/** The archive name of a plugin, as the engine downloads it from a release. */
function archiveName(plugin, version, target) {
  return `pulumi-resource-${plugin}-v${version}-${target}.tar.gz`;
}

/** The executable's name inside the archive. */
function executableName(plugin, target) {
  return `pulumi-resource-${plugin}${target.startsWith("windows-") ? ".exe" : ""}`;
}

/** The archives `npm run plugins` printed: its last lines, those that name a .tar.gz (progress comes before them). */
function printedArchives(output) {
  const lines = output.split(/\r?\n/).map((l) => l.trim());
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  const archives = [];
  while (lines.length && /\.tar\.gz$/.test(lines[lines.length - 1])) archives.unshift(lines.pop());
  return archives;
}

/** Checks that `paths` are exactly the two plugins' archives of this version and platform; returns them by plugin. */
function expectedArchives(paths, version, target) {
  if (!TARGETS.includes(target)) throw new Error(`target ${target} is not one the release builds (${TARGETS.join(", ")})`);
  const byName = new Map(paths.map((p) => [path.basename(p), p]));
  const wanted = PLUGINS.map((plugin) => archiveName(plugin, version, target));
  const missing = wanted.filter((name) => !byName.has(name));
  const other = [...byName.keys()].filter((name) => !wanted.includes(name));
  if (missing.length || other.length) {
    throw new Error(
      `npm run plugins printed ${paths.length ? paths.join(", ") : "no archive"}; the release wants ${wanted.join(" and ")}` +
        (missing.length ? ` (missing: ${missing.join(", ")})` : "") +
        (other.length ? ` (not this release's: ${other.join(", ")})` : ""),
    );
  }
  return Object.fromEntries(
    PLUGINS.map((plugin) => {
      const file = byName.get(archiveName(plugin, version, target));
      if (!existsSync(file)) throw new Error(`${file} was printed, but is not there`);
      return [plugin, file];
    }),
  );
}

/** The entries of a .tar.gz, without a leading `./`. */
function entriesOf(archive) {
  return execFileSync("tar", ["-tzf", archive], { encoding: "utf8" })
    .split(/\r?\n/)
    .filter(Boolean)
    .map((e) => e.replace(/^\.\//, ""))
    .filter((e) => e && e !== "." && !e.endsWith("/"));
}

/**
 * Finishes one archive into `out`: checks it holds the executable, signs it ad hoc for macOS (then packs the same
 * entries again), runs it with `--help` where this machine can, and returns the path written.
 */
function finishArchive(plugin, archive, target, out, log = () => {}) {
  const exe = executableName(plugin, target);
  const entries = entriesOf(archive);
  if (!entries.includes(exe)) throw new Error(`${path.basename(archive)} holds ${entries.join(", ") || "nothing"}, not ${exe}`);
  const written = path.join(out, path.basename(archive));
  const work = mkdtempSync(path.join(tmpdir(), `release-${plugin}-`));
  try {
    execFileSync("tar", ["-xzf", archive, "-C", work]);
    const executable = path.join(work, exe);
    if (target.startsWith("darwin-")) {
      execFileSync("codesign", ["--sign", "-", "--force", executable], { stdio: "inherit" });
      execFileSync("codesign", ["--verify", "--strict", executable], { stdio: "inherit" });
      log(`${exe}: signed ad hoc`);
      execFileSync("tar", ["-czf", written, "-C", work, ...entries]);
    } else {
      copyFileSync(archive, written);
    }
    if (target === hostTarget()) {
      const run = spawnSync(executable, ["--help"], { encoding: "utf8", timeout: 60_000 });
      if (run.status !== 0 || !run.stdout.startsWith(`Usage: pulumi-resource-${plugin}`)) {
        throw new Error(`${exe} --help exited ${run.status ?? run.signal}: ${(run.stdout + run.stderr).trim() || run.error}`);
      }
      log(`${exe}: runs on this machine`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return written;
}

function argument(args, name) {
  const at = args.indexOf(`--${name}`);
  if (at < 0 || !args[at + 1]) throw new Error(`--${name} is required`);
  return args[at + 1];
}

module.exports = { archiveName, executableName, expectedArchives, finishArchive, hostTarget, printedArchives, TARGETS };

if (require.main === module) {
  try {
    const args = process.argv.slice(2);
    const [version, target, out] = ["version", "target", "out"].map((name) => argument(args, name));
    const printed = printedArchives(require("node:fs").readFileSync(0, "utf8"));
    const archives = expectedArchives(printed, version, target);
    mkdirSync(out, { recursive: true });
    for (const plugin of PLUGINS) console.log(finishArchive(plugin, archives[plugin], target, out, (line) => console.error(line)));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
