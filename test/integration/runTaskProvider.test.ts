import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN } from "../../emulator";
import type { RunTaskEmulatorOptions } from "../../emulator";
import { startDeployment } from "../../provider/takeover/heldObjects";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { configureProvider } from "../support/providerConfig";

let emulator: Emulator;
type Props = Record<string, any>;

async function start(options: RunTaskEmulatorOptions = {}): Promise<void> {
  await emulator?.close();
  emulator = await startEmulator({ runTask: options });
  configureProvider({ "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "emulator-org" });
}

beforeEach(() => start());
afterEach(() => emulator.close());
afterAll(() => closeSharedDispatchers());

const checkedTask = async (news: Props): Promise<Props> => {
  const r = await tasks.check({}, news);
  expect(r.failures).toEqual([]);
  return r.inputs as Props;
};
const checkedAssoc = async (news: Props, olds: Props = {}): Promise<Props> => {
  const r = await wsTasks.check(olds, news);
  expect(r.failures).toEqual([]);
  return r.inputs as Props;
};
const lastBody = () => emulator.runTask.received.at(-1)?.body as any;
const seedTasks = (n: number) => {
  for (let i = 0; i < n; i++) {
    emulator.runTask.store.addTask({
      organization: "emulator-org",
      name: `seed-${i}`,
      url: "https://x.example",
      category: "task",
      description: null,
      hmacKey: null,
      enabled: true,
      global: { enabled: false, stages: [], enforcementLevel: null },
    });
  }
};
const scanner = { name: "scanner", url: "https://hooks.example.com/scan", hmacKey: "hmac-canary-1" };
/** The requests of an association's create, by how the associate call answers. */
const ASSOCIATE_REQUESTS = {
  document: { "GET /api/v2/workspaces/:ws/tasks": 1, "POST /api/v2/workspaces/:ws/tasks": 1 },
  noBody: { "GET /api/v2/workspaces/:ws/tasks": 2, "POST /api/v2/workspaces/:ws/tasks": 1 },
};

describe("RunTask provider against the emulator", () => {
  test("create: one POST, normalised outputs, the key reaches the service", async () => {
    const { id, outs } = await tasks.create(
      await checkedTask({ ...scanner, description: "scans plans", global: { enabled: true, stages: ["pre_plan"], enforcementLevel: "advisory" } }),
    );
    expect(id).toMatch(/^task-/);
    expect(outs).toEqual({
      organization: "emulator-org",
      name: "scanner",
      url: scanner.url,
      description: "scans plans",
      category: "task",
      hmacKey: "hmac-canary-1",
      enabled: true,
      global: { enabled: true, stages: ["pre_plan"], enforcementLevel: "advisory" },
      taskId: id,
    });
    expect(emulator.requests.byRoute()).toEqual({ "POST /api/v2/organizations/:org/tasks": 1 });
    expect(emulator.runTask.store.tasks.get(id)?.hmacKey).toBe("hmac-canary-1");
  });

  test("a taken name fails with advice; adopt finds it past the first pages and takes it over", async () => {
    seedTasks(150);
    emulator.runTask.store.addTask({
      organization: "emulator-org",
      name: "scanner",
      url: "https://old.example",
      category: "task",
      description: null,
      hmacKey: null,
      enabled: false,
      global: { enabled: false, stages: [], enforcementLevel: null },
    });
    await expect(tasks.create(await checkedTask(scanner))).rejects.toThrow(
      /^run task "scanner" of organization "emulator-org" already exists \(task-\w+\); a create never overwrites it/,
    );
    // The check of an adopt reads the task to say what the create will change; the create's own requests follow.
    const adopting = await checkedTask({ ...scanner, adopt: true });
    emulator.requests.reset();
    const { id, outs } = await tasks.create(adopting);
    expect(outs).toMatchObject({ url: scanner.url, enabled: true, adopt: true });
    expect(emulator.runTask.store.tasks.get(id)).toMatchObject({ url: scanner.url, enabled: true, hmacKey: "hmac-canary-1" });
    expect(emulator.requests.byRoute()).toEqual({ "GET /api/v2/organizations/:org/tasks": 2, "PATCH /api/v2/tasks/:id": 1 });
    expect(emulator.runTask.store.tasksOf("emulator-org").filter((t) => t.name === "scanner")).toHaveLength(1);
  });

  test("global settings on an organization without the feature fail and leave nothing behind", async () => {
    await start({ organizations: [{ name: "free", globalRunTasks: false }] });
    await expect(tasks.create(await checkedTask({ ...scanner, organization: "free", global: { enabled: true } }))).rejects.toThrow(
      'organization "free" does not support global run tasks (the service answered without global-configuration): remove `global` from RunTask "scanner", or enable the feature for the organization',
    );
    expect(emulator.runTask.store.tasks.size).toBe(0);
  });

  test("read keeps the write-only key, shows drift, and drops a deleted task", async () => {
    const { id, outs } = await tasks.create(await checkedTask(scanner));
    const { taskId: _t, ...inputs } = outs!;
    expect(await tasks.read(id, { __provider: "p", ...outs })).toEqual({ id, props: outs, inputs });
    emulator.runTask.store.tasks.get(id)!.url = "https://changed.example";
    const drift = await tasks.read(id, outs!);
    expect(drift.props).toMatchObject({ url: "https://changed.example", hmacKey: "hmac-canary-1" });
    expect(drift.inputs).toMatchObject({ url: "https://changed.example", hmacKey: "hmac-canary-1" });
    emulator.runTask.store.deleteTask(id);
    expect(await tasks.read(id, outs!)).toEqual({ id: "", props: {} });
  });

  test("enabled rendered as a string reads as a boolean: no drift", async () => {
    await start({ enabledAsString: true });
    const { id, outs } = await tasks.create(await checkedTask(scanner));
    const read = await tasks.read(id, outs!);
    expect(read.props).toEqual(outs);
    expect((await tasks.diff(id, read.props!, await checkedTask(scanner))).changes).toBe(false);
  });

  test("update sends the key only when it changed: one PATCH each", async () => {
    const { id, outs } = await tasks.create(await checkedTask(scanner));
    emulator.requests.reset();
    const disabled = await checkedTask({ ...scanner, enabled: false });
    expect((await tasks.diff(id, outs!, disabled)).changes).toBe(true);
    const { outs: after } = await tasks.update(id, outs!, disabled);
    expect(lastBody().data.attributes).not.toHaveProperty("hmac-key");
    expect(emulator.runTask.store.tasks.get(id)).toMatchObject({ enabled: false, hmacKey: "hmac-canary-1" });

    const rotated = await checkedTask({ ...scanner, enabled: false, hmacKey: "hmac-canary-2" });
    await tasks.update(id, after!, rotated);
    expect(lastBody().data.attributes["hmac-key"]).toBe("hmac-canary-2");
    expect(emulator.runTask.store.tasks.get(id)?.hmacKey).toBe("hmac-canary-2");
    expect(emulator.requests.byRoute()).toEqual({ "PATCH /api/v2/tasks/:id": 2 });
  });

  test("delete; deleting again succeeds", async () => {
    const { id, outs } = await tasks.create(await checkedTask(scanner));
    startDeployment(); // a destroy, after the up that created it
    await tasks.delete(id);
    expect(emulator.runTask.store.tasks.size).toBe(0);
    await expect(tasks.delete(id)).resolves.toBeUndefined();
    expect(outs).toBeDefined();
  });

  test("404 is explained by asking the organization; 422 shows the server's details", async () => {
    await expect(tasks.create(await checkedTask({ ...scanner, organization: "nope" }))).rejects.toThrow(
      /POST \/organizations\/nope\/tasks failed \(HTTP 404\): not found; organization "nope" answers 404 too/,
    );
    const a = await tasks.create(await checkedTask(scanner));
    await tasks.create(await checkedTask({ ...scanner, name: "other" }));
    const renamed = await checkedTask({ ...scanner, name: "other" });
    const err = await tasks.update(a.id, a.outs!, renamed).catch((e: Error) => e);
    expect((err as Error).message).toBe(
      `run task service: PATCH /tasks/${a.id} failed (HTTP 422): invalid attribute: Name has already been taken (at /data/attributes/name)`,
    );
    expect((err as Error).message).not.toContain("hmac-canary");
  });

  test("a wrong token is a 401 that never shows the token (the emulator's default, as the real service answers)", async () => {
    configureProvider({ "runtask:address": emulator.url, "runtask:token": "wrong-token-canary", "runtask:organization": "emulator-org" });
    const err = await tasks.create(await checkedTask(scanner)).catch((e: Error) => e);
    expect((err as Error).message).toBe(
      "run task service: POST /organizations/emulator-org/tasks failed (HTTP 401): unauthorized; the token is not valid (runtask:token / RUNTASK_TOKEN)",
    );
  });

  test("under the spec's letter a wrong token is a 404, explained by asking the organization, that never shows the token", async () => {
    await start({ letterOfSpec: true });
    configureProvider({ "runtask:address": emulator.url, "runtask:token": "wrong-token-canary", "runtask:organization": "emulator-org" });
    const err = await tasks.create(await checkedTask(scanner)).catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      /^run task service: POST \/organizations\/emulator-org\/tasks failed \(HTTP 404\): not found; organization "emulator-org" answers 404 too/,
    );
    expect((err as Error).message).not.toContain("wrong-token-canary");
    expect(emulator.runTask.tasks()).toEqual([]);
  });
});

describe("WorkspaceRunTask provider against the emulator", () => {
  const ws = () => emulator.runTask.workspace("app-production").id;
  const newTask = async () => (await tasks.create(await checkedTask(scanner))).id;

  test("create, read, update (one PATCH), delete twice", async () => {
    const taskId = await newTask();
    const inputs = await checkedAssoc({ workspaceId: ws(), taskId, enforcementLevel: "advisory", stages: ["post_plan", "pre_plan"] });
    const { id, outs } = await wsTasks.create(inputs);
    expect(id).toMatch(/^wstask-/);
    expect(outs).toEqual({
      workspaceId: ws(),
      taskId,
      enforcementLevel: "advisory",
      stages: ["post_plan", "pre_plan"],
      stage: "post_plan",
      workspaceTaskId: id,
    });
    const read = await wsTasks.read(id, outs!);
    expect(read).toEqual({ id, props: outs, inputs: { workspaceId: ws(), taskId, enforcementLevel: "advisory", stages: ["post_plan", "pre_plan"] } });
    expect((await wsTasks.diff(id, read.props!, inputs)).changes).toBe(false);

    emulator.requests.reset();
    const news = await checkedAssoc({ ...inputs, enforcementLevel: "mandatory" }, inputs);
    const { outs: after } = await wsTasks.update(id, outs!, news);
    expect(after).toMatchObject({ enforcementLevel: "mandatory" });
    expect(emulator.requests.byRoute()).toEqual({ "PATCH /api/v2/workspaces/:ws/tasks/:id": 1 });

    startDeployment(); // a destroy, after the up that created it
    await wsTasks.delete(id, after!);
    expect(emulator.runTask.store.workspaceTasks.size).toBe(0);
    await expect(wsTasks.delete(id, after!)).resolves.toBeUndefined();
  });

  test("an associate answered with the association's document (the default) takes its id from it", async () => {
    const taskId = await newTask();
    emulator.requests.reset();
    const { id, outs } = await wsTasks.create(await checkedAssoc({ workspaceId: ws(), taskId, enforcementLevel: "advisory" }));
    expect(emulator.runTask.store.workspaceTasks.has(id)).toBe(true);
    expect(outs).toMatchObject({ stages: ["post_plan"], workspaceTaskId: id });
    expect(emulator.requests.byRoute()).toEqual(ASSOCIATE_REQUESTS.document);
  });

  test("an associate answered with 204 and no body (the spec's letter) finds the association by listing", async () => {
    await start({ letterOfSpec: true });
    const taskId = await newTask();
    emulator.requests.reset();
    const { id, outs } = await wsTasks.create(await checkedAssoc({ workspaceId: ws(), taskId, enforcementLevel: "advisory" }));
    expect(emulator.runTask.store.workspaceTasks.has(id)).toBe(true);
    expect(outs).toMatchObject({ stages: ["post_plan"], workspaceTaskId: id });
    expect(emulator.requests.byRoute()).toEqual(ASSOCIATE_REQUESTS.noBody);
  });

  test("the deprecated stage is sent as stages", async () => {
    const taskId = await newTask();
    const { outs } = await wsTasks.create(await checkedAssoc({ workspaceId: ws(), taskId, enforcementLevel: "advisory", stage: "pre_apply" }));
    expect(lastBody().data.attributes).toEqual({ "enforcement-level": "advisory", stages: ["pre_apply"] });
    expect(outs).toMatchObject({ stage: "pre_apply", stages: ["pre_apply"] });
  });

  test("drift and out-of-band deletion", async () => {
    const taskId = await newTask();
    const { id, outs } = await wsTasks.create(await checkedAssoc({ workspaceId: ws(), taskId, enforcementLevel: "advisory" }));
    emulator.runTask.store.workspaceTasks.get(id)!.enforcementLevel = "mandatory";
    expect((await wsTasks.read(id, outs!)).props).toMatchObject({ enforcementLevel: "mandatory" });
    emulator.runTask.store.workspaceTasks.delete(id);
    expect(await wsTasks.read(id, outs!)).toEqual({ id: "", props: {} });
  });

  test("an existing association fails with advice; adopt takes it over", async () => {
    const taskId = await newTask();
    const first = await wsTasks.create(await checkedAssoc({ workspaceId: ws(), taskId, enforcementLevel: "advisory" }));
    startDeployment(); // a later up: the association was made before it
    await expect(wsTasks.create(await checkedAssoc({ workspaceId: ws(), taskId, enforcementLevel: "mandatory" }))).rejects.toThrow(
      `the association of run task ${taskId} with workspace ${ws()} already exists (${first.id}); a create never overwrites it`,
    );
    const adopted = await wsTasks.create(await checkedAssoc({ workspaceId: ws(), taskId, enforcementLevel: "mandatory", adopt: true }));
    expect(adopted.id).toBe(first.id);
    expect(emulator.runTask.store.workspaceTasks.get(first.id)?.enforcementLevel).toBe("mandatory");
  });

  test("a missing workspace is explained", async () => {
    const taskId = await newTask();
    await expect(wsTasks.create(await checkedAssoc({ workspaceId: "ws-missing", taskId, enforcementLevel: "advisory" }))).rejects.toThrow(
      /HTTP 404\): not found; workspace ws-missing answers 404 too/,
    );
  });
});
