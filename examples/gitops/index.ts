import * as pulumi from "@pulumi/pulumi";
import { RunTask, SnapshotAutoConfig, WorkspaceRunTask, type EnforcementLevel } from "pulumi-snapshot-runtask";

const config = new pulumi.Config();

interface WorkspaceEntry {
  id: string;
  enforcementLevel: EnforcementLevel;
}

/** The secret from the CI's store, kept as a secret in the state. */
function secretFromEnvironment(name: string): pulumi.Output<string> {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the workflow passes it from the repository's secrets`);
  return pulumi.secret(value);
}

new SnapshotAutoConfig("platform-daily", {
  interval: config.get("snapshotInterval") ?? "24h",
  retain: 14,
  storageType: "local",
  pathPrefix: "/var/lib/storage-service/snapshots",
  localMaxSpace: 50 * 1024 ** 3,
});

const policyCheck = new RunTask("policy-check", {
  url: config.require("policyCheckUrl"),
  description: "Organization policies, managed in Git",
  hmacKey: secretFromEnvironment("POLICY_CHECK_HMAC_KEY"),
});

for (const ws of config.requireObject<WorkspaceEntry[]>("workspaces")) {
  new WorkspaceRunTask(`policy-check-${ws.id}`, {
    workspaceId: ws.id,
    taskId: policyCheck.id,
    enforcementLevel: ws.enforcementLevel,
    stages: ["pre_plan", "post_plan"],
  });
}

export const policyCheckTaskId = policyCheck.id;
