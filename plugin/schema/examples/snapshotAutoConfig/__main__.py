import pulumi
import pulumi_snapshot_runtask_snapshot as snapshot

# A snapshot every day into a local directory, the last seven kept within 10 GiB.
daily = snapshot.SnapshotAutoConfig(
    "daily",
    interval="24h",
    retain=7,
    storage_type="local",
    path_prefix="/var/snapshots",
    local_max_space=10 * 1024**3,
)

pulumi.export("interval_seconds", daily.interval)
