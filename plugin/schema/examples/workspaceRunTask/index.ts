import * as runtask from "pulumi-snapshot-runtask-runtask";

const scanner = new runtask.RunTask("scanner", { url: "https://hooks.example.com/scan" });

// The task on a workspace before and after each plan; a failure, or no answer, stops the run.
const onProduction = new runtask.WorkspaceRunTask("scanner-on-production", {
  workspaceId: "ws-1A2b3C4d5E6f7G8h",
  taskId: scanner.id,
  enforcementLevel: "mandatory",
  stages: ["pre_plan", "post_plan"],
});

export const associationId = onProduction.workspaceTaskId;
