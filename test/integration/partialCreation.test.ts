import { DEFAULT_RUNTASK_TOKEN, startEmulator, type Emulator } from "../../emulator";
import { PartialFailure } from "../../provider/common/partialFailure";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { failure } from "../support/failure";
import { configureProvider } from "../support/providerConfig";
import { Switchboard } from "../support/switchboard";
import { checkedInputs } from "../support/checkedInputs";

/**
 * A create whose object was made records it, whatever fails after: the core answers a partial failure carrying an
 * id that its own read, update and delete resolve, and the properties the service holds.
 */
type Props = Record<string, any>;

let emulator: Emulator;
const calls = new Switchboard();
/** Whether the associate call answers as the spec's letter has it, 204 with no body (`letterOfSpec`). */
let letterOfSpec = false;

beforeEach(async () => {
  calls.reset();
  emulator = await startEmulator({
    letterOfSpec,
    runTask: {
      organizations: [
        { name: "acme", globalRunTasks: true, workspaces: [{ name: "app" }] },
        { name: "free", globalRunTasks: false },
      ],
    },
    interceptors: [calls.interceptor],
  });
  configureProvider(
    { "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "acme", "runtask:maxRetries": "1" },
    { retry: { baseDelayMs: 5, maxDelayMs: 20 } },
  );
});
afterEach(() => emulator.close());
afterAll(() => closeSharedDispatchers());

const failing = (method: string, route: string, status = 503) =>
  calls.answers.push((req, key) =>
    req.method === method && key === route ? { status, body: { errors: [{ status: String(status), title: "unavailable" }] } } : undefined,
  );

describe("an association made (204) whose id the list cannot give", () => {
  beforeAll(() => (letterOfSpec = true));
  afterAll(() => (letterOfSpec = false));

  async function made(): Promise<{ err: PartialFailure; taskId: string; workspaceId: string; inputs: Props }> {
    const task = await tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan" }));
    const workspaceId = emulator.runTask.workspace("app", "acme").id;
    const inputs = {
      __provider: "provider-text",
      ...(await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "mandatory" })),
    };
    // The list the create reads before its POST answers; those after it fail.
    let posted = false;
    calls.answers.push((req, key) => void (posted ||= req.method === "POST" && key === "/api/v2/workspaces/:ws/tasks"));
    calls.answers.push((req, key) =>
      posted && req.method === "GET" && key === "/api/v2/workspaces/:ws/tasks"
        ? { status: 503, body: { errors: [{ status: "503", title: "unavailable" }] } }
        : undefined,
    );
    const err = (await failure(wsTasks.create(inputs))) as PartialFailure;
    calls.reset();
    return { err, taskId: task.id, workspaceId, inputs };
  }

  test("is recorded by its task, with the properties the program gave and the provider text the dynamic plugin needs", async () => {
    const { err, taskId, workspaceId } = await made();
    expect(err).toBeInstanceOf(PartialFailure);
    expect(err.code).toBe("server_error");
    expect(err.id).toBe(`${workspaceId}/${taskId}`);
    expect(err.properties).toMatchObject({ workspaceId, taskId, enforcementLevel: "mandatory", stages: ["post_plan"], __provider: "provider-text" });
    expect(err.reasons[0]).toContain(
      `task ${taskId} was associated to workspace ${workspaceId}, but listing the workspace's run tasks for its id failed`,
    );
    expect(emulator.runTask.workspaceTasks()).toHaveLength(1);
  });

  test("a refresh finds its id; an update and a delete by the recorded id reach it", async () => {
    const { err, workspaceId } = await made();
    const [association] = emulator.runTask.workspaceTasks();
    const read = await wsTasks.read(err.id, err.properties);
    expect(read.id).toBe(`${workspaceId}/${association.id}`);
    expect(read.props).toMatchObject({ workspaceTaskId: association.id, enforcementLevel: "mandatory" });

    const news = await checkedInputs(wsTasks, { workspaceId, taskId: err.properties.taskId, enforcementLevel: "advisory" });
    const { outs } = await wsTasks.update(err.id, err.properties, news);
    expect(outs).toMatchObject({ workspaceTaskId: association.id, enforcementLevel: "advisory" });
    expect(emulator.runTask.workspaceTasks()[0].enforcementLevel).toBe("advisory");

    await wsTasks.delete(err.id, err.properties);
    expect(emulator.runTask.workspaceTasks()).toEqual([]);
    // Gone: the workspace's own list says so.
    expect(await wsTasks.read(err.id, err.properties)).toEqual({ id: "", props: {} });
    await expect(wsTasks.delete(err.id, err.properties)).resolves.toBeUndefined();
  });
});

describe("a task created with global settings the organization does not support", () => {
  const scanner = { name: "scanner", url: "https://hooks.example.com/scan", organization: "free", global: { enabled: true } };

  test("is deleted again where it can be: nothing is left, nothing recorded", async () => {
    const err = await failure(tasks.create(await checkedInputs(tasks, scanner)));
    expect(err).not.toBeInstanceOf(PartialFailure);
    expect(err.code).toBe("unsupported");
    expect(emulator.runTask.tasks()).toEqual([]);
  });

  test("whose clean-up delete fails is recorded without global settings, so that the next up is not refused 'already exists'", async () => {
    failing("DELETE", "/api/v2/tasks/:id");
    const err = (await failure(tasks.create({ __provider: "provider-text", ...(await checkedInputs(tasks, scanner)) }))) as PartialFailure;
    expect(err).toBeInstanceOf(PartialFailure);
    const [task] = emulator.runTask.tasks();
    expect(err.id).toBe(task.id);
    expect(err.properties).toMatchObject({ name: "scanner", organization: "free", taskId: task.id, __provider: "provider-text" });
    expect(err.properties).not.toHaveProperty("global");
    expect(err.reasons[0]).toContain('organization "free" does not support global run tasks');
    expect(err.reasons[0]).toContain(`deleting the task made for it failed (run task service: DELETE /tasks/${task.id} failed (HTTP 503`);
    // The next up updates it: without `global` in the program, that converges.
    calls.reset();
    const { global: _g, ...withoutGlobal } = scanner;
    const { outs } = await tasks.update(err.id, err.properties, await checkedInputs(tasks, withoutGlobal));
    expect(outs).toMatchObject({ taskId: task.id, name: "scanner" });
  });
});
