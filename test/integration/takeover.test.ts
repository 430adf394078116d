import { DEFAULT_RUNTASK_TOKEN, startEmulator, type Emulator } from "../../emulator";
import type { EmulatorResponse } from "../../emulator/core/router";
import { PartialFailure } from "../../provider/common/partialFailure";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { readStatesWith } from "../../provider/takeover/alreadyExists";
import { startDeployment } from "../../provider/takeover/heldObjects";
import { ADOPT_PENDING_CREATES } from "../../provider/takeover/pendingCreates";
import { withCallResource } from "../../provider/context";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { checkedInputs } from "../support/checkedInputs";
import { failure } from "../support/failure";
import { configureProvider } from "../support/providerConfig";
import { Switchboard } from "../support/switchboard";

/**
 * Taking over an object that exists (takeover/proof.ts), and taking an answer for the object asked for, at the
 * provider, against the emulator and answers shaped as the spec allows:
 * - a lookup by name takes an object only where the name is unique (adopt, an import by name, the recovery of a stopped
 *   create, the refusal of a create that finds its name taken): two of one name, and nothing is taken or changed, the
 *   error naming every id;
 * - an associate answered with a document that is not the association asked for is looked up as after a lost answer;
 * - an update whose outcome is uncertain (its answer lost, or a success without the document) leaves the state with
 *   what the service holds.
 */
type Props = Record<string, any>;

const calls = new Switchboard();
let emulator: Emulator;
const ORG = "emulator-org";

beforeAll(async () => {
  emulator = await startEmulator({ runTask: { duplicates: "accept" }, interceptors: [calls.interceptor] });
  configureProvider(
    { "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": ORG, "runtask:maxRetries": "1" },
    { retry: { baseDelayMs: 5, maxDelayMs: 20 } },
  );
});
afterAll(async () => {
  await emulator.close();
  await closeSharedDispatchers();
});
beforeEach(() => {
  startDeployment();
  calls.reset();
  emulator.runTask.store.workspaceTasks.clear();
  emulator.runTask.store.tasks.clear();
  delete process.env[ADOPT_PENDING_CREATES];
});

const workspaceId = () => emulator.runTask.workspace("network").id;
const taskState = () => emulator.runTask.tasks().map((t) => [t.id, t.url, emulator.runTask.store.tasks.get(t.id)!.hmacKey]);

describe("two tasks of one name in the organization (the spec does not make names unique): neither is taken", () => {
  const twoNamed = () => [
    emulator.runTask.addTask(ORG, { name: "scanner", url: "https://ours.example.com/a", hmacKey: "key-of-ours-1a" }),
    emulator.runTask.addTask(ORG, { name: "scanner", url: "https://theirs.example.com/b", hmacKey: "key-of-theirs-2b" }),
  ];
  const ids = (found: { id: string }[]) => found.map((t) => t.id).join(", ");

  test("adopt: refused naming both, nothing written; its preview says it cannot tell which", async () => {
    const found = twoNamed();
    const before = taskState();
    const said: string[] = [];
    const stderr = jest.spyOn(process.stderr, "write").mockImplementation((chunk) => (said.push(String(chunk)), true));
    let inputs: Props;
    try {
      inputs = await checkedInputs(tasks, { name: "scanner", url: "https://ours.example.com/new", adopt: true, hmacKey: "new-key-3c" });
    } finally {
      stderr.mockRestore();
    }
    expect(said.join("")).toContain(`there are 2 run tasks named "scanner" in organization "${ORG}" (${ids(found)})`);
    emulator.requests.reset();
    const err = await failure(tasks.create(inputs));
    expect(err).toMatchObject({ code: "conflict" });
    expect(err.message).toContain(`RunTask "scanner": adopt: there are 2 run tasks named "scanner" in organization "${ORG}" (${ids(found)})`);
    expect(err.message).toContain("none is taken over or changed");
    expect(emulator.requests.writes()).toBe(0);
    expect(taskState()).toEqual(before);
  });

  test("import by <organization>/<name>: refused naming both; by its task- id, taken", async () => {
    const found = twoNamed();
    const err = await failure(tasks.read(`${ORG}/scanner`, {}));
    expect(err).toMatchObject({ code: "conflict" });
    expect(err.message).toContain(`import "${ORG}/scanner": there are 2 run tasks named "scanner" in organization "${ORG}" (${ids(found)})`);
    expect((await tasks.read(found[1].id, {})).props).toMatchObject({ name: "scanner", url: "https://theirs.example.com/b" });
  });

  test("the recovery of a stopped create: refused naming both, nothing written", async () => {
    const found = twoNamed();
    const urn = "urn:pulumi:dev::p::runtask:index:RunTask::scanner";
    process.env[ADOPT_PENDING_CREATES] = urn;
    const inputs = await checkedInputs(tasks, { name: "scanner", url: "https://ours.example.com/a" });
    emulator.requests.reset();
    const err = await failure(withCallResource(urn, () => tasks.create(inputs)));
    expect(err.message).toContain(`the recovery of an up stopped while creating it: there are 2 run tasks named "scanner"`);
    expect(err.message).toContain(ids(found));
    expect(emulator.requests.writes()).toBe(0);
  });

  test("a create refused because the name is taken names both, and never one of them as the object in the way", async () => {
    await emulator.close();
    emulator = await startEmulator({ interceptors: [calls.interceptor] });
    configureProvider({ "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": ORG });
    const found = twoNamed();
    const err = await failure(tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://ours.example.com/a" })));
    expect(err).toMatchObject({ code: "conflict" });
    expect(err.message).toContain(ids(found));
    expect(emulator.runTask.tasks()).toHaveLength(2);
  });

  test("import of an association by <workspace-id>/<task-name> or <workspace-id>/<task-id>, where that names two: refused naming both", async () => {
    await emulator.close();
    emulator = await startEmulator({ runTask: { duplicates: "accept" }, interceptors: [calls.interceptor] });
    configureProvider({ "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": ORG });
    const [ours, theirs] = twoNamed();
    const ws = workspaceId();
    const a = emulator.runTask.addWorkspaceTask(ws, ours.id);
    const b = emulator.runTask.addWorkspaceTask(ws, theirs.id);
    const byName = await failure(wsTasks.read(`${ws}/scanner`, {}));
    expect(byName.message).toContain(`import "${ws}/scanner": there are 2 associations of run tasks named "scanner" in workspace ${ws}`);
    expect(byName.message).toContain(`${a.id}, ${b.id}`);
    const c = emulator.runTask.addWorkspaceTask(ws, ours.id);
    const byTask = await failure(wsTasks.read(`${ws}/${ours.id}`, {}));
    expect(byTask.message).toContain(`there are 2 associations of task ${ours.id} in workspace ${ws} (${a.id}, ${c.id})`);
  });
});

describe("an associate answered with a document that is not the association asked for: looked up as after a lost answer", () => {
  /** Carries the associate out at the emulator, then answers it with `answer(made)`. */
  function answeredWith(answer: (made: { id: string; taskId: string }) => EmulatorResponse): void {
    calls.answers.push((req, route) => {
      if (req.method !== "POST" || route !== "/api/v2/workspaces/:ws/tasks") return undefined;
      const taskId = (req.body as Props).data.relationships.task.data.id;
      const made = emulator.runTask.addWorkspaceTask(req.params.ws, taskId, { enforcementLevel: "mandatory" });
      return answer({ id: made.id, taskId });
    });
  }
  const doc = (data: Props): EmulatorResponse => ({ status: 201, body: { data }, contentType: "application/vnd.api+json" });

  test.each([
    ["another type", (m: { id: string; taskId: string }) => doc({ id: m.taskId, type: "tasks", attributes: { name: "scanner" } })],
    ["an id of another shape", () => doc({ id: "task-lookalike", type: "workspace-tasks", attributes: {} })],
    [
      "another task",
      () =>
        doc({ id: "wstask-other", type: "workspace-tasks", attributes: {}, relationships: { task: { data: { id: "task-other", type: "tasks" } } } }),
    ],
  ])("%s: the association made is recorded, and its delete removes it", async (_shape, answer) => {
    const task = emulator.runTask.addTask(ORG, { name: "scanner" });
    answeredWith(answer);
    const inputs = await checkedInputs(wsTasks, { workspaceId: workspaceId(), taskId: task.id, enforcementLevel: "mandatory" });
    const { id, outs } = await wsTasks.create(inputs);
    const [made] = emulator.runTask.workspaceTasks();
    expect(emulator.runTask.workspaceTasks()).toHaveLength(1);
    expect([id, outs.workspaceTaskId]).toEqual([made.id, made.id]);
    calls.reset();
    // The delete comes in a later command (a deployment of its own).
    startDeployment();
    await wsTasks.delete(id, outs);
    expect(emulator.runTask.workspaceTasks()).toEqual([]);
  });
});

describe("an update whose outcome is uncertain: the state records what the service holds", () => {
  test("WorkspaceRunTask: the PATCH carried out and its answer lost, every try: a partial failure with the service's settings", async () => {
    const task = emulator.runTask.addTask(ORG, { name: "scanner" });
    const inputs = await checkedInputs(wsTasks, { workspaceId: workspaceId(), taskId: task.id, enforcementLevel: "advisory" });
    const { id, outs } = await wsTasks.create(inputs);
    calls.answers.push((req, route) => (req.method === "PATCH" && route === "/api/v2/workspaces/:ws/tasks/:id" ? "dropAfter" : undefined));
    const news = await checkedInputs(wsTasks, { ...inputs, enforcementLevel: "mandatory", stages: ["pre_plan"] }, outs);
    const err = (await failure(wsTasks.update!(id, outs, news))) as PartialFailure;
    expect(err).toBeInstanceOf(PartialFailure);
    expect(err.id).toBe(id);
    expect(err.properties).toMatchObject({ enforcementLevel: "mandatory", stages: ["pre_plan"], workspaceTaskId: id });
    expect(emulator.runTask.workspaceTasks()[0]).toMatchObject({ enforcementLevel: "mandatory", stages: ["pre_plan"] });
  });

  test("WorkspaceRunTask: a PATCH that was not carried out leaves the failure, and the state, as they were", async () => {
    const task = emulator.runTask.addTask(ORG, { name: "scanner" });
    const inputs = await checkedInputs(wsTasks, { workspaceId: workspaceId(), taskId: task.id, enforcementLevel: "advisory" });
    const { id, outs } = await wsTasks.create(inputs);
    calls.answers.push((req, route) => (req.method === "PATCH" && route === "/api/v2/workspaces/:ws/tasks/:id" ? "drop" : undefined));
    const news = await checkedInputs(wsTasks, { ...inputs, enforcementLevel: "mandatory" }, outs);
    const err = await failure(wsTasks.update!(id, outs, news));
    expect(err).not.toBeInstanceOf(PartialFailure);
    expect(emulator.runTask.workspaceTasks()[0]).toMatchObject({ enforcementLevel: "advisory" });
  });

  test("RunTask: a PATCH carried out and answered 200 with no document: a partial failure with the service's settings", async () => {
    const { id, outs } = await tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/old" }));
    calls.answers.push((req, route) => {
      if (req.method !== "PATCH" || route !== "/api/v2/tasks/:id") return undefined;
      emulator.runTask.store.tasks.get(req.params.id)!.url = (req.body as Props).data.attributes.url;
      return { status: 200 };
    });
    const news = await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/new" }, outs);
    const err = (await failure(tasks.update!(id, outs, news))) as PartialFailure;
    expect(err).toBeInstanceOf(PartialFailure);
    expect(err.properties).toMatchObject({ url: "https://hooks.example.com/new", taskId: id });
    expect(err.message).toContain("a read shows the task with the program's settings: it is recorded as the service holds it");
  });

  test("RunTask: a PATCH answered with another task's document is not taken for this one's", async () => {
    const { id, outs } = await tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/old" }));
    calls.answers.push((req, route) =>
      req.method === "PATCH" && route === "/api/v2/tasks/:id"
        ? {
            status: 200,
            body: { data: { id: "task-another", type: "tasks", attributes: { name: "other" } } },
            contentType: "application/vnd.api+json",
          }
        : undefined,
    );
    const news = await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/new" }, outs);
    const err = await failure(tasks.update!(id, outs, news));
    // Not carried out (the answer came from elsewhere, the task is as it was): the failure stands, naming the address setting.
    expect(err).not.toBeInstanceOf(PartialFailure);
    expect(err).toMatchObject({ code: "unexpected_answer" });
    expect(err.message).toContain(`for ${id}`);
    expect(emulator.runTask.tasks()[0].url).toBe("https://hooks.example.com/old");
  });
});

describe("a create that finds its object: the stacks' states decide between taking it over and the one cause that applies", () => {
  const URN = "urn:pulumi:dev::app::runtask:index:RunTask::scanner";
  const TYPE = "runtask:index:RunTask";
  type State = { resources?: Props[]; pending_operations?: Props[] };
  let states: Record<string, State>;
  let exports: string[];
  /** Stacks the backend lists whose states cannot be read. */
  let listedOnly: string[] = [];
  beforeAll(() =>
    readStatesWith(() => ({
      list: async () => [...Object.keys(states), ...listedOnly],
      export: async (stack) => {
        exports.push(stack);
        if (!(stack in states)) throw new Error(`no stack ${stack}`);
        return states[stack];
      },
    })),
  );
  afterAll(() => readStatesWith(undefined));
  const pendingCreate = (inputs: Props) => ({ type: "creating", resource: { urn: URN, type: TYPE, inputs } });
  const resource = (urn: string, id: string) => ({ urn, type: TYPE, id, outputs: {} });

  async function createOf(url: string): Promise<Error & { code?: string }> {
    const inputs = await checkedInputs(tasks, { name: "scanner", url });
    return failure(withCallResource(URN, () => tasks.create(inputs)));
  }

  test("this stack's pending create of this very resource, the object holding what it sent, held by no one: taken over, once", async () => {
    await emulator.close();
    emulator = await startEmulator({ interceptors: [calls.interceptor] });
    configureProvider({ "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": ORG });
    const made = emulator.runTask.addTask(ORG, { name: "scanner", url: "https://hooks.example.com/old-url" });
    // The engine lists the command's own create first, the earlier one after it.
    states = {
      dev: {
        resources: [],
        pending_operations: [
          pendingCreate({}),
          pendingCreate({ name: "scanner", url: "https://hooks.example.com/old-url", category: "task", enabled: true }),
        ],
      },
      prod: { resources: [] },
    };
    exports = [];
    // A stack of another project whose state cannot be read does not stand in the way: those of this project were read.
    listedOnly = ["organization/other-project/prod"];
    const inputs = await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/new-url" });
    const { id, outs } = await withCallResource(URN, () => tasks.create(inputs));
    expect(id).toBe(made.id);
    expect(outs.url).toBe("https://hooks.example.com/new-url");
    expect(emulator.runTask.tasks().map((t) => [t.id, t.url])).toEqual([[made.id, "https://hooks.example.com/new-url"]]);
    expect(exports.sort()).toEqual(["dev", "organization/other-project/prod", "prod"]);
  });

  test.each([
    [
      "the object holds other settings than that create sent",
      () => ({ dev: { pending_operations: [pendingCreate({}), pendingCreate({ name: "scanner", url: "https://elsewhere.example.com" })] } }),
      /An up of this stack was stopped while creating urn:pulumi:dev::app::runtask:index:RunTask::scanner, but the object does not hold what that create sent, so it is not taken as that create's\. If it is, record it with no program change: `pulumi stack export/,
    ],
    [
      "another stack holds it",
      (id: string) => ({
        dev: { pending_operations: [pendingCreate({})] },
        "organization/app/prod": { resources: [resource("urn:pulumi:prod::app::runtask:index:RunTask::scanner", id)] },
      }),
      /It is managed by stack "organization\/app\/prod" \(urn:pulumi:prod::app::runtask:index:RunTask::scanner\) of this backend\. Give each stack its own `name`/,
    ],
    [
      "another resource of this stack holds it",
      (id: string) => ({
        dev: { resources: [resource("urn:pulumi:dev::app::runtask:index:RunTask::old-scanner", id)], pending_operations: [pendingCreate({})] },
      }),
      /Resource "old-scanner" \(urn:pulumi:dev::app::runtask:index:RunTask::old-scanner\) of this stack holds it\. Renamed or moved in the program/,
    ],
    [
      "this very resource holds it (a replacement that creates first)",
      (id: string) => ({ dev: { resources: [resource(URN, id)], pending_operations: [pendingCreate({})] } }),
      /This very resource holds it in the stack's state: its replacement creates the new object before it deletes the old one.*`deleteBeforeReplace: true`/,
    ],
    [
      "nothing holds it, and nothing was pending",
      () => ({ dev: { pending_operations: [pendingCreate({})] }, prod: {} }),
      /No stack of this backend holds it, and this resource has no create pending: it was made outside Pulumi, or by a stack of another backend\. If nothing else manages it, set `adopt: true`/,
    ],
    [
      "a stack could not be read",
      () => ({
        dev: {
          pending_operations: [
            pendingCreate({}),
            pendingCreate({ name: "scanner", url: "https://hooks.example.com/scan", category: "task", enabled: true }),
          ],
        },
        gone: {},
      }),
      /but not every stack of the backend could be read \(not read: gone\), so it is not taken as that create's/,
    ],
  ])("%s: refused, naming that cause alone, nothing written", async (_case, statesFor, message) => {
    await emulator.close();
    emulator = await startEmulator({ interceptors: [calls.interceptor] });
    configureProvider({ "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": ORG });
    const made = emulator.runTask.addTask(ORG, { name: "scanner", url: "https://hooks.example.com/scan" });
    states = statesFor(made.id) as Record<string, State>;
    // A stack listed whose state cannot be read.
    listedOnly = "gone" in states ? ["gone"] : [];
    delete states.gone;
    exports = [];
    emulator.requests.reset();
    const err = await createOf("https://hooks.example.com/scan");
    expect(err).toMatchObject({ code: "conflict" });
    expect(err.message).toMatch(message);
    expect(err.message).not.toMatch(/Which of these it is cannot be told/);
    expect(emulator.requests.entries.filter((e) => e.method !== "GET").map((e) => e.status)).toEqual([422]);
    expect(emulator.runTask.tasks().map((t) => t.url)).toEqual(["https://hooks.example.com/scan"]);
  });
});
