import { DEFAULT_RUNTASK_TOKEN, startEmulator, type Emulator, type Interceptor } from "../../emulator";
import { getWorkspaceRunTask } from "../../provider/functions/runTask";
import { startDeployment } from "../../provider/takeover/heldObjects";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { configureProvider } from "../support/providerConfig";

/**
 * A workspace may hold two associations of one task (the spec does not forbid it; the emulator's `duplicates:
 * "accept"`). The associate call answers 204 without an id, as the spec's letter has it (the emulator's
 * `letterOfSpec`), and an answer may be lost: the association a create made is told from those of the task the
 * workspace held before it, never taken for one of them; where several appeared since, or an id must be resolved among
 * several, the call fails naming them all. Answered with its document, as the real service answers, a create knows
 * its own.
 */
type Props = Record<string, unknown>;

let emulator: Emulator;
/** What the next associate POSTs meet, first to last; other requests pass. */
let planned: ReturnType<Interceptor>[] = [];
/** What another client does at the service as the next associate POST arrives. */
let meanwhile: (() => void) | undefined;
const config = { "runtask:address": "", "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "emulator-org" };

beforeAll(async () => {
  emulator = await startEmulator({
    runTask: { duplicates: "accept", letterOfSpec: true },
    interceptors: [
      (req, route) => {
        if (req.method !== "POST" || route !== "/api/v2/workspaces/:ws/tasks") return undefined;
        meanwhile?.();
        meanwhile = undefined;
        return planned.shift();
      },
    ],
  });
  config["runtask:address"] = emulator.url;
  configureProvider(config, { retry: { baseDelayMs: 5, maxDelayMs: 50 } });
});
afterAll(async () => {
  await emulator.close();
  await closeSharedDispatchers();
});
beforeEach(() => {
  planned = [];
  meanwhile = undefined;
  emulator.runTask.store.workspaceTasks.clear();
  emulator.runTask.store.tasks.clear();
});

const lookup = (key: string) => config[key as keyof typeof config];
const setUp = () => {
  const task = emulator.runTask.addTask("emulator-org", { name: "scanner" });
  const workspaceId = emulator.runTask.workspace("network").id;
  return { task, workspaceId };
};
const checked = async (news: Props) => (await wsTasks.check({}, news)).inputs;
const held = () => emulator.runTask.workspaceTasks().map((w) => [w.id, w.enforcementLevel]);

test("a 204 create where the workspace held one of the task already: the new one is recorded, and its update and delete leave the other", async () => {
  const { task, workspaceId } = setUp();
  const theirs = emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "advisory" });
  const inputs = await checked({ workspaceId, taskId: task.id, enforcementLevel: "advisory" });
  const { id, outs } = await wsTasks.create(inputs);
  expect(id).not.toBe(theirs.id);
  expect(held()).toEqual([
    [theirs.id, "advisory"],
    [id, "advisory"],
  ]);
  await wsTasks.update(id, outs, { ...inputs, enforcementLevel: "mandatory" });
  expect(held()).toEqual([
    [theirs.id, "advisory"],
    [id, "mandatory"],
  ]);
  startDeployment(); // a later command: its destroy
  await wsTasks.delete(id, outs);
  expect(held()).toEqual([[theirs.id, "advisory"]]);
});

test.each([
  ["after the service associated it", "dropAfter"],
  ["before the service acted", "drop"],
] as const)("an answer lost %s, one of the same settings there before: the new one, never that one", async (_when, fault) => {
  const { task, workspaceId } = setUp();
  const theirs = emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "mandatory" });
  planned = [fault];
  const { id } = await wsTasks.create(await checked({ workspaceId, taskId: task.id, enforcementLevel: "mandatory" }));
  expect(id).not.toBe(theirs.id);
  expect(held().map(([w]) => w)).toEqual([theirs.id, id]);
});

test("two made since the create (another client associated the task meanwhile): the create fails naming both, and records neither", async () => {
  const { task, workspaceId } = setUp();
  meanwhile = () => emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "advisory" });
  const err = await wsTasks.create(await checked({ workspaceId, taskId: task.id, enforcementLevel: "advisory" })).then(
    () => undefined,
    (e: Error) => e,
  );
  const made = held().map(([w]) => w);
  expect(made).toHaveLength(2);
  expect(err).toMatchObject({ code: "conflict" });
  expect(err?.message).toContain(`which now holds 2 associations of it that were not there before the create (${made.join(", ")})`);
});

test("an id to resolve among several (recorded by its task, getWorkspaceRunTask): an error naming them all", async () => {
  const { task, workspaceId } = setUp();
  const a = emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "advisory" });
  const b = emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "mandatory" });
  await expect(wsTasks.read(`${workspaceId}/${task.id}`, { workspaceId, taskId: task.id, enforcementLevel: "advisory" })).rejects.toThrow(
    `it holds 2 associations of the task (${a.id}, ${b.id}), and which one is this resource's cannot be told`,
  );
  await expect(getWorkspaceRunTask({ workspaceId, taskId: task.id }, lookup)).rejects.toThrow(
    `getWorkspaceRunTask: workspace ${workspaceId} holds 2 associations of task ${task.id} (${a.id}, ${b.id}): which one is meant cannot be told`,
  );
});

test("the list before the associate call failing: nothing is associated, and the error says so", async () => {
  const failing = await startEmulator({
    runTask: { duplicates: "accept", letterOfSpec: true },
    interceptors: [
      (req, route) =>
        req.method === "GET" && route === "/api/v2/workspaces/:ws/tasks" ? { status: 503, body: { errors: [{ status: "503" }] } } : undefined,
    ],
  });
  try {
    configureProvider({ ...config, "runtask:address": failing.url, "runtask:maxRetries": "0" }, { retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    const ws = failing.runTask.workspace("network").id;
    const other = failing.runTask.addTask("emulator-org", { name: "scanner" });
    await expect(wsTasks.create(await checked({ workspaceId: ws, taskId: other.id, enforcementLevel: "advisory" }))).rejects.toThrow(
      "read before associating: nothing was associated",
    );
    expect(failing.runTask.workspaceTasks()).toEqual([]);
    expect(failing.requests.entries.filter((e) => e.method === "POST")).toEqual([]);
  } finally {
    configureProvider(config, { retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    await failing.close();
  }
});

test("answered with the association's document (the service's answer): a create records its own, whatever another client associated meanwhile", async () => {
  const answering = await startEmulator({ runTask: { duplicates: "accept" } });
  try {
    configureProvider({ ...config, "runtask:address": answering.url }, { retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    const ws = answering.runTask.workspace("network").id;
    const task = answering.runTask.addTask("emulator-org", { name: "scanner" });
    const theirs = answering.runTask.addWorkspaceTask(ws, task.id, { enforcementLevel: "advisory" });
    const { id } = await wsTasks.create(await checked({ workspaceId: ws, taskId: task.id, enforcementLevel: "advisory" }));
    const all = answering.runTask.workspaceTasks({ workspaceId: ws }).map((w) => w.id);
    expect(all).toEqual([theirs.id, id]);
  } finally {
    configureProvider(config, { retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    await answering.close();
  }
});
