import { DEFAULT_RUNTASK_TOKEN, startEmulator, type Emulator, type RunTaskEmulatorOptions } from "../../emulator";
import { PartialFailure } from "../../provider/common/partialFailure";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { failure } from "../support/failure";
import { configureProvider } from "../support/providerConfig";
import { checkedInputs } from "../support/checkedInputs";

/**
 * A list is proof that an object is gone only when it shows what the service holds: not a list that lags behind
 * writes (a replica), nor one that changed between its pages. Read, refresh and delete then keep the object in the
 * state, or wait for the list to catch up within the operation's bound; the service holds exactly the objects the
 * state names.
 */

let emulator: Emulator;

/**
 * Reads made again wait 50, 100, 200, 400 and 800 ms (`maxRetries` 5): the lists below that lag by 300 ms catch up
 * within them, and one that never shows an association is read six times in about 1.5 s.
 */
async function start(runTask: RunTaskEmulatorOptions, settings: Record<string, string> = {}, baseDelayMs = 50): Promise<void> {
  emulator = await startEmulator({ runTask });
  configureProvider(
    { "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "emulator-org", ...settings },
    { retry: { baseDelayMs, maxDelayMs: 1000 } },
  );
}
afterEach(() => emulator.close());
afterAll(() => closeSharedDispatchers());

/** A task, and its association made while the workspace's list lags: recorded by its task (a partial failure). */
async function recordedByTask(): Promise<{ err: PartialFailure; workspaceId: string }> {
  const task = emulator.runTask.addTask("emulator-org", { name: "scanner" });
  const workspaceId = emulator.runTask.workspace("network").id;
  const err = (await failure(
    wsTasks.create(await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "mandatory" })),
  )) as PartialFailure;
  expect(err).toBeInstanceOf(PartialFailure);
  expect(err.id).toBe(`${workspaceId}/${task.id}`);
  expect(err.reasons[0]).toContain("the workspace's list does not show it yet");
  expect(emulator.runTask.workspaceTasks()).toHaveLength(1);
  return { err, workspaceId };
}

test("answered with its document (the service's answer), an association made while its workspace's list lags is recorded at once", async () => {
  await start({ listLagMs: 60_000 });
  const task = emulator.runTask.addTask("emulator-org", { name: "scanner" });
  const workspaceId = emulator.runTask.workspace("network").id;
  const { id } = await wsTasks.create(await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "mandatory" }));
  expect(id).toBe(emulator.runTask.workspaceTasks()[0].id);
});

// Associated with 204 and no body (the spec's letter, `letterOfSpec`): the id comes from the workspace's list alone.
describe("an association recorded by its task, its workspace's list lagging behind writes (listLagMs)", () => {
  test("its delete waits for the list to show it, and deletes it", async () => {
    await start({ listLagMs: 300, letterOfSpec: true });
    const { err } = await recordedByTask();
    await wsTasks.delete(err.id, err.properties);
    expect(emulator.runTask.workspaceTasks()).toEqual([]);
  });

  test("a refresh waits for the list to show it, and stores its id", async () => {
    await start({ listLagMs: 300, letterOfSpec: true });
    const { err, workspaceId } = await recordedByTask();
    const [association] = emulator.runTask.workspaceTasks();
    const read = await wsTasks.read(err.id, err.properties);
    expect(read.id).toBe(`${workspaceId}/${association.id}`);
    expect(read.props).toMatchObject({ workspaceTaskId: association.id });
  });

  test("a list that still does not show it at the operation's bound proves nothing: the delete fails and the state keeps it", async () => {
    // Waits of 400 ms and 800 ms: the second would end past the bound.
    await start({ listLagMs: 60_000, letterOfSpec: true }, { "runtask:operationTimeout": "1s" }, 400);
    const { err } = await recordedByTask();
    const deleted = await failure(wsTasks.delete(err.id, err.properties));
    expect(deleted.code).toBe("not_found");
    expect(deleted.message).toContain("kept in the state");
    const refreshed = await failure(wsTasks.read(err.id, err.properties));
    expect(refreshed.code).toBe("not_found");
    expect(emulator.runTask.workspaceTasks()).toHaveLength(1);
  });

  test("deleted outside the program: once the list has caught up, it is gone", async () => {
    await start({ listLagMs: 200, letterOfSpec: true });
    const { err } = await recordedByTask();
    await new Promise((resolve) => setTimeout(resolve, 250));
    emulator.runTask.store.workspaceTasks.clear();
    expect(await wsTasks.read(err.id, err.properties)).toEqual({ id: "", props: {} });
    await expect(wsTasks.delete(err.id, err.properties)).resolves.toBeUndefined();
  });
});

describe("a list that changed between its pages (listChurn) is no proof of absence", () => {
  /**
   * `before` tasks of others ahead of the one asked for and `after` behind it, pages of 100. With 100 ahead, the
   * one asked for opens the second page, and the task another client deletes from the first page before the second
   * is read moves it onto the first, read already: a list read once leaves it out. Read again, the list fits one
   * page, and agrees with itself. With more behind, every read has later pages, and changes under each.
   */
  function seedTasks(before: number, after = 0): void {
    for (let i = 0; i < before; i++) emulator.runTask.addTask("emulator-org", { name: `other-${i}` });
    const task = emulator.runTask.addTask("emulator-org", { name: "scanner", url: "https://hooks.example.com/scan" });
    for (let i = 0; i < after; i++) emulator.runTask.addTask("emulator-org", { name: `later-${i}` });
    scanner = task.id;
  }
  let scanner = "";
  const denied = { [DEFAULT_RUNTASK_TOKEN]: { owner: true, deniedRoutes: ["GET /tasks/:id", "DELETE /tasks/:id"] } };
  const taskState = async () => ({ ...(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan" })), taskId: scanner });

  test("a task whose show answers 404 (a token that may not read it): the list is read again, and holds it", async () => {
    await start({ listChurn: "remove", tokens: denied });
    seedTasks(100);
    const state = await taskState();
    const read = await failure(tasks.read(scanner, state));
    expect(read.code).toBe("not_found");
    expect(read.message).toContain(`the task list of organization "emulator-org" holds ${scanner}`);
    expect(emulator.runTask.tasks().some((t) => t.id === scanner)).toBe(true);
  });

  test("a list that changes under every read proves nothing, even of a task deleted: it is kept in the state", async () => {
    await start({ listChurn: "remove" });
    seedTasks(100, 150);
    const state = await taskState();
    emulator.runTask.store.deleteTask(scanner);
    for (const call of [() => tasks.read(scanner, state), () => tasks.delete(scanner, state)]) {
      const err = await failure(call());
      expect(err.code).toBe("not_found");
      expect(err.message).toContain("changed while it was read (its pages disagree, 3 reads): what it leaves out proves nothing");
    }
  });

  test("an association whose show answers 404 is not taken for gone", async () => {
    await start({
      listChurn: "remove",
      tokens: { [DEFAULT_RUNTASK_TOKEN]: { owner: true, deniedRoutes: ["GET /workspaces/:ws/tasks/:id", "DELETE /workspaces/:ws/tasks/:id"] } },
    });
    const workspaceId = emulator.runTask.workspace("network").id;
    for (let i = 0; i < 100; i++) emulator.runTask.addWorkspaceTask(workspaceId, emulator.runTask.addTask("emulator-org", { name: `other-${i}` }).id);
    const task = emulator.runTask.addTask("emulator-org", { name: "scanner" });
    const association = emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "mandatory" });
    const state = {
      ...(await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "mandatory" })),
      workspaceTaskId: association.id,
    };
    const read = await failure(wsTasks.read(association.id, state));
    expect(read.code).toBe("not_found");
    const deleted = await failure(wsTasks.delete(association.id, state));
    expect(deleted.code).toBe("not_found");
    expect(emulator.runTask.workspaceTasks({ taskId: task.id })).toHaveLength(1);
  });

  test("a create whose connection is reset does not take a changing list for 'not made': no second task", async () => {
    emulator = await startEmulator({
      runTask: { listChurn: "remove", duplicates: "accept" },
      faults: { rules: [{ route: "POST /api/v2/organizations/:org/tasks", rates: { resetAfterCommit: 1 }, times: 1 }] },
    });
    configureProvider(
      { "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "emulator-org" },
      { retry: { baseDelayMs: 5, maxDelayMs: 20 } },
    );
    for (let i = 0; i < 100; i++) emulator.runTask.addTask("emulator-org", { name: `other-${i}` });
    // The task made is the list's 101st: the first read leaves it out, the second (one page by then) shows it.
    const { id } = await tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan" }));
    expect(
      emulator.runTask
        .tasks()
        .filter((t) => t.name === "scanner")
        .map((t) => t.id),
    ).toEqual([id]);
  });
});
