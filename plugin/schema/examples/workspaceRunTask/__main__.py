import pulumi
import pulumi_snapshot_runtask_runtask as runtask

scanner = runtask.RunTask("scanner", url="https://hooks.example.com/scan")

# The task on a workspace before and after each plan; a failure, or no answer, stops the run.
on_production = runtask.WorkspaceRunTask(
    "scanner-on-production",
    workspace_id="ws-1A2b3C4d5E6f7G8h",
    task_id=scanner.id,
    enforcement_level="mandatory",
    stages=["pre_plan", "post_plan"],
)

pulumi.export("association_id", on_production.workspace_task_id)
