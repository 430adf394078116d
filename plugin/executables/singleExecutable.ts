import { spawnSync } from "node:child_process";
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extract } from "tar";
import { trainCodeCache } from "./codeCache";
import { executablePlatform, HEADER_BYTES, hostPlatform, nodeBinaryPackage, platformName, type Platform } from "./platform";
import { CACHE_ASSET, SCRIPT_ASSET } from "./scriptWrapper";

/**
 * A plugin made a Node.js single executable application (https://nodejs.org/api/single-executable-applications.html):
 * its bundled script and the code cache of a start-up, as a blob Node writes (`--experimental-sea-config`), injected
 * by postject into a copy of a Node 22 binary of the target platform. Why this and not bun's `--compile`: docs/design.md, "The plugins' executables".
 */

/** The fuse Node 22 looks for to know that a blob was injected (`node --experimental-sea-config` prints it too). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** The Node.js binary an executable is made from. */
export interface BaseBinary {
  path: string;
  /** Where it came from, for the progress lines. */
  source: string;
  /** What identifies its content, for the build's reuse: a binary of the same identity makes the same executable. */
  identity: string;
}

type Log = (line: string) => void;

/**
 * The Node.js binary of `target` at this Node's version: this Node's own where the target is this machine; else
 * the base binary npm serves (see nodeBinaryPackage), kept in `cacheDir`. macOS wants its executables signed, which
 * needs `codesign`: darwin targets are built on macOS.
 */
export function baseBinaryFor(target: Platform, cacheDir: string): { identity: string; fetch: (log: Log) => BaseBinary } {
  const host = hostPlatform();
  const version = process.versions.node;
  if (host && platformName(host) === platformName(target)) {
    const { size, mtimeMs } = statSync(process.execPath);
    const identity = `${process.execPath} ${version} ${size} ${mtimeMs}`;
    return { identity, fetch: () => ({ path: process.execPath, source: `this Node.js, v${version}`, identity }) };
  }
  if (target.os === "darwin" && host?.os !== "darwin") {
    throw new Error(
      `${platformName(target)} executables are built on macOS, which signs them (codesign); this machine is ${host ? platformName(host) : process.platform}`,
    );
  }
  const spec = `${nodeBinaryPackage(target)}@${version}`;
  return {
    identity: spec,
    fetch: (log) => {
      const dir = join(cacheDir, spec.replace("@", "-"));
      const binary = join(dir, "package/bin", target.os === "windows" ? "node.exe" : "node");
      if (!existsSync(binary)) {
        log(`fetching the Node.js binary of ${platformName(target)} (npm package ${spec})`);
        const next = `${dir}.${process.pid}`;
        rmSync(next, { recursive: true, force: true });
        mkdirSync(next, { recursive: true });
        let packed: string;
        try {
          packed = run("npm", ["pack", "--silent", spec], next).trim().split("\n").pop()!;
        } catch (err) {
          rmSync(next, { recursive: true, force: true });
          throw new Error(
            `npm serves no ${spec}, the Node.js binary of ${platformName(target)} at this Node's version: build on ${platformName(target)} itself, or with a Node.js whose version npm serves for it`,
            { cause: err },
          );
        }
        extract({ file: join(next, packed), cwd: next, sync: true, filter: (path) => path.startsWith("package/bin/") });
        rmSync(join(next, packed));
        rmSync(dir, { recursive: true, force: true });
        renameSync(next, dir);
      }
      return { path: binary, source: `npm package ${spec}`, identity: spec };
    },
  };
}

/**
 * Makes `output`, the single executable of `script` (a bundled CommonJS script) for `target`, from `base`, in `work`
 * (a folder of the build's own): `main` (seaMain.ts, bundled) its main script, `script` an asset with, for a build
 * for this machine, the code cache of a training run (codeCache.ts). The executable is checked to be of the target's
 * platform, and where it runs here, to start and report `version`.
 */
export async function makeSingleExecutable(options: {
  main: string;
  script: string;
  base: BaseBinary;
  target: Platform;
  version: string;
  output: string;
  work: string;
  log: Log;
}): Promise<void> {
  const { main, script, base, target, output, work, log } = options;
  const host = hostPlatform();
  const native = host !== undefined && platformName(host) === platformName(target);
  const assets: Record<string, string> = { [SCRIPT_ASSET]: script };
  // A code cache is V8's for this very binary: only where the base is this Node.
  if (native) {
    const cache = join(work, "plugin.cache");
    await trainCodeCache(script, cache);
    assets[CACHE_ASSET] = cache;
  }
  const blob = join(work, "sea.blob");
  const config = join(work, "sea-config.json");
  writeFileSync(
    config,
    JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: native, useSnapshot: false, assets }),
  );
  run(process.execPath, ["--experimental-sea-config", config], work);

  copyFileSync(base.path, output);
  chmodSync(output, 0o755);
  if (target.os === "linux") {
    // Node's Linux binaries keep their symbol tables and debug information (18 MB of 125); the engine needs neither.
    // A host's `strip` reads its own architecture only: elsewhere the binary stays whole.
    const stripped = spawnSync("strip", [output], { encoding: "utf8" });
    if (stripped.status !== 0)
      log(`left ${platformName(target)}'s Node.js binary unstripped (${(stripped.stderr || stripped.error?.message || "").trim()})`);
  }
  if (target.os === "darwin") run("codesign", ["--remove-signature", output], work);
  const postject = require.resolve("postject/dist/cli.js");
  const macho = target.os === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : [];
  run(process.execPath, [postject, output, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE, ...macho], work);
  if (target.os === "darwin") run("codesign", ["--sign", "-", output], work);

  const made = executablePlatform(readHeader(output));
  if (typeof made === "string" || platformName(made) !== platformName(target)) {
    throw new Error(`the executable made for ${platformName(target)} is ${typeof made === "string" ? made : `for ${platformName(made)}`}`);
  }
  if (native) {
    const reported = run(output, ["--version"], work).trim();
    if (reported !== options.version) throw new Error(`the executable made reports version ${JSON.stringify(reported)}, not ${options.version}`);
  }
}

/** The first bytes of a file, enough for executablePlatform. */
export function readHeader(file: string): Buffer {
  const fd = openSync(file, "r");
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    return header.subarray(0, readSync(fd, header, 0, HEADER_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

/** Runs a command to its end; its output is shown only when it fails (postject's is noisy when it succeeds). */
function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`})${output ? `:\n${output.slice(-4000)}` : ""}`,
    );
  }
  return result.stdout;
}
