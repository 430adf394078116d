import { startEmulator, type Emulator, type Interceptor, DEFAULT_RUNTASK_TOKEN } from "../../emulator";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { newClientStats } from "../../provider/services/tuning";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { configureProvider } from "../support/providerConfig";

/**
 * Creates whose answer is lost, one fault at a time: the provider ends with exactly one object, the one it
 * asked for, and never takes over an object of the same name that it did not make.
 */
type Props = Record<string, any>;
type Verdict = ReturnType<Interceptor>;

let emulator: Emulator;
const stats = newClientStats();
const createOnceStats = stats.creates;
/** The faults still to inject on create POSTs, first to last; other requests pass. */
let planned: Verdict[] = [];

beforeAll(async () => {
  emulator = await startEmulator({
    interceptors: [(req, route) => (req.method === "POST" && route.endsWith("/tasks") ? planned.shift() : undefined)],
  });
  configureProvider(
    { "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "emulator-org" },
    { retry: { baseDelayMs: 5, maxDelayMs: 50 }, stats },
  );
});
afterAll(async () => {
  await emulator.close();
  await closeSharedDispatchers();
});
beforeEach(() => {
  planned = [];
  emulator.runTask.store.workspaceTasks.clear();
  emulator.runTask.store.tasks.clear();
  emulator.requests.reset();
  Object.assign(createOnceStats, { ambiguous: 0, adopted: 0, resent: 0 });
});

const serverError = (status: number) => ({ status, body: { errors: [{ status: String(status), title: "internal error" }] } });
const checked = async (news: Props) => (await tasks.check({}, news)).inputs as Props;
const args = { name: "scanner", url: "https://hooks.example.com/scan", description: "scans" };
const posts = () => emulator.requests.byRoute()["POST /api/v2/organizations/:org/tasks"] ?? 0;

describe("RunTask create whose answer is lost", () => {
  test.each<[string, Verdict[], { posts: number; adopted: number; resent: number }]>([
    ["the connection drops after the service created it", ["dropAfter"], { posts: 1, adopted: 1, resent: 0 }],
    ["the connection drops before the service acted", ["drop"], { posts: 2, adopted: 0, resent: 1 }],
    ["a 502 from a gateway", [serverError(502)], { posts: 2, adopted: 0, resent: 1 }],
    ["a 503", [serverError(503)], { posts: 2, adopted: 0, resent: 1 }],
    ["lost twice, then created but lost again", ["drop", serverError(500), "dropAfter"], { posts: 3, adopted: 1, resent: 2 }],
  ])("%s: exactly one task, the one asked for", async (_label, faults, expected) => {
    planned = [...faults];
    const { id, outs } = await tasks.create(await checked(args));
    const all = emulator.runTask.tasks();
    expect(all.map((t) => [t.id, t.name, t.url])).toEqual([[id, "scanner", args.url]]);
    expect(outs).toMatchObject({ name: "scanner", taskId: id });
    expect(posts()).toBe(expected.posts);
    expect(createOnceStats).toEqual({ ambiguous: faults.length, adopted: expected.adopted, resent: expected.resent });
  });

  test("a task of that name that was there before, and differs, is not taken over", async () => {
    const theirs = emulator.runTask.addTask("emulator-org", { name: "scanner", url: "https://theirs.example" });
    planned = ["drop"];
    await expect(tasks.create(await checked(args))).rejects.toThrow(
      `run task "scanner" of organization "emulator-org" already exists (${theirs.id}); a create never overwrites it`,
    );
    expect(emulator.runTask.tasks().map((t) => [t.id, t.url])).toEqual([[theirs.id, "https://theirs.example"]]);
  });

  test("a 429 says the service did not act: sent again without looking", async () => {
    planned = [{ status: 429, headers: { "retry-after": "0" }, body: { errors: [{ status: "429", title: "Too many requests" }] } }];
    await tasks.create(await checked(args));
    expect(emulator.runTask.tasks()).toHaveLength(1);
    expect(posts()).toBe(2);
    expect(emulator.requests.byRoute()["GET /api/v2/organizations/:org/tasks"]).toBeUndefined();
  });
});

describe("WorkspaceRunTask create whose answer is lost", () => {
  test.each<[string, Verdict[]]>([
    ["dropped after the service associated it", ["dropAfter"]],
    ["dropped before", ["drop"]],
    ["a 500", [serverError(500)]],
  ])("%s: exactly one association", async (_label, faults) => {
    const task = emulator.runTask.addTask("emulator-org", { name: "scanner" });
    const workspaceId = emulator.runTask.workspace("network").id;
    planned = [...faults];
    const inputs = (await wsTasks.check({}, { workspaceId, taskId: task.id, enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] }))
      .inputs as Props;
    const { id } = await wsTasks.create(inputs);
    expect(emulator.runTask.workspaceTasks().map((w) => [w.id, w.taskId, w.enforcementLevel, w.stages])).toEqual([
      [id, task.id, "mandatory", ["pre_plan", "post_plan"]],
    ]);
  });

  test("an association made out of band with other settings is not taken over", async () => {
    const task = emulator.runTask.addTask("emulator-org", { name: "scanner" });
    const workspaceId = emulator.runTask.workspace("network").id;
    emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "advisory" });
    planned = ["drop"];
    const inputs = (await wsTasks.check({}, { workspaceId, taskId: task.id, enforcementLevel: "mandatory" })).inputs as Props;
    await expect(wsTasks.create(inputs)).rejects.toThrow(
      `the association of run task ${task.id} with workspace ${workspaceId} already exists (${emulator.runTask.workspaceTasks()[0].id}); a create never overwrites it`,
    );
    expect(emulator.runTask.workspaceTasks()).toHaveLength(1);
  });
});
