import * as pulumi from "@pulumi/pulumi";
import { listRunTasks, listSnapshotAutoConfigs, RunTask, SnapshotAutoConfig, WorkspaceRunTask } from "pulumi-snapshot-runtask";

const config = new pulumi.Config();

// Objects that already exist are taken over with `adopt: true`; the program's arguments are then applied to
// them. `retainOnDelete` leaves them in place if they are ever removed from the program or the stack is
// destroyed, as they were before Pulumi managed them. Drop it once the stack is the only owner.
const keep: pulumi.CustomResourceOptions = { retainOnDelete: true };

// A configuration created by hand under the name "nightly" (its identity is the name).
export const nightly = new SnapshotAutoConfig(
  "nightly",
  { interval: "24h", retain: 7, storageType: "local", pathPrefix: "/var/lib/storage-service/snapshots", localMaxSpace: 10 * 1024 ** 3, adopt: true },
  keep,
).name;

// A run task named "security-scan" in the organization (its identity: organization and name). Without
// `hmacKey` the task keeps the key it has; with one, the key is replaced by the program's.
const scan = new RunTask("security-scan", { url: config.require("scanUrl"), description: "Security scan of every plan", adopt: true }, keep);

// Its association with a workspace (identity: workspace and task).
new WorkspaceRunTask(
  "security-scan-production",
  { workspaceId: config.require("workspaceId"), taskId: scan.id, enforcementLevel: "mandatory", stages: ["post_plan"], adopt: true },
  keep,
);

// The functions read what exists without managing it: a way to see what is left to adopt.
export const allConfigurations = pulumi.output(listSnapshotAutoConfigs());
export const allRunTasks = pulumi.output(listRunTasks()).apply((tasks) => tasks.map((t) => `${t.name} (${t.id})`));
