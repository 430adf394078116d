// The programs of the upgrade fixture (makeFixture.js): two of each resource, defaults left out and set, secrets,
// global settings, stages; once as the package's dynamic resources, once as its provider plugins' resources.
"use strict";

const RUNTASK_TOKEN = "emulator-runtask-token";
const PASSPHRASE = "upgrade-fixture-passphrase";
const STACK = "upgrade";

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

/** The resources of one program, by type: the dynamic classes' names, or the plugins' tokens. */
function resources(types, suffix, ws) {
  const name = (n) => `${n}${suffix}`;
  return [
    { type: types.config, name: name("nightly"), args: nightly },
    { type: types.config, name: name("offsite"), args: { ...offsite, name: name("offsite-backups") } },
    { type: types.task, name: name("scanner"), args: scanner, secretArgs: ["hmacKey"] },
    { type: types.task, name: name("cost"), args: { ...plain, name: name("cost-check") } },
    {
      type: types.association,
      name: name("scanner-on-app"),
      args: { workspaceId: ws("app"), taskId: { $ref: name("scanner") }, enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] },
    },
    {
      type: types.association,
      name: name("cost-on-web"),
      args: { workspaceId: ws("web"), taskId: { $ref: name("cost") }, enforcementLevel: "advisory" },
    },
  ];
}

const config = (url, snapshotToken) => ({
  "runtask:address": { value: url, secret: false },
  "runtask:token": { value: RUNTASK_TOKEN, secret: true },
  "runtask:organization": { value: "acme", secret: false },
  "snapshot:address": { value: url, secret: false },
  "snapshot:token": { value: snapshotToken, secret: true },
});

const PROGRAMS = {
  dynamic: {
    project: "upgrade-dynamic",
    spec: (emulator) => ({
      resources: resources(
        { config: "SnapshotAutoConfig", task: "RunTask", association: "WorkspaceRunTask" },
        "",
        (n) => emulator.runTask.workspace(n).id,
      ),
    }),
    config,
  },
  plugins: {
    project: "upgrade-plugins",
    spec: (emulator) => ({
      resources: resources(
        { config: "snapshot:index:SnapshotAutoConfig", task: "runtask:index:RunTask", association: "runtask:index:WorkspaceRunTask" },
        "-plugin",
        (n) => emulator.runTask.workspace(n).id,
      ),
    }),
    config,
  },
};

module.exports = { PROGRAMS, RUNTASK_TOKEN, PASSPHRASE, STACK };
