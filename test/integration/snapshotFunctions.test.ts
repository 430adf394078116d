import { startEmulator, type Emulator } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { getSnapshotStatus, listSnapshotAutoConfigs } from "../../sdk";

let emulator: Emulator;
const saved = { ...process.env };

beforeAll(async () => {
  emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  process.env.SERVICE_ADDR = emulator.url;
  process.env.SERVICE_TOKEN = DEFAULT_SNAPSHOT_TOKEN;
});

afterAll(async () => {
  process.env = saved;
  await emulator.close();
  await closeSharedDispatchers();
});

async function post(name: string, body: object): Promise<void> {
  const res = await fetch(`${emulator.url}/v1/sys/storage/raft/snapshot-auto/config/${name}`, {
    method: "POST",
    headers: { "x-service-token": DEFAULT_SNAPSHOT_TOKEN },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(204);
}

describe("program-side snapshot functions (settings from the environment)", () => {
  test("listSnapshotAutoConfigs uses LIST and answers [] for the service's empty-list 404", async () => {
    expect(await listSnapshotAutoConfigs()).toEqual([]);
    await post("b", { interval: 60, path_prefix: "p", storage_type: "cloudA-s3", cloudA_s3_bucket: "x", cloudA_s3_region: "r" });
    await post("a", { interval: 60, path_prefix: "p", storage_type: "cloudA-s3", cloudA_s3_bucket: "x", cloudA_s3_region: "r" });
    expect(await listSnapshotAutoConfigs()).toEqual(["a", "b"]);
    expect(emulator.requests.byRoute()["LIST /v1/sys/storage/raft/snapshot-auto/config"]).toBe(2);
  });

  test("getSnapshotStatus returns the status camelCased, and fails for an unknown name", async () => {
    await post("s", { interval: 60, path_prefix: "p/", storage_type: "cloudC-gcs", cloudC_gcs_bucket: "bkt" });
    expect(await getSnapshotStatus({ name: "s" })).toEqual({
      snapshotStart: "",
      snapshotUrl: "",
      lastSnapshotStart: "",
      lastSnapshotEnd: "",
      lastSnapshotUrl: "",
      lastSnapshotError: "",
    });
    await emulator.snapshot.snapshotNow("s");
    const status = await getSnapshotStatus({ name: "s" });
    expect(status.lastSnapshotUrl).toMatch(/^https:\/\/storage\.cloudC\.invalid\/bkt\/p\/service-snapshot-\d+\.snap$/);
    expect(status.lastSnapshotEnd).toMatch(/\+00:00$/);
    await expect(getSnapshotStatus({ name: "nope" })).rejects.toThrow('getSnapshotStatus: no snapshot configuration named "nope"');
  });
});
