/**
 * The demo's Pulumi program, which the demo runs inline through the Automation API (demo/stage.ts stages its build,
 * dist/demo/program.js). Written as a user writes one: the package is imported by name, credentials come from stack
 * config (`snapshot:*`, `runtask:*`), and the demo's own settings from the `demo:` namespace.
 */
import * as pulumi from "@pulumi/pulumi";
import { getSnapshotStatusOutput, RunTask, SnapshotAutoConfig, WorkspaceRunTask } from "pulumi-snapshot-runtask";
import { assertPackageInstalledFrom } from "pulumi-snapshot-runtask/automation";

// The provider plugin runs in this directory and loads the package by name: say so now rather than fail later.
assertPackageInstalledFrom(process.cwd());

const config = new pulumi.Config("demo");

/** Local snapshots on a short interval, so that the service has taken one within the demo. */
const snapshots = new SnapshotAutoConfig("demo-snapshots", {
  interval: config.get("snapshotInterval") ?? "5s",
  retain: 3,
  storageType: "local",
  pathPrefix: config.require("snapshotPath"),
  localMaxSpace: 64 * 1024 * 1024,
});

/** A run task whose payloads are signed with a key kept as a secret, also applied to every workspace. */
const scanner = new RunTask("demo-policy-scan", {
  url: config.get("taskUrl") ?? "https://hooks.example.com/policy-scan",
  description: "Policy scan of every plan (pulumi-snapshot-runtask demo)",
  hmacKey: config.requireSecret("hmacKey"),
  global: { enabled: config.getBoolean("globalEnabled") ?? true, stages: ["pre_plan"], enforcementLevel: "advisory" },
});

/** The same task attached to one workspace, where it is mandatory after the plan. */
const attachment = new WorkspaceRunTask("demo-policy-scan-on-workspace", {
  workspaceId: config.require("workspaceId"),
  taskId: scanner.id,
  enforcementLevel: "mandatory",
  stages: ["post_plan"],
});

export const snapshotConfiguration = snapshots.name;
export const snapshotIntervalSeconds = snapshots.interval;
export const runTaskId = scanner.id;
/** Shown as [secret]: the key is kept in state encrypted, and sent to the service only when it changes. */
export const runTaskHmacKey = scanner.hmacKey;
export const runTaskGlobal = scanner.global;
export const workspaceRunTaskId = attachment.id;
export const workspaceRunTaskStages = attachment.stages;
/** What the service reports about the configuration's snapshots: unknown in a preview until it exists, then read. */
export const snapshotStatus = getSnapshotStatusOutput({ name: snapshots.name });
