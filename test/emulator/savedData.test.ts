import { startEmulator, type Emulator } from "../../emulator";
import { DEFAULT_RUNTASK_TOKEN } from "../../emulator/runtask/service";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";

/**
 * The emulator saves what it holds and starts again from it (the demo's `--keep` runs a project's stack over several
 * runs): every object with its id and fields, the snapshot status, and its port where that is free.
 */
const started: Emulator[] = [];
afterAll(() => Promise.all(started.map((e) => e.close())));

async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
  const emulator = await startEmulator({ snapshot: { takeSnapshots: false }, ...options });
  started.push(emulator);
  return emulator;
}

test("what one emulator held, another holds after a save and a start from it, on the same port", async () => {
  const first = await start();
  first.runTask.addOrganization("acme");
  const workspace = first.runTask.addWorkspace("acme", "app");
  const task = first.runTask.addTask("acme", { name: "scanner", hmacKey: "k3y" });
  const association = first.runTask.addWorkspaceTask(workspace.id, task.id, { enforcementLevel: "mandatory" });
  const res = await fetch(`${first.url}/v1/sys/storage/raft/snapshot-auto/config/nightly`, {
    method: "POST",
    headers: { "x-service-token": DEFAULT_SNAPSHOT_TOKEN },
    body: JSON.stringify({ interval: 3600, path_prefix: "p", storage_type: "cloudA-s3", cloudA_s3_bucket: "b", cloudA_s3_region: "r" }),
  });
  expect(res.status).toBe(204);
  await first.snapshot.snapshotNow("nightly");
  const saved = JSON.parse(JSON.stringify(first.save()));
  await first.close();
  started.splice(started.indexOf(first), 1);

  const second = await start({ data: saved });
  expect(second.port).toBe(first.port);
  expect(second.runTask.tasks()).toEqual([expect.objectContaining({ id: task.id, name: "scanner", organization: "acme", hmacKey: "k3y" })]);
  expect(second.runTask.workspaceTasks()).toEqual([association]);
  expect(second.runTask.workspaces("acme")).toEqual([workspace]);
  expect(second.snapshot.configs.get("nightly")?.status.last_snapshot_url).toMatch(/^https:\/\/b\.s3\.r\..*\.snap$/);
  // Served as well as held.
  const shown = await fetch(`${second.url}/api/v2/tasks/${task.id}`, { headers: { authorization: `Bearer ${DEFAULT_RUNTASK_TOKEN}` } });
  expect(shown.status).toBe(200);
  expect(second.save()).toEqual(saved);
});

test("a saved port that is taken gives way to a free one; data that is not the emulator's is refused", async () => {
  const holder = await start();
  const data = { ...holder.save(), port: holder.port };
  const other = await start({ data });
  expect(other.port).not.toBe(holder.port);
  await expect(startEmulator({ data: { version: 2 } as never })).rejects.toThrow("emulator data: not what the emulator saves");
});
