import * as pulumi from "@pulumi/pulumi";
import { RunTask, WorkspaceRunTask, type EnforcementLevel } from "pulumi-snapshot-runtask";

const config = new pulumi.Config();
/** The workspaces (`ws-...`) to attach the task to: adding an id attaches it, removing one detaches it. */
const workspaceIds = config.requireObject<string[]>("workspaceIds");
const enforcementLevel = (config.get("enforcementLevel") ?? "advisory") as EnforcementLevel;

const costCheck = new RunTask("cost-check", {
  url: config.require("taskUrl"),
  description: "Estimates the cost of each plan",
  hmacKey: config.requireSecret("hmacKey"),
});

// One association per workspace. The resource name carries the workspace id, so that each association keeps its
// identity when the list is reordered or grows.
const attachments = workspaceIds.map(
  (workspaceId) =>
    new WorkspaceRunTask(`cost-check-${workspaceId}`, {
      workspaceId,
      taskId: costCheck.id,
      enforcementLevel,
      stages: ["post_plan"],
    }),
);

export const taskId = costCheck.id;
export const attachedTo = attachments.map((a) => a.workspaceId);
