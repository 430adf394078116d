import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator, type EmulatorData } from "../../emulator";
import { DEFAULT_RUNTASK_TOKEN } from "../../emulator/runtask/service";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";

/**
 * The emulator saves what it holds and starts again from it (the demo's `--keep` runs a project's stack over several
 * runs): every object with its id and fields, the snapshot status, and its port where that is free; with a data
 * file, written through, each change there before its answer leaves.
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

describe("a data file, written through", () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "emulator-data-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const held = (file: string) => JSON.parse(readFileSync(file, "utf8")) as EmulatorData;
  const runTaskCall = (emulator: Emulator, method: string, path: string, body?: unknown) =>
    fetch(`${emulator.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${DEFAULT_RUNTASK_TOKEN}`, "content-type": "application/vnd.api+json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  test("holds each change by the time its answer arrives, is not written for a read, and is what the next start holds", async () => {
    const file = join(dir, "emulator.json");
    const first = await start({ dataFile: file });
    expect(existsSync(file)).toBe(false);
    const created = await runTaskCall(first, "POST", "/organizations/emulator-org/tasks", {
      data: { type: "tasks", attributes: { name: "scanner", url: "https://hooks.example.com/scan", category: "task" } },
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    expect(held(file).runTask.tasks.map((t) => t.id)).toEqual([id]);
    expect(held(file).port).toBe(first.port);

    const written = statSync(file).mtimeMs;
    const inode = statSync(file).ino;
    expect((await runTaskCall(first, "GET", `/tasks/${id}`)).status).toBe(200);
    expect([statSync(file).mtimeMs, statSync(file).ino]).toEqual([written, inode]);

    expect((await runTaskCall(first, "DELETE", `/tasks/${id}`)).status).toBe(204);
    expect(held(file).runTask.tasks).toEqual([]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Replaced whole, never written in place.
    expect(statSync(file).ino).not.toBe(inode);
    expect(readdirSync(dir)).toEqual(["emulator.json"]);

    first.runTask.addTask("emulator-org", { name: "made-aside" });
    await first.close();
    started.splice(started.indexOf(first), 1);
    expect(held(file).runTask.tasks.map((t) => t.name)).toEqual(["made-aside"]);
    const second = await start({ dataFile: file });
    expect(second.runTask.tasks().map((t) => t.name)).toEqual(["made-aside"]);
  });

  test("a file that is not the emulator's data is refused, naming it", async () => {
    const file = join(dir, "other.json");
    writeFileSync(file, "{}");
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(`${file}: emulator data: not what the emulator saves`);
  });
});
