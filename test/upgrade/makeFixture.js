// Writes test/upgrade/fixtures/last-landed.json from a built checkout of the last landed version:
//   npm run build && npm run engine && node test/upgrade/makeFixture.js <checkout> test/upgrade/fixtures/last-landed.json
// It installs that version's package into consumer projects, runs a program of its dynamic resources and one of its
// provider plugins' resources through the Pulumi engine this repository builds, against that version's emulator,
// and writes what the stacks then hold (the file backend's files and each stack's settings file, secrets encrypted
// with the passphrase it records) and what the service holds (the emulator's data).
"use strict";
const { execFile, execFileSync } = require("node:child_process");
const { promisify } = require("node:util");
const { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join, relative, resolve } = require("node:path");

const repo = resolve(__dirname, "../..");
const [checkout, out] = process.argv.slice(2);
if (!checkout || !out) throw new Error("usage: node test/upgrade/makeFixture.js <built checkout of the last landed version> <output file>");
const { installPackage } = require(join(repo, "dist/toolchain/consumerProject"));
const { findPulumiEngine, offlineEngineEnv } = require(join(repo, "dist/toolchain/pulumiEngine"));
const { runTaskData, snapshotData } = require(join(repo, "dist/emulator/savedData"));
const { startEmulator, DEFAULT_SNAPSHOT_TOKEN } = require(resolve(checkout, "dist/emulator"));
const { PROGRAMS, RUNTASK_TOKEN, PASSPHRASE, STACK } = require("./programs");

(async () => {
  const engine = findPulumiEngine("built");
  if (!engine) throw new Error("no Pulumi engine: run `npm run engine` first");
  const emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    runTask: { tokens: { [RUNTASK_TOKEN]: { owner: true } }, organizations: [{ name: "acme", workspaces: [{ name: "app" }, { name: "web" }] }] },
  });
  const work = mkdtempSync(join(tmpdir(), "upgrade-fixture-"));
  const project = join(work, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "upgrade", private: true }));
  installPackage(project, resolve(checkout));
  const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: checkout, encoding: "utf8" }).trim();
  const version = execFileSync(engine.cli, ["version"], { encoding: "utf8" }).trim();
  const stacks = {};
  for (const [kind, program] of Object.entries(PROGRAMS)) {
    const backend = join(work, `backend-${kind}`);
    const programDir = join(project, "programs", program.project);
    mkdirSync(backend, { recursive: true });
    mkdirSync(programDir, { recursive: true });
    const env = offlineEngineEnv(engine, {
      home: join(work, "home"),
      backend,
      passphrase: PASSPHRASE,
      extraPath: [join(project, "node_modules/.bin")],
    });
    const config = program.config(emulator.url, DEFAULT_SNAPSHOT_TOKEN);
    const request = join(work, `request-${kind}.json`);
    const spec = program.spec(emulator);
    writeFileSync(request, JSON.stringify({ op: "up", project: program.project, stack: STACK, spec, config, options: {} }));
    // Not a synchronous spawn: the emulator answers from this process.
    const run = await promisify(execFile)(process.execPath, [join(repo, "test/support/engine/runInline.js"), request], {
      cwd: programDir,
      env,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((err) => err);
    const result = JSON.parse(run.stdout.slice(run.stdout.lastIndexOf("@@result ") + "@@result ".length));
    if (!result.ok) throw new Error(`the ${kind} stack's up failed: ${result.error}`);
    stacks[kind] = {
      project: program.project,
      program: spec,
      // The backend's files, as the engine left them (no backups, no history: the state is what a later up reads).
      backend: Object.fromEntries(filesUnder(join(backend, ".pulumi")).map((f) => [relative(backend, f), readFileSync(f, "utf8")])),
      settings: readFileSync(join(programDir, `Pulumi.${STACK}.yaml`), "utf8"),
    };
  }
  const service = { version: 1, runTask: runTaskData(emulator.runTask.store), snapshot: snapshotData(emulator.snapshot.configs) };
  writeFileSync(
    out,
    `${JSON.stringify({ landed: commit, engine: version, address: emulator.url, passphrase: PASSPHRASE, stacks, service }, null, 2)}\n`,
  );
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
  process.stdout.write(`wrote ${out}: stacks made by ${commit} through pulumi ${version}\n`);
})().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // Only what a later command reads: no history, no backups, no blob attributes (checksums of the files as written).
    if (/^(history|backups)$/.test(name) || /\.(bak|attrs)$/.test(name)) return [];
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
