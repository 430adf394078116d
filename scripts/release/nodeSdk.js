#!/usr/bin/env node
// `node scripts/release/nodeSdk.js <plugin/sdks/nodejs/<name>> <out-dir>`: packs a provider plugin's Node.js SDK
// for the npm registry, compiled, and prints the tarball's path. The SDK in the repository is the form `pulumi
// package add` writes, which compiles itself when installed (TypeScript sources, a postinstall running tsc, typescript
// as a dependency): from a registry that would be an install script every user's npm lists, and a compiler in every
// program. The packed form is the compiled JavaScript with its declarations, and a package.json without scripts.
"use strict";
const { execFileSync } = require("node:child_process");
const { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");

/** What only compiling the SDK needs, which the packed package leaves out. */
const BUILD_ONLY = ["typescript", "@types/node"];

/** The package.json of the packed SDK: the generated one, its entry points at the package's root, nothing to run on install. */
function packedManifest(manifest) {
  const { scripts: _scripts, main: _main, devDependencies: _dev, ...rest } = manifest;
  const dependencies = Object.fromEntries(Object.entries(manifest.dependencies ?? {}).filter(([name]) => !BUILD_ONLY.includes(name)));
  if (!dependencies["@pulumi/pulumi"]) throw new Error(`${manifest.name} does not depend on @pulumi/pulumi: not a generated SDK`);
  return { ...rest, main: "index.js", types: "index.d.ts", dependencies };
}

/** Compiles the SDK in a copy of its folder and packs it into `out`; returns the tarball's path. */
function packNodeSdk(sdkDir, out, env = process.env) {
  const work = mkdtempSync(path.join(tmpdir(), "node-sdk-"));
  const run = (command, args, cwd) => execFileSync(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  try {
    const source = path.join(work, "source");
    cpSync(sdkDir, source, { recursive: true, filter: (from) => !/[/\\](node_modules|bin)$/.test(from) });
    const manifest = JSON.parse(readFileSync(path.join(source, "package.json"), "utf8"));
    // The generated package.json pins typescript and @pulumi/pulumi; the scripts (its postinstall) are not run here.
    run("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock"], source);
    run(process.execPath, [path.join(source, "node_modules/typescript/bin/tsc"), "-p", "."], source);
    const staged = path.join(work, "package");
    cpSync(path.join(source, "bin"), staged, { recursive: true });
    for (const file of readdirSync(source).filter((f) => /^(README|LICENSE)/i.test(f))) cpSync(path.join(source, file), path.join(staged, file));
    writeFileSync(path.join(staged, "package.json"), `${JSON.stringify(packedManifest(manifest), null, 4)}\n`);
    mkdirSync(out, { recursive: true });
    const packed = run("npm", ["pack", "--ignore-scripts", "--pack-destination", path.resolve(out)], staged)
      .trim()
      .split(/\r?\n/)
      .pop();
    return path.join(path.resolve(out), packed);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

module.exports = { packNodeSdk, packedManifest };

if (require.main === module) {
  try {
    const [sdkDir, out] = process.argv.slice(2);
    if (!sdkDir || !out) throw new Error("usage: node scripts/release/nodeSdk.js <plugin/sdks/nodejs/<name>> <out-dir>");
    console.log(packNodeSdk(path.resolve(sdkDir), out));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
