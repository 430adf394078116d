// Writes test/upgrade/fixtures/last-landed.json from a built checkout of the last landed version:
//   node test/upgrade/makeFixture.js <checkout> test/upgrade/fixtures/last-landed.json
// It runs that version's provider, through its own engine drivers, against its own emulator, and writes what a
// stack made by it holds (the engine states) and what the service then holds (the emulator's stores).
const { join, resolve } = require("node:path");
const { readFileSync, writeFileSync } = require("node:fs");

const [checkout, out] = process.argv.slice(2);
if (!checkout || !out) throw new Error("usage: node test/upgrade/makeFixture.js <built checkout of the last landed version> <output file>");
const { startEmulator, DEFAULT_SNAPSHOT_TOKEN } = require(resolve(checkout, "dist/emulator"));
const { createConsumerProject, dynamicProviderPlugin, Engine, NativeEngine } = require(resolve(checkout, "dist/engine"));
const { execFileSync } = require("node:child_process");

const TOKEN = "emulator-runtask-token";
(async () => {
  const emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    runTask: { tokens: { [TOKEN]: { owner: true } }, organizations: [{ name: "acme", workspaces: [{ name: "app" }, { name: "web" }] }] },
  });
  const config = {
    "runtask:address": emulator.url,
    "runtask:token": TOKEN,
    "runtask:organization": "acme",
    "snapshot:address": emulator.url,
    "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
  };
  const ws = (name) => emulator.runTask.workspace(name).id;
  const nightly = { interval: "24h", storageType: "local", pathPrefix: "/var/snapshots", localMaxSpace: 10737418240 };
  const offsite = {
    interval: 3600,
    retain: 3,
    storageType: "cloudA-s3",
    pathPrefix: "backups",
    cloudAS3Bucket: "bucket",
    cloudAS3Region: "eu-west-1",
    cloudAAccessKeyId: "AKIAFIXTURE",
    cloudASecretAccessKey: "fixture-secret-access-key",
    cloudAS3ForcePathStyle: true,
  };
  const scanner = {
    url: "https://hooks.example.com/scan",
    description: "Security scan",
    hmacKey: "fixture-hmac-key",
    global: { enabled: true, enforcementLevel: "advisory", stages: ["pre_plan"] },
  };
  const plain = { name: "cost-check", url: "https://hooks.example.com/costs", enabled: false };

  // The dynamic providers, through the engine driver.
  const project = createConsumerProject({ project: "upgrade-dynamic", stack: "upgrade" });
  const stateFile = join(project.dir, "state.json");
  const dynamicSpec = {
    snapshots: [
      { resource: "nightly", args: nightly },
      { resource: "offsite", args: { name: "offsite-backups", ...offsite } },
    ],
    runTasks: [
      { resource: "scanner", args: scanner },
      { resource: "cost", args: plain },
    ],
    attachments: [
      {
        resource: "scanner-on-app",
        task: "scanner",
        args: { workspaceId: ws("app"), enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] },
      },
      { resource: "cost-on-web", task: "cost", args: { workspaceId: ws("web"), enforcementLevel: "advisory" } },
    ],
  };
  const engine = new Engine({ plugin: dynamicProviderPlugin(project.dir), stateFile, config });
  await engine.up(project.capture(dynamicSpec));
  const dynamicState = JSON.parse(readFileSync(stateFile, "utf8"));

  // The provider plugins, through the native engine driver.
  const urn = (token, name) => `urn:pulumi:dev::upgrade-native::${token}::${name}`;
  const resource = (token, name, inputs) => ({
    urn: urn(token, name),
    token,
    name,
    inputs,
    dependencies: Object.values(inputs)
      .filter((v) => typeof v === "string" && v.startsWith("@id:"))
      .map((v) => urn("runtask:index:RunTask", v.slice(4))),
  });
  const nativeProgram = [
    resource("snapshot:index:SnapshotAutoConfig", "nightly-native", nightly),
    resource("snapshot:index:SnapshotAutoConfig", "offsite-native", { name: "offsite-native", ...offsite }),
    resource("runtask:index:RunTask", "scanner-native", scanner),
    resource("runtask:index:RunTask", "cost-native", { ...plain, name: "cost-check-native" }),
    resource("runtask:index:WorkspaceRunTask", "scanner-native-on-app", {
      workspaceId: ws("app"),
      taskId: "@id:scanner-native",
      enforcementLevel: "mandatory",
      stages: ["pre_plan", "post_plan"],
    }),
    resource("runtask:index:WorkspaceRunTask", "cost-native-on-web", {
      workspaceId: ws("web"),
      taskId: "@id:cost-native",
      enforcementLevel: "advisory",
    }),
  ];
  const native = new NativeEngine({ programDir: project.dir, config });
  await native.up(nativeProgram);
  const nativeState = [...native.state.values()];

  const runTask = emulator.runTask.store;
  const dump = (map) => [...map.entries()];
  const fixture = {
    madeBy: `test/upgrade/makeFixture.js, from commit ${execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: checkout, encoding: "utf8" }).trim()}`,
    emulator: {
      organizations: dump(runTask.organizations),
      workspaces: dump(runTask.workspaces),
      tasks: dump(runTask.tasks),
      workspaceTasks: dump(runTask.workspaceTasks),
      snapshotConfigs: [...emulator.snapshot.configs.entries()].map(([k, v]) => [k, { config: v.config, status: v.status }]),
    },
    dynamic: { program: dynamicSpec, state: dynamicState },
    native: { program: nativeProgram, state: nativeState },
  };
  writeFileSync(out, JSON.stringify(fixture, null, 2) + "\n");
  await emulator.close();
  project.remove();
  console.log("written", out);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
