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
    expect(notice).toContain(
      "the create changes enabled (true → false), url (changed); it does not write hmacKey, which no read shows: the task keeps its key " +
        "(set hmacKey in the program to replace it)",
    );
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

  test("adopting a task that is as the program says: the preview says the create changes nothing, and the write sends no global settings nor key", async () => {
    emulator.runTask.addTask("emulator-org", { name: "scanner", url: "https://hooks.example.com/scan" });
    const inputs = await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan", adopt: true });
    expect(said.join("")).toContain("the create changes nothing; it does not write hmacKey, which no read shows: the task keeps its key");
    await tasks.create(inputs);
    const patch = emulator.runTask.received.filter((r) => r.method === "PATCH").map((r) => r.body as Props);
    expect(patch[0].data.attributes).not.toHaveProperty("global-configuration");
    expect(patch[0].data.attributes).not.toHaveProperty("hmac-key");
    expect(patch[0].data.attributes).not.toHaveProperty("hmac_key");
  });

  test("the HMAC key, which no read shows: a key the task holds is kept where the program gives none; one the program sets replaces it", async () => {
    const existing = emulator.runTask.addTask("emulator-org", { name: "scanner", url: "https://hooks.example.com/scan", hmacKey: "old-key-4c1a" });
    const kept = await tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan", adopt: true }));
    expect(emulator.runTask.store.tasks.get(existing.id)!.hmacKey).toBe("old-key-4c1a");
    // Nothing in the state claims a key: a key the program adds later is sent.
    expect(kept.outs).not.toHaveProperty("hmacKey");

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

test("SnapshotAutoConfig: the preview of an adopt names each credential of the storage type it changes or clears, never their values", async () => {
  const s3 = { name: "offsite", interval: 3600, pathPrefix: "b", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };
  await snapshots.create(await checkedInputs(snapshots, { ...s3, cloudAAccessKeyId: "AKIA-old-7d2c", cloudASecretAccessKey: "old-secret-7d2c" }));
  said = [];
  const inputs = await checkedInputs(snapshots, { ...s3, cloudAAccessKeyId: "AKIA-new-91fe", adopt: true });
  const notice = said.join("");
  // The service shows its credentials: what the program leaves out, the user could read, and the adopt clears it.
  expect(notice).toContain("the create changes cloudAAccessKeyId (secret), cloudASecretAccessKey (cleared, secret)");
  expect(notice).not.toContain("does not write");
  for (const value of ["AKIA-old-7d2c", "old-secret-7d2c", "AKIA-new-91fe"]) expect(notice).not.toContain(value);
  await snapshots.create(inputs);
  expect(emulator.snapshot.configs.get("offsite")?.config).toMatchObject({ cloudA_access_key_id: "AKIA-new-91fe" });
  expect(emulator.snapshot.configs.get("offsite")?.config.cloudA_secret_access_key || undefined).toBeUndefined();
});

describe("SnapshotAutoConfig: an adopt on a service whose reads show no credential changes none it could not show", () => {
  const s3 = { name: "offsite", interval: 3600, pathPrefix: "b", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };
  const held = { ...s3, cloudAAccessKeyId: "AKIA-held-2f8d", cloudASecretAccessKey: "held-secret-2f8d" };

  async function hidingService(postMerges: boolean): Promise<void> {
    await emulator.close();
    emulator = await startEmulator({ snapshot: { takeSnapshots: false, echoCredentials: false, postMerges } });
    configureProvider({ "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN });
    await snapshots.create(await checkedInputs(snapshots, held));
    said = [];
  }
  const credentials = () => {
    const config = emulator.snapshot.configs.get("offsite")?.config as Props;
    return [config.cloudA_access_key_id, config.cloudA_secret_access_key];
  };

  test("nothing a read shows changes: nothing is written, and the credentials stay as they are", async () => {
    await hidingService(false);
    const inputs = await checkedInputs(snapshots, { ...s3, adopt: true });
    expect(said.join("")).toContain(
      "the create changes nothing; it does not write cloudAAccessKeyId, cloudASecretAccessKey, cloudASessionToken, which no read shows: " +
        "a service that keeps what a write leaves out keeps them, one that replaces a configuration with each write drops them",
    );
    emulator.requests.reset();
    await snapshots.create(inputs);
    expect(emulator.requests.writes()).toBe(0);
    expect(credentials()).toEqual(["AKIA-held-2f8d", "held-secret-2f8d"]);
  });

  test("on a service that keeps what a write leaves out, an adopt that changes a setting keeps them too", async () => {
    await hidingService(true);
    await snapshots.create(await checkedInputs(snapshots, { ...s3, retain: 4, adopt: true }));
    const config = emulator.snapshot.configs.get("offsite")?.config as Props;
    expect(config.retain).toBe(4);
    expect(credentials()).toEqual(["AKIA-held-2f8d", "held-secret-2f8d"]);
  });

  test("on a service that shows the identifiers and hides the secrets, the secret the program gives is written, however the read looks", async () => {
    await emulator.close();
    emulator = await startEmulator({ snapshot: { takeSnapshots: false, echoCredentials: "identifiers" } });
    configureProvider({ "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN });
    await snapshots.create(await checkedInputs(snapshots, held));
    emulator.requests.reset();
    await snapshots.create(
      await checkedInputs(snapshots, { ...s3, cloudAAccessKeyId: "AKIA-held-2f8d", cloudASecretAccessKey: "rotated-secret-0b7e", adopt: true }),
    );
    expect(emulator.requests.writes()).toBe(1);
    expect(credentials()).toEqual(["AKIA-held-2f8d", "rotated-secret-0b7e"]);
  });

  test("credentials the program gives are written, the others left out of the write", async () => {
    await hidingService(true);
    const inputs = await checkedInputs(snapshots, { ...s3, cloudASecretAccessKey: "program-secret-6a0c", adopt: true });
    expect(said.join("")).toContain("cloudASecretAccessKey (set, secret)");
    expect(said.join("")).not.toContain("program-secret-6a0c");
    await snapshots.create(inputs);
    expect(credentials()).toEqual(["AKIA-held-2f8d", "program-secret-6a0c"]);
  });
});

test("WorkspaceRunTask: the preview of an adopt lists the settings it changes", async () => {
  const task = emulator.runTask.addTask("emulator-org", { name: "scanner" });
  const workspaceId = emulator.runTask.workspace("network").id;
  const association = emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "advisory", stages: ["post_plan"] });
  await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "mandatory", stages: ["post_plan"], adopt: true });
  expect(said.join("")).toContain(`adopt takes over ${association.id}; the create changes enforcementLevel ("advisory" → "mandatory")`);
});
