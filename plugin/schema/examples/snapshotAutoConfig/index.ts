import * as snapshot from "pulumi-snapshot-runtask-snapshot";

// A snapshot every day into a local directory, the last seven kept within 10 GiB.
const daily = new snapshot.SnapshotAutoConfig("daily", {
  interval: "24h",
  retain: 7,
  storageType: "local",
  pathPrefix: "/var/snapshots",
  localMaxSpace: 10 * 1024 ** 3,
});

export const intervalSeconds = daily.interval;
