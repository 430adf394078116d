import { associateBody, NOT_FOUND, RunTaskApi, taskBody } from "../support/runTaskApi";

let api: RunTaskApi;
afterEach(() => api.close());

const LIMITED = "limited-token";

describe("run task emulator: deniedRoutes, a token refused some endpoints as for a missing permission", () => {
  test("a token that may list a workspace's run tasks but not dissociate them gets the 404 of a missing object on DELETE", async () => {
    api = await RunTaskApi.start({
      tokens: {
        "emulator-runtask-token": { owner: true },
        [LIMITED]: { manageRunTasks: true, manageWorkspaceRunTasks: true, deniedRoutes: ["DELETE /workspaces/:ws/tasks/:id"] },
      },
    });
    const ws = api.ws("app-production");
    const task = await api.createTask("scan");
    const wt = await api.associate(ws, task.id);
    expect((await api.workspaceTasks(ws, LIMITED)).map((w) => w.id)).toEqual([wt.id]);
    expect((await api.call("GET", `/workspaces/${ws}/tasks/${wt.id}`, undefined, { token: LIMITED })).status).toBe(200);
    expect(await api.call("DELETE", `/workspaces/${ws}/tasks/${wt.id}`, undefined, { token: LIMITED })).toEqual({
      status: 404,
      contentType: "application/vnd.api+json",
      body: NOT_FOUND,
    });
    expect(api.emulator.runTask.workspaceTasks()).toHaveLength(1);
    expect((await api.call("DELETE", `/workspaces/${ws}/tasks/${wt.id}`)).status).toBe(204);
  });

  test("a token that may list an organization's run tasks but not show or delete one", async () => {
    api = await RunTaskApi.start({
      tokens: {
        "emulator-runtask-token": { owner: true },
        [LIMITED]: { manageRunTasks: true, deniedRoutes: ["GET /tasks/:id", "DELETE /tasks/:id"] },
      },
    });
    const task = await api.createTask("scan");
    const list = await api.call("GET", "/organizations/emulator-org/tasks", undefined, { token: LIMITED });
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([task.id]);
    expect((await api.call("GET", `/tasks/${task.id}`, undefined, { token: LIMITED })).status).toBe(404);
    expect((await api.call("DELETE", `/tasks/${task.id}`, undefined, { token: LIMITED })).status).toBe(404);
    expect((await api.call("PATCH", `/tasks/${task.id}`, taskBody({ name: "scan" }), { token: LIMITED })).status).toBe(200);
    expect(api.emulator.runTask.tasks()).toHaveLength(1);
  });
});

describe("run task emulator: reverseStages", () => {
  test("answers render stages in the reverse of the order sent; stage is the first rendered", async () => {
    api = await RunTaskApi.start({ reverseStages: true });
    const ws = api.ws("app-production");
    const task = await api.createTask("scan", {
      "global-configuration": { enabled: true, stages: ["pre_plan", "post_plan"], "enforcement-level": "advisory" },
    });
    expect(task.attributes["global-configuration"].stages).toEqual(["post_plan", "pre_plan"]);
    const r = await api.call(
      "POST",
      `/workspaces/${ws}/tasks`,
      associateBody(task.id, { "enforcement-level": "advisory", stages: ["pre_plan", "pre_apply"] }),
    );
    // The answer's document renders them as every other answer does.
    expect([r.status, r.body.data.attributes.stages]).toEqual([201, ["pre_apply", "pre_plan"]]);
    const [wt] = await api.workspaceTasks(ws);
    expect(wt.attributes).toMatchObject({ stages: ["pre_apply", "pre_plan"], stage: "pre_apply" });
    expect(api.emulator.runTask.workspaceTasks()[0].stages).toEqual(["pre_plan", "pre_apply"]);
    const shown = await api.call("GET", `/tasks/${task.id}?include=workspace_tasks`);
    expect(shown.body.included[0].attributes.stages).toEqual(["pre_apply", "pre_plan"]);
  });
});

describe("run task emulator: emptyDescriptionAsNull", () => {
  test('a description sent as "" is read back as null in every answer; one with text as sent', async () => {
    api = await RunTaskApi.start({ emptyDescriptionAsNull: true });
    const task = await api.createTask("scan", { description: "" });
    expect(task.attributes.description).toBeNull();
    expect((await api.call("GET", `/tasks/${task.id}`)).body.data.attributes.description).toBeNull();
    expect((await api.call("GET", "/organizations/emulator-org/tasks")).body.data[0].attributes.description).toBeNull();
    expect(api.emulator.runTask.tasks()[0].description).toBe("");
    const patched = await api.call("PATCH", `/tasks/${task.id}`, taskBody({ description: "Security scan" }));
    expect(patched.body.data.attributes.description).toBe("Security scan");
  });
});

describe("run task emulator: workspaces and organizations deleted out of band", () => {
  test("a deleted workspace takes its associations with it; its list is 404; the task shows none", async () => {
    api = await RunTaskApi.start();
    const ws = api.ws("app-production");
    const task = await api.createTask("scan");
    await api.associate(ws, task.id);
    api.emulator.runTask.deleteWorkspace(ws);
    expect(api.emulator.runTask.workspaceTasks()).toEqual([]);
    expect((await api.call("GET", `/workspaces/${ws}/tasks`)).status).toBe(404);
    expect((await api.call("GET", `/tasks/${task.id}?include=workspace_tasks`)).body.included).toEqual([]);
  });

  test("a deleted organization takes its workspaces, tasks and associations", async () => {
    api = await RunTaskApi.start();
    const task = await api.createTask("scan");
    await api.associate(api.ws("network"), task.id);
    api.emulator.runTask.deleteOrganization("emulator-org");
    expect(api.emulator.runTask.tasks()).toEqual([]);
    expect(api.emulator.runTask.workspaces()).toEqual([]);
    expect((await api.call("GET", "/organizations/emulator-org/tasks")).status).toBe(404);
    expect((await api.call("GET", `/tasks/${task.id}`)).status).toBe(404);
  });
});

describe("run task emulator: duplicates", () => {
  test("refused by default: a second task of one name, a second association of one task in a workspace (422)", async () => {
    api = await RunTaskApi.start();
    const ws = api.ws("network");
    const task = await api.createTask("scan");
    await api.associate(ws, task.id);
    const again = await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "scan" }));
    expect([again.status, again.body.errors[0].source.pointer]).toEqual([422, "/data/attributes/name"]);
    const twice = await api.call("POST", `/workspaces/${ws}/tasks`, associateBody(task.id));
    expect([twice.status, twice.body.errors[0].source.pointer]).toEqual([422, "/data/relationships/task/data/id"]);
  });

  test('"accept": each create makes a new object, known by its id alone', async () => {
    api = await RunTaskApi.start({ duplicates: "accept" });
    const ws = api.ws("network");
    const first = await api.createTask("scan");
    const second = await api.createTask("scan");
    expect(second.id).not.toBe(first.id);
    expect((await api.call("POST", `/workspaces/${ws}/tasks`, associateBody(first.id))).status).toBe(201);
    expect((await api.call("POST", `/workspaces/${ws}/tasks`, associateBody(first.id))).status).toBe(201);
    expect(api.emulator.runTask.tasks().map((t) => t.name)).toEqual(["scan", "scan"]);
    expect(api.emulator.runTask.workspaceTasks({ workspaceId: ws }).map((w) => w.taskId)).toEqual([first.id, first.id]);
  });
});

describe("run task emulator: organizationIds", () => {
  test("the relationship's id is the organization's name by default; under opaque an id of its own, the same each time, which no path takes", async () => {
    api = await RunTaskApi.start({});
    const named = await api.createTask("scan");
    expect(named.relationships.organization.data).toEqual({ id: "emulator-org", type: "organizations" });
    await api.close();

    api = await RunTaskApi.start({ organizationIds: "opaque" });
    const task = await api.createTask("scan");
    const { id } = task.relationships.organization.data;
    expect(id).toMatch(/^org-[\w-]{16}$/);
    expect((await api.call("GET", `/tasks/${task.id}`)).body.data.relationships.organization.data.id).toBe(id);
    const ws = api.ws("app-production");
    await api.associate(ws, task.id);
    const included = (await api.call("GET", `/tasks/${task.id}?include=workspace_tasks.workspace`)).body.included;
    expect(included.find((r: { type: string }) => r.type === "workspaces").relationships.organization.data.id).toBe(id);
    expect((await api.call("GET", `/organizations/${id}/tasks`)).status).toBe(404);
  });
});
