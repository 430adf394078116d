#!/usr/bin/env node
// `node scripts/checkPacked.js <tarball>`: checks a packed package as a user receives it, before it is published.
// In a new directory: installs the tarball with @pulumi/pulumi from the registry, type-checks a program that imports
// the package and each subpath under Pulumi's TypeScript template settings, then creates, reads and deletes a run
// task and a snapshot configuration through the installed provider against the installed emulator. Exits 1 with
// what failed. The release workflow runs it on the tarball it publishes; a test runs it on a fresh pack.
"use strict";
const { execFileSync } = require("node:child_process");
const { mkdtempSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");

const tarball = path.resolve(process.argv[2] || "");
if (!process.argv[2]) {
  console.error("usage: node scripts/checkPacked.js <pulumi-snapshot-runtask-x.y.z.tgz>");
  process.exit(2);
}

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { RunTask, SnapshotAutoConfig, WorkspaceRunTask, getRunTask } from "pulumi-snapshot-runtask";
import { provisioningProgram } from "pulumi-snapshot-runtask/automation";
import { startEmulator } from "pulumi-snapshot-runtask/emulator";

const task = new RunTask("scanner", { url: "https://hooks.example.com/scan", hmacKey: new pulumi.Config().getSecret("key") });
new WorkspaceRunTask("on-production", { workspaceId: "ws-1A2b3C4d5E6f7G8h", taskId: task.id, enforcementLevel: "mandatory" });
new SnapshotAutoConfig("daily", { interval: "24h", storageType: "local", pathPrefix: "/var/snapshots", localMaxSpace: 1_000_000 });
export const unused = [getRunTask, provisioningProgram, startEmulator];
`;

// Pulumi's TypeScript template (pulumi new typescript): no esModuleInterop, no skipLibCheck.
const TSCONFIG = {
  compilerOptions: { strict: true, outDir: "bin", target: "es2020", module: "commonjs", moduleResolution: "node", noImplicitReturns: true },
  files: ["index.ts"],
};

const ROUND_TRIP = `
const { startEmulator } = require("pulumi-snapshot-runtask/emulator");
const { configure, providers, startDeployment } = require("pulumi-snapshot-runtask/provider");
(async () => {
  const emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  try {
    const config = {
      "runtask:address": emulator.url, "runtask:token": "emulator-runtask-token", "runtask:organization": "emulator-org",
      "snapshot:address": emulator.url, "snapshot:token": "emulator-snapshot-token",
    };
    configure({ get: (key) => config[key] });
    for (const [kind, args] of [["runTask", { name: "smoke", url: "https://hooks.example.com/smoke" }],
                                ["snapshotAutoConfig", { name: "smoke", interval: "1h", storageType: "local", pathPrefix: "/tmp/smoke", localMaxSpace: 1000 }]]) {
      const provider = providers[kind];
      const { inputs, failures } = await provider.check({}, args);
      if (failures.length) throw new Error(kind + ": " + JSON.stringify(failures));
      const { id, outs } = await provider.create(inputs);
      if ((await provider.read(id, outs)).id !== id) throw new Error(kind + ": not read back");
      startDeployment(); // a destroy: a deployment of its own
      await provider.delete(id, outs);
      if ((await provider.read(id, outs)).id !== "") throw new Error(kind + ": not deleted");
    }
  } finally {
    await emulator.close();
  }
  console.log("round trip through the installed provider: ok");
})().catch((err) => { console.error(err); process.exit(1); });
`;

const dir = mkdtempSync(path.join(tmpdir(), "packed-"));
const run = (command, args) => execFileSync(command, args, { cwd: dir, stdio: "inherit" });
try {
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "packed-check", private: true, main: "index.ts" }));
  run("npm", ["install", "--no-audit", "--no-fund", tarball, "@pulumi/pulumi", "typescript@~5.9", "@types/node@22"]);
  writeFileSync(path.join(dir, "index.ts"), PROGRAM);
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
  run(process.execPath, [path.join(dir, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "."]);
  writeFileSync(path.join(dir, "roundTrip.js"), ROUND_TRIP);
  run(process.execPath, ["roundTrip.js"]);
  console.log(`${path.basename(tarball)}: installs, type-checks and works`);
} catch (err) {
  console.error(`${path.basename(tarball)}: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
