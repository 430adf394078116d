import { startEmulator, type Emulator, type FaultRule, DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { newClientStats } from "../../provider/services/tuning";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { snapshotAutoConfigProvider as configs } from "../../provider/snapshotAutoConfig/provider";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { configureProvider } from "../support/providerConfig";
import { checkedInputs } from "../support/checkedInputs";

/**
 * A request the service carried out, whose connection was then reset (TCP RST): the client sees a system
 * `ECONNRESET`, not undici's "other side closed". A create must look for what it made before it sends again (never
 * a duplicate, never "already exists" for its own object), on a service that refuses a second object of one
 * identity and on one that accepts it; an update is sent again, which is safe. After each, the service holds
 * exactly the objects the provider answered, once each.
 */

const TASKS = "POST /api/v2/organizations/:org/tasks";
const ASSOCIATE = "POST /api/v2/workspaces/:ws/tasks";
const TASK_PATCH = "PATCH /api/v2/tasks/:id";
const ASSOCIATION_PATCH = "PATCH /api/v2/workspaces/:ws/tasks/:id";
const CONFIG_POST = "POST /v1/sys/storage/raft/snapshot-auto/config/:name";

let emulator: Emulator;
const stats = newClientStats();

/** An emulator whose first request of `route` is carried out, then its connection reset. */
async function start(route: string, duplicates: "refuse" | "accept" = "refuse"): Promise<void> {
  const rules: FaultRule[] = [{ route, rates: { resetAfterCommit: 1 }, times: 1 }];
  emulator = await startEmulator({ snapshot: { takeSnapshots: false }, runTask: { duplicates }, faults: { rules } });
  configureProvider(
    {
      "runtask:address": emulator.url,
      "runtask:token": DEFAULT_RUNTASK_TOKEN,
      "runtask:organization": "emulator-org",
      "snapshot:address": emulator.url,
      "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
    },
    { retry: { baseDelayMs: 5, maxDelayMs: 50 }, stats },
  );
  Object.assign(stats.creates, { ambiguous: 0, adopted: 0, resent: 0 });
}

afterEach(() => emulator.close());
afterAll(() => closeSharedDispatchers());

const requests = (route: string) => emulator.requests.byRoute()[route] ?? 0;
const resets = () => emulator.faults!.counts.resetAfterCommit;
const scanner = { name: "scanner", url: "https://hooks.example.com/scan", description: "scans", hmacKey: "hmac-reset-0001" };

describe.each([
  ["a service that refuses a second object of one identity (the default)", "refuse"],
  ["a service that accepts one (duplicates: accept)", "accept"],
] as const)("%s: a create whose connection is reset after the service made the object", (_label, duplicates) => {
  test("RunTask: the task made is found and taken, exactly one task", async () => {
    await start(TASKS, duplicates);
    const { id, outs } = await tasks.create(await checkedInputs(tasks, scanner));
    expect(resets()).toBe(1);
    expect(emulator.runTask.tasks().map((t) => [t.id, t.name, t.url, t.hmacKey])).toEqual([[id, "scanner", scanner.url, scanner.hmacKey]]);
    expect(outs).toMatchObject({ name: "scanner", taskId: id });
    expect(requests(TASKS)).toBe(1);
    expect(stats.creates).toEqual({ ambiguous: 1, adopted: 1, resent: 0 });
  });

  test("WorkspaceRunTask: the association made is found and taken, exactly one association", async () => {
    await start(ASSOCIATE, duplicates);
    const task = emulator.runTask.addTask("emulator-org", { name: "scanner" });
    const workspaceId = emulator.runTask.workspace("network").id;
    const inputs = await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] });
    const { id } = await wsTasks.create(inputs);
    expect(resets()).toBe(1);
    expect(emulator.runTask.workspaceTasks().map((w) => [w.id, w.taskId, w.enforcementLevel])).toEqual([[id, task.id, "mandatory"]]);
    expect(requests(ASSOCIATE)).toBe(1);
  });
});

describe("an update whose connection is reset after the service carried it out is sent again, safely", () => {
  test("RunTask (PATCH): the service holds the new settings, once", async () => {
    await start(TASK_PATCH);
    const task = emulator.runTask.addTask("emulator-org", { name: "scanner", url: scanner.url, description: "scans", hmacKey: "hmac-old-0001" });
    const olds = { ...(await checkedInputs(tasks, scanner)), hmacKey: "hmac-old-0001", taskId: task.id };
    const news = await checkedInputs(tasks, { ...scanner, url: "https://hooks.example.com/v2" }, olds);
    const { outs } = await tasks.update(task.id, olds, news);
    expect(resets()).toBe(1);
    expect(requests(TASK_PATCH)).toBe(2);
    expect(outs).toMatchObject({ url: "https://hooks.example.com/v2", taskId: task.id });
    expect(emulator.runTask.tasks().map((t) => [t.id, t.url, t.hmacKey])).toEqual([[task.id, "https://hooks.example.com/v2", scanner.hmacKey]]);
  });

  test("WorkspaceRunTask (PATCH): the service holds the new settings, once", async () => {
    await start(ASSOCIATION_PATCH);
    const task = emulator.runTask.addTask("emulator-org", { name: "scanner" });
    const workspaceId = emulator.runTask.workspace("network").id;
    const wt = emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "advisory" });
    const olds = { ...(await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "advisory" })), workspaceTaskId: wt.id };
    const news = await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "mandatory" }, olds);
    const { outs } = await wsTasks.update(wt.id, olds, news);
    expect(resets()).toBe(1);
    expect(requests(ASSOCIATION_PATCH)).toBe(2);
    expect(outs).toMatchObject({ enforcementLevel: "mandatory" });
    expect(emulator.runTask.workspaceTasks().map((w) => [w.id, w.enforcementLevel])).toEqual([[wt.id, "mandatory"]]);
  });

  const gcs = { name: "nightly", interval: "24h", pathPrefix: "snaps/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" };

  test("SnapshotAutoConfig create (the POST is an upsert): the configuration, once", async () => {
    await start(CONFIG_POST);
    const { id } = await configs.create(await checkedInputs(configs, gcs));
    expect(resets()).toBe(1);
    expect(id).toBe("nightly");
    expect([...emulator.snapshot.configs.keys()]).toEqual(["nightly"]);
    expect(emulator.snapshot.configs.get("nightly")?.config).toMatchObject({ storage_type: "cloudC-gcs", interval: 86400 });
  });

  test("SnapshotAutoConfig update: the new configuration", async () => {
    await start(CONFIG_POST);
    emulator.faults!.counts.resetAfterCommit = 0;
    const olds = await checkedInputs(configs, gcs);
    // Written out of band, so that the reset falls on the update's POST.
    emulator.snapshot.configs.set("nightly", {
      config: {
        interval: 86400,
        retain: 1,
        path_prefix: "snaps/",
        file_prefix: "service-snapshot",
        storage_type: "cloudC-gcs",
        cloudC_gcs_bucket: "b",
      },
      status: {} as never,
    });
    const news = await checkedInputs(configs, { ...gcs, interval: "1h" }, olds);
    const { outs } = await configs.update("nightly", olds, news);
    expect(resets()).toBe(1);
    expect(outs).toMatchObject({ interval: 3600 });
    expect(emulator.snapshot.configs.get("nightly")?.config).toMatchObject({ interval: 3600 });
  });
});
