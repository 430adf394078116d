import * as pulumi from "@pulumi/pulumi";
import { getSnapshotStatus, SnapshotAutoConfig } from "pulumi-snapshot-runtask";

const config = new pulumi.Config();
/** A directory on the service's hosts (not on the machine running Pulumi). */
const directory = config.get("directory") ?? "/var/lib/storage-service/snapshots";

// Every hour (or as often as `hourlyInterval` says, to see snapshots soon when trying it), the last 24 kept. Each
// configuration gets its own file prefix: the space allowance and the retention count apply to the snapshots with
// that prefix.
const hourly = new SnapshotAutoConfig("hourly", {
  interval: config.get("hourlyInterval") ?? "1h",
  retain: 24,
  storageType: "local",
  pathPrefix: directory,
  filePrefix: "hourly",
  localMaxSpace: 5 * 1024 ** 3,
});

// Every day, a week kept.
const daily = new SnapshotAutoConfig("daily", {
  interval: "24h",
  retain: 7,
  storageType: "local",
  pathPrefix: directory,
  filePrefix: "daily",
  localMaxSpace: 20 * 1024 ** 3,
});

/** Seconds between snapshots: durations are stored as seconds, so "1h" and 3600 are the same setting. */
export const intervals = { hourly: hourly.interval, daily: daily.interval };

/** Where the last hourly snapshot went, once the service has taken one (not read during a preview). */
export const lastHourlySnapshot = hourly.name.apply(async (name) => {
  if (pulumi.runtime.isDryRun()) return undefined;
  const status = await getSnapshotStatus({ name });
  return status.lastSnapshotError ? `failed: ${status.lastSnapshotError}` : status.lastSnapshotUrl || "none yet";
});
