import { startEmulator, type Emulator } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { snapshotAutoConfigProvider as snapshots } from "../../provider/snapshotAutoConfig/provider";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { UNKNOWN } from "../../provider/common/unknown";
import { configureProvider } from "../support/providerConfig";
import { checkedInputs } from "../support/checkedInputs";

/**
 * `adopt: true` takes an existing object over and makes it what the program says, global settings included; its
 * preview (the check) says what the create will change on it.
 */
type Props = Record<string, any>;

let emulator: Emulator;
let said: string[];
let stderr: jest.SpyInstance;

beforeEach(async () => {
  emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  configureProvider({
    "snapshot:address": emulator.url,
    "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
    "runtask:address": emulator.url,
    "runtask:token": "emulator-runtask-token",
    "runtask:organization": "emulator-org",
  });
  said = [];
  stderr = jest.spyOn(process.stderr, "write").mockImplementation((chunk) => (said.push(String(chunk)), true));
});
afterEach(async () => {
  stderr.mockRestore();
  await emulator.close();
});
afterAll(() => closeSharedDispatchers());

describe("RunTask", () => {
  const global = { enabled: true, stages: ["pre_plan"], enforcementLevel: "mandatory" };

  test("the notice of a dynamic resource names a changed text setting without its values: the engine does not say which it holds secret", async () => {
    emulator.runTask.addTask("emulator-org", { name: "scanner", url: "https://hooks.example.com/old?token=canary-old-9d1e" });
    await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/new?token=canary-new-3b7a", adopt: true, enabled: false });
    const notice = said.join("");
    expect(notice).toContain("the create changes enabled (true → false), hmacKey (cleared, whatever the run task holds), url (changed)");
    expect(notice).not.toContain("canary-");
  });

  test("adopting a global task with no global in the program: the preview says so, and one write turns it off", async () => {
    const existing = emulator.runTask.addTask("emulator-org", {
      name: "scanner",
      url: "https://hooks.example.com/scan",
      global: { ...global, enforcementLevel: "mandatory" },
    });
    const inputs = await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan", adopt: true, hmacKey: "hmac-canary-5f2e" });
    expect(said.join("")).toContain(`RunTask "scanner": adopt takes over ${existing.id} in organization "emulator-org"; the create changes global (`);
    expect(said.join("")).toContain('"enabled":true');
    expect(said.join("")).toContain("hmacKey (set, secret)");
    expect(said.join("")).not.toContain("hmac-canary-5f2e");
    emulator.requests.reset();
    const { id, outs } = await tasks.create(inputs);
    expect(id).toBe(existing.id);
    expect(emulator.requests.writes()).toBe(1);
    expect(emulator.runTask.tasks()[0].global.enabled).toBe(false);
    expect(outs.global).toMatchObject({ enabled: false });
    expect((await tasks.diff(id, outs, inputs)).changes).toBe(false);
  });

  test("adopting a task that is as the program says: the preview names only the key it clears, and the write sends no global settings", async () => {
    emulator.runTask.addTask("emulator-org", { name: "scanner", url: "https://hooks.example.com/scan" });
    const inputs = await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan", adopt: true });
    expect(said.join("")).toContain("the create changes hmacKey (cleared, whatever the run task holds)");
    await tasks.create(inputs);
    const patch = emulator.runTask.received.filter((r) => r.method === "PATCH").map((r) => r.body as Props);
    expect(patch[0].data.attributes).not.toHaveProperty("global-configuration");
  });

  test("the HMAC key is declarative: a key the task holds and the program does not set is cleared; one the program sets replaces it", async () => {
    const existing = emulator.runTask.addTask("emulator-org", { name: "scanner", url: "https://hooks.example.com/scan", hmacKey: "old-key-4c1a" });
    await tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan", adopt: true }));
    expect(emulator.runTask.store.tasks.get(existing.id)!.hmacKey || undefined).toBeUndefined();

    emulator.runTask.store.tasks.get(existing.id)!.hmacKey = "old-key-4c1a";
    said = [];
    const inputs = await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan", adopt: true, hmacKey: "new-key-8e0b" });
    expect(said.join("")).toContain("the create changes hmacKey (set, secret)");
    expect(said.join("")).not.toContain("new-key-8e0b");
    await tasks.create(inputs);
    expect(emulator.runTask.store.tasks.get(existing.id)!.hmacKey).toBe("new-key-8e0b");
  });

  test("adopting what is not there: the preview says it will be created", async () => {
    await checkedInputs(tasks, { name: "newcomer", url: "https://hooks.example.com/scan", adopt: true });
    expect(said.join("")).toContain('RunTask "newcomer": adopt: there is no such run task; it will be created');
  });

  test("no notice, and no request, while an argument is unknown, or for anything but a create", async () => {
    emulator.requests.reset();
    await checkedInputs(tasks, { name: "scanner", url: UNKNOWN, adopt: true });
    await checkedInputs(
      tasks,
      { name: "scanner", url: "https://hooks.example.com/scan", adopt: true },
      { name: "scanner", url: "https://old.example.com" },
    );
    expect(said).toEqual([]);
    expect(emulator.requests.total()).toBe(0);
  });
});

test("SnapshotAutoConfig: the preview of an adopt lists the settings it changes", async () => {
  await snapshots.create(
    await checkedInputs(snapshots, { name: "nightly", interval: 3600, retain: 3, pathPrefix: "/tmp/s", storageType: "local", localMaxSpace: 1000 }),
  );
  said = [];
  await checkedInputs(snapshots, {
    name: "nightly",
    interval: 3600,
    retain: 7,
    pathPrefix: "/tmp/s",
    storageType: "local",
    localMaxSpace: 1000,
    adopt: true,
  });
  expect(said.join("")).toContain('SnapshotAutoConfig "nightly": adopt takes over configuration "nightly"; the create changes retain (3 → 7)');
});

test("SnapshotAutoConfig: the preview of an adopt names each credential of the storage type it sets or clears, never their values", async () => {
  const s3 = { name: "offsite", interval: 3600, pathPrefix: "b", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };
  await snapshots.create(await checkedInputs(snapshots, { ...s3, cloudAAccessKeyId: "AKIA-old-7d2c", cloudASecretAccessKey: "old-secret-7d2c" }));
  said = [];
  await checkedInputs(snapshots, { ...s3, cloudAAccessKeyId: "AKIA-new-91fe", adopt: true });
  const notice = said.join("");
  expect(notice).toContain(
    "the create changes cloudAAccessKeyId (set, secret), cloudASecretAccessKey (cleared, whatever the snapshot configuration holds), " +
      "cloudASessionToken (cleared, whatever the snapshot configuration holds)",
  );
  for (const value of ["AKIA-old-7d2c", "old-secret-7d2c", "AKIA-new-91fe"]) expect(notice).not.toContain(value);
});

test("WorkspaceRunTask: the preview of an adopt lists the settings it changes", async () => {
  const task = emulator.runTask.addTask("emulator-org", { name: "scanner" });
  const workspaceId = emulator.runTask.workspace("network").id;
  const association = emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "advisory", stages: ["post_plan"] });
  await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "mandatory", stages: ["post_plan"], adopt: true });
  expect(said.join("")).toContain(`adopt takes over ${association.id}; the create changes enforcementLevel ("advisory" → "mandatory")`);
});
