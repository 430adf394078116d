"""A run task attached to the workspaces listed in stack config, and a daily snapshot configuration."""

import pulumi
import pulumi_snapshot_runtask_runtask as runtask
import pulumi_snapshot_runtask_snapshot as snapshot

config = pulumi.Config()

scanner = runtask.RunTask(
    "scanner",
    url="https://hooks.example.com/scan",
    description="Policy scan of every plan",
    hmac_key=config.require_secret("scannerHmacKey"),
)

for workspace_id in config.require_object("workspaces"):
    runtask.WorkspaceRunTask(
        f"scanner-on-{workspace_id}",
        workspace_id=workspace_id,
        task_id=scanner.id,
        enforcement_level="mandatory",
        stages=["post_plan"],
    )

daily = snapshot.SnapshotAutoConfig(
    "daily",
    interval="24h",
    retain=7,
    storage_type="local",
    path_prefix="/var/snapshots",
    local_max_space=10 * 1024**3,
)

status = snapshot.get_snapshot_status_output(name=daily.name)

pulumi.export("scanner_id", scanner.id)
pulumi.export("daily_interval_seconds", daily.interval)
pulumi.export("last_daily_snapshot", status.last_snapshot_url)
