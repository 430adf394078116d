import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ProvisioningDescription } from "pulumi-snapshot-runtask/automation";

/** The workspaces that get the platform's run tasks: new workspaces are appended here (or come from a catalogue). */
export function workspaceIds(): string[] {
  return JSON.parse(readFileSync(join(__dirname, "workspaces.json"), "utf8")) as string[];
}

/** Everything the platform team provisions, as data. */
export function platformDescription(workspaces: string[], hmacKey = process.env.POLICY_CHECK_HMAC_KEY): ProvisioningDescription {
  return {
    snapshots: {
      "platform-daily": {
        interval: "24h",
        retain: 14,
        storageType: "local",
        pathPrefix: "/var/lib/storage-service/snapshots",
        localMaxSpace: 50 * 1024 ** 3,
      },
    },
    runTasks: {
      "policy-check": { url: "https://policy.example.com/run-task", description: "Organization policies", hmacKey },
      "cost-estimate": { url: "https://cost.example.com/run-task", description: "Cost estimate of each plan" },
    },
    attachments: [
      { task: "policy-check", workspaceIds: workspaces, enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] },
      { task: "cost-estimate", workspaceIds: workspaces, enforcementLevel: "advisory" },
    ],
  };
}
