import { associateBody, NOT_FOUND, RunTaskApi } from "../support/runTaskApi";

let api: RunTaskApi;
afterEach(() => api.close());

const JSON_API = "application/vnd.api+json";
const update = (attributes: Record<string, unknown>) => ({ data: { type: "workspace-tasks", attributes } });

describe("run task emulator: workspace task endpoints", () => {
  let taskId: string;
  let ws: string;
  beforeEach(async () => {
    api = await RunTaskApi.start();
    taskId = (await api.createTask("attach")).id;
    ws = api.ws("app-production");
  });

  test("associate under letterOfSpec: 204 with no body, as the spec's status table says; the default stage is post_plan", async () => {
    await api.close();
    api = await RunTaskApi.start({ letterOfSpec: true });
    taskId = (await api.createTask("attach")).id;
    const r = await api.call("POST", `/workspaces/${ws}/tasks`, associateBody(taskId));
    expect(r).toEqual({ status: 204, contentType: undefined, body: undefined });
    const [held] = api.emulator.runTask.workspaceTasks();
    expect(held).toEqual({
      id: expect.stringMatching(/^wstask-[0-9A-Za-z]{16}$/),
      workspaceId: ws,
      taskId,
      enforcementLevel: "advisory",
      stages: ["post_plan"],
    });
    // The association is found through the list, as a client that got no body finds it.
    expect((await api.call("GET", `/workspaces/${ws}/tasks`)).body.data).toEqual([
      {
        id: held.id,
        type: "workspace-tasks",
        attributes: { "enforcement-level": "advisory", stage: "post_plan", stages: ["post_plan"] },
        relationships: { task: { data: { id: taskId, type: "tasks" } }, workspace: { data: { id: ws, type: "workspaces" } } },
        links: { self: `/api/v2/workspaces/${ws}/tasks/${held.id}` },
      },
    ]);
  });

  test.each(["pre_plan", "post_plan", "pre_apply", "post_apply"])("the deprecated stage %s alone maps to stages [stage]", async (stage) => {
    const wt = await api.associate(ws, taskId, { "enforcement-level": "mandatory", stage });
    expect(wt.attributes).toEqual({ "enforcement-level": "mandatory", stage, stages: [stage] });
  });

  test("stages keep the order sent; stage is their first element", async () => {
    const wt = await api.associate(ws, taskId, { "enforcement-level": "advisory", stages: ["post_apply", "pre_plan", "post_plan"] });
    expect(wt.attributes).toEqual({ "enforcement-level": "advisory", stage: "post_apply", stages: ["post_apply", "pre_plan", "post_plan"] });
  });

  test("stages win over a valid stage sent beside them", async () => {
    const wt = await api.associate(ws, taskId, { "enforcement-level": "advisory", stage: "pre_plan", stages: ["pre_apply"] });
    expect(wt.attributes.stages).toEqual(["pre_apply"]);
  });

  test("list: 200 with the workspace's associations and the envelope", async () => {
    const other = (await api.createTask("other")).id;
    const a = await api.associate(ws, taskId);
    const b = await api.associate(ws, other, { "enforcement-level": "mandatory", stages: ["pre_plan"] });
    const r = await api.call("GET", `/workspaces/${ws}/tasks`);
    expect({ status: r.status, contentType: r.contentType }).toEqual({ status: 200, contentType: JSON_API });
    expect(r.body.data).toEqual([a, b]);
    expect(r.body.meta.pagination).toMatchObject({ "total-count": 2, "page-size": 20 });
  });

  test("show: 200 with the same document; only under its own workspace", async () => {
    const a = await api.associate(ws, taskId);
    const r = await api.call("GET", `/workspaces/${ws}/tasks/${a.id}`);
    expect(r).toEqual({ status: 200, contentType: JSON_API, body: { data: a } });
    expect(await api.call("GET", `/workspaces/${api.ws("network")}/tasks/${a.id}`)).toEqual({ status: 404, contentType: JSON_API, body: NOT_FOUND });
    expect((await api.call("GET", `/workspaces/${ws}/tasks/wstask-doesnotexist00`)).status).toBe(404);
  });

  test("update: 200; attributes not sent keep their values", async () => {
    const a = await api.associate(ws, taskId, { "enforcement-level": "advisory", stages: ["pre_plan", "post_plan"] });
    const path = `/workspaces/${ws}/tasks/${a.id}`;
    let r = await api.call("PATCH", path, update({ "enforcement-level": "mandatory" }));
    expect({ status: r.status, contentType: r.contentType }).toEqual({ status: 200, contentType: JSON_API });
    expect(r.body.data.attributes).toEqual({ "enforcement-level": "mandatory", stage: "pre_plan", stages: ["pre_plan", "post_plan"] });
    r = await api.call("PATCH", path, update({ stages: ["post_apply", "pre_apply"] }));
    expect(r.body.data.attributes).toEqual({ "enforcement-level": "mandatory", stage: "post_apply", stages: ["post_apply", "pre_apply"] });
    r = await api.call("PATCH", path, update({ stage: "pre_plan" }));
    expect(r.body.data.attributes).toEqual({ "enforcement-level": "mandatory", stage: "pre_plan", stages: ["pre_plan"] });
    r = await api.call("PATCH", path, update({}));
    expect(r.body.data).toEqual({ ...a, attributes: { "enforcement-level": "mandatory", stage: "pre_plan", stages: ["pre_plan"] } });
    expect(api.emulator.runTask.workspaceTasks()[0]).toMatchObject({ enforcementLevel: "mandatory", stages: ["pre_plan"] });
  });

  test("update may not move an association to another task", async () => {
    const other = (await api.createTask("other")).id;
    const a = await api.associate(ws, taskId);
    const r = await api.call("PATCH", `/workspaces/${ws}/tasks/${a.id}`, associateBody(other, { "enforcement-level": "mandatory" }));
    expect(r.status).toBe(200);
    expect(r.body.data.relationships.task.data.id).toBe(taskId);
  });

  test("delete: 204 with no body; then show, update and delete are 404", async () => {
    const a = await api.associate(ws, taskId);
    expect(await api.call("DELETE", `/workspaces/${ws}/tasks/${a.id}`)).toEqual({ status: 204, contentType: undefined, body: undefined });
    expect(api.emulator.runTask.workspaceTasks()).toEqual([]);
    expect(api.emulator.runTask.tasks()).toHaveLength(1);
    for (const [method, body] of [["GET"], ["PATCH", update({ stage: "pre_plan" })], ["DELETE"]] as const) {
      expect(await api.call(method, `/workspaces/${ws}/tasks/${a.id}`, body)).toEqual({ status: 404, contentType: JSON_API, body: NOT_FOUND });
    }
    // The task may be associated again afterwards.
    await api.associate(ws, taskId);
  });

  test("delete through another workspace is 404 and leaves the association", async () => {
    const a = await api.associate(ws, taskId);
    expect((await api.call("DELETE", `/workspaces/${api.ws("network")}/tasks/${a.id}`)).status).toBe(404);
    expect(api.emulator.runTask.workspaceTasks().map((w) => w.id)).toEqual([a.id]);
  });

  test("every workspace task endpoint is 404 for a workspace that does not exist", async () => {
    const missing = "ws-doesnotexist0000";
    const answers = [
      await api.call("POST", `/workspaces/${missing}/tasks`, associateBody(taskId)),
      await api.call("GET", `/workspaces/${missing}/tasks`),
      await api.call("GET", `/workspaces/${missing}/tasks/wstask-x`),
      await api.call("PATCH", `/workspaces/${missing}/tasks/wstask-x`, update({ stage: "pre_plan" })),
      await api.call("DELETE", `/workspaces/${missing}/tasks/wstask-x`),
    ];
    for (const r of answers) expect(r).toEqual({ status: 404, contentType: JSON_API, body: NOT_FOUND });
  });

  test("include is ignored on the workspace task endpoints, which the spec does not give it", async () => {
    const a = await api.associate(ws, taskId);
    for (const path of [`/workspaces/${ws}/tasks?include=anything`, `/workspaces/${ws}/tasks/${a.id}?include=workspace_tasks`]) {
      const r = await api.call("GET", path);
      expect({ path, status: r.status, included: r.body.included }).toEqual({ path, status: 200, included: undefined });
    }
  });

  test("a missing workspace is 404 even when the body is malformed", async () => {
    expect((await api.call("POST", "/workspaces/ws-doesnotexist0000/tasks", { data: { type: "nonsense" } })).status).toBe(404);
  });
});

describe("run task emulator: associate answering 201 with the association's document (the default)", () => {
  test("201 with the whole document, as the spec's sample shows and the real service answers; the default stage is post_plan", async () => {
    api = await RunTaskApi.start();
    const taskId = (await api.createTask("loud")).id;
    const ws = api.ws("app-production");
    const r = await api.call("POST", `/workspaces/${ws}/tasks`, associateBody(taskId));
    expect({ status: r.status, contentType: r.contentType }).toEqual({ status: 201, contentType: JSON_API });
    const id = r.body.data.id;
    expect(id).toMatch(/^wstask-[0-9A-Za-z]{16}$/);
    expect(r.body).toEqual({
      data: {
        id,
        type: "workspace-tasks",
        attributes: { "enforcement-level": "advisory", stage: "post_plan", stages: ["post_plan"] },
        relationships: { task: { data: { id: taskId, type: "tasks" } }, workspace: { data: { id: ws, type: "workspaces" } } },
        links: { self: `/api/v2/workspaces/${ws}/tasks/${id}` },
      },
    });
    expect(api.emulator.runTask.workspaceTasks()).toEqual([{ id, workspaceId: ws, taskId, enforcementLevel: "advisory", stages: ["post_plan"] }]);
    // The document is the one show gives.
    expect((await api.call("GET", `/workspaces/${ws}/tasks/${id}`)).body).toEqual(r.body);
  });

  test.each<[{ associateResponse?: "201" | "204"; letterOfSpec?: boolean; shapes?: "samples" }, number]>([
    [{}, 201],
    [{ associateResponse: "201" }, 201],
    [{ associateResponse: "204" }, 204],
    [{ letterOfSpec: true }, 204],
    [{ letterOfSpec: true, associateResponse: "201" }, 201],
    [{ letterOfSpec: true, shapes: "samples" }, 201],
  ])("%j: %d; errors keep their bodies either way", async (options, expected) => {
    api = await RunTaskApi.start(options);
    const taskId = (await api.createTask("either")).id;
    const ws = api.ws("network");
    const r = await api.call("POST", `/workspaces/${ws}/tasks`, associateBody(taskId, { "enforcement-level": "mandatory", stages: ["pre_apply"] }));
    expect(r.status).toBe(expected);
    expect((await api.call("GET", `/workspaces/${ws}/tasks`)).body.data).toEqual([
      expect.objectContaining({
        attributes: { "enforcement-level": "mandatory", stage: "pre_apply", stages: ["pre_apply"] },
        relationships: expect.objectContaining({ task: { data: { id: taskId, type: "tasks" } } }),
      }),
    ]);
    const dup = await api.call("POST", `/workspaces/${ws}/tasks`, associateBody(taskId));
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0].source.pointer).toBe("/data/relationships/task/data/id");
  });

  test("another associateResponse is refused at start", async () => {
    await expect(RunTaskApi.start({ associateResponse: "200" as never })).rejects.toThrow('associateResponse must be one of "201", "204", not "200"');
    api = await RunTaskApi.start();
  });
});
