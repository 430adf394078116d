import { associateBody, RunTaskApi, taskBody } from "../support/runTaskApi";

let api: RunTaskApi;
beforeEach(async () => {
  api = await RunTaskApi.start();
});
afterEach(() => api.close());

/** Expects a 422 JSON:API answer whose error objects point, in order, at `pointers`. */
function expect422(r: { status: number; contentType: string | undefined; body: any }, pointers: string[]): void {
  expect({ status: r.status, contentType: r.contentType }).toEqual({ status: 422, contentType: "application/vnd.api+json" });
  for (const e of r.body.errors) {
    expect(e).toEqual({ status: "422", title: expect.any(String), detail: expect.any(String), source: { pointer: expect.any(String) } });
  }
  expect(r.body.errors.map((e: any) => e.source.pointer)).toEqual(pointers);
}

const attrs = (a: Record<string, unknown>) => ({ data: { type: "tasks", attributes: a } });
const valid = { name: "ok", url: "https://hooks.example.com/t", category: "task" };
const without = (key: string) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key));

describe("run task emulator: 422 for malformed task bodies", () => {
  test.each<[string, unknown, string[]]>([
    ["a body that is no object", ["data"], ["/data"]],
    ["no data", { nodata: 1 }, ["/data"]],
    ["data that is an array", { data: [] }, ["/data"]],
    ["no data.type", { data: { attributes: valid } }, ["/data/type"]],
    ["data.type of another resource", { data: { type: "workspace-tasks", attributes: valid } }, ["/data/type"]],
    ["data.type in the singular", { data: { type: "task", attributes: valid } }, ["/data/type"]],
    ["attributes that are no object", { data: { type: "tasks", attributes: "name=x" } }, ["/data/attributes"]],
    ["no attributes at all", { data: { type: "tasks" } }, ["/data/attributes/name", "/data/attributes/url", "/data/attributes/category"]],
    ["no name", attrs(without("name")), ["/data/attributes/name"]],
    ["an empty name", attrs({ ...valid, name: "" }), ["/data/attributes/name"]],
    ["a name with a space", attrs({ ...valid, name: "my task" }), ["/data/attributes/name"]],
    ["a name with a dot", attrs({ ...valid, name: "my.task" }), ["/data/attributes/name"]],
    ["a name with a non-ASCII letter", attrs({ ...valid, name: "tâche" }), ["/data/attributes/name"]],
    ["a name that is a number", attrs({ ...valid, name: 7 }), ["/data/attributes/name"]],
    ["no url", attrs(without("url")), ["/data/attributes/url"]],
    ["an ftp url", attrs({ ...valid, url: "ftp://hooks.example.com" }), ["/data/attributes/url"]],
    ["a url without scheme", attrs({ ...valid, url: "hooks.example.com/t" }), ["/data/attributes/url"]],
    ["a url without host", attrs({ ...valid, url: "https://" }), ["/data/attributes/url"]],
    ["no category", attrs(without("category")), ["/data/attributes/category"]],
    ["another category", attrs({ ...valid, category: "hook" }), ["/data/attributes/category"]],
    ["a description of 301 characters", attrs({ ...valid, description: "d".repeat(301) }), ["/data/attributes/description"]],
    ["a description that is no string", attrs({ ...valid, description: 12 }), ["/data/attributes/description"]],
    ["enabled that is no boolean", attrs({ ...valid, enabled: "yes" }), ["/data/attributes/enabled"]],
    ['enabled as the string "true" (the spec types it bool)', attrs({ ...valid, enabled: "true" }), ["/data/attributes/enabled"]],
    [
      'global enabled as the string "false"',
      attrs({ ...valid, "global-configuration": { enabled: "false" } }),
      ["/data/attributes/global-configuration/enabled"],
    ],
    ["an hmac-key that is no string", attrs({ ...valid, "hmac-key": 5 }), ["/data/attributes/hmac-key"]],
    ["global-configuration that is no object", attrs({ ...valid, "global-configuration": true }), ["/data/attributes/global-configuration"]],
    [
      "a hyphenated global stage",
      attrs({ ...valid, "global-configuration": { stages: ["post_plan", "pre-apply"] } }),
      ["/data/attributes/global-configuration/stages/1"],
    ],
    [
      "empty global stages (the spec: one or more)",
      attrs({ ...valid, "global-configuration": { enabled: false, stages: [] } }),
      ["/data/attributes/global-configuration/stages"],
    ],
    [
      "global stages that are no list",
      attrs({ ...valid, "global-configuration": { stages: "pre_plan" } }),
      ["/data/attributes/global-configuration/stages"],
    ],
    [
      "a global stage twice",
      attrs({ ...valid, "global-configuration": { stages: ["pre_plan", "pre_plan"] } }),
      ["/data/attributes/global-configuration/stages"],
    ],
    [
      "an unknown global enforcement level",
      attrs({ ...valid, "global-configuration": { "enforcement-level": "strict" } }),
      ["/data/attributes/global-configuration/enforcement-level"],
    ],
    [
      "global enabled that is no boolean",
      attrs({ ...valid, "global-configuration": { enabled: "on" } }),
      ["/data/attributes/global-configuration/enabled"],
    ],
    [
      "several faults at once, each reported",
      attrs({ name: "bad name", url: "ftp://x", category: "hook", description: "x".repeat(301) }),
      ["/data/attributes/name", "/data/attributes/url", "/data/attributes/category", "/data/attributes/description"],
    ],
  ])("create with %s", async (_, body, pointers) => {
    expect422(await api.call("POST", "/organizations/emulator-org/tasks", body), pointers);
    expect(api.emulator.runTask.tasks()).toEqual([]);
  });

  test("a body that is not JSON is 422 at /data", async () => {
    expect422(await api.call("POST", "/organizations/emulator-org/tasks", undefined, { raw: "{not json" }), ["/data"]);
  });

  test("a description of 300 characters is accepted, counted in characters, not UTF-16 units", async () => {
    const t = await api.createTask("long", { description: "\u{1F680}".repeat(300) });
    expect([...t.attributes.description]).toHaveLength(300);
    expect422(await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "longer", description: "\u{1F680}".repeat(301) })), [
      "/data/attributes/description",
    ]);
  });

  test("names of letters, digits, - and _ are accepted", async () => {
    expect((await api.createTask("Scan_2-plans")).attributes.name).toBe("Scan_2-plans");
  });

  test("task names are unique per organization, on create and on rename", async () => {
    await api.createTask("dup");
    const other = await api.createTask("other");
    const r = await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "dup" }));
    expect422(r, ["/data/attributes/name"]);
    expect(r.body.errors[0]).toMatchObject({ detail: "Name has already been taken" });
    expect422(await api.call("PATCH", `/tasks/${other.id}`, attrs({ name: "dup" })), ["/data/attributes/name"]);
    // Keeping its own name is no conflict; the same name in another organization is none either.
    expect((await api.call("PATCH", `/tasks/${other.id}`, attrs({ name: "other" }))).status).toBe(200);
    api.emulator.runTask.addOrganization("second");
    expect((await api.call("POST", "/organizations/second/tasks", taskBody({ name: "dup" }))).status).toBe(201);
  });

  test.each<[string, unknown, string[]]>([
    ["a wrong data.type", { data: { type: "workspace-tasks", attributes: { name: "x" } } }, ["/data/type"]],
    ["an invalid name", attrs({ name: "no spaces" }), ["/data/attributes/name"]],
    ["an invalid url", attrs({ url: "mailto:ops@example.com" }), ["/data/attributes/url"]],
    ["another category", attrs({ category: "hook" }), ["/data/attributes/category"]],
    ["a null name", attrs({ name: null }), ["/data/attributes/name"]],
    ["empty global stages", attrs({ "global-configuration": { stages: [] } }), ["/data/attributes/global-configuration/stages"]],
  ])("update with %s is 422 and changes nothing", async (_, body, pointers) => {
    const t = await api.createTask("before", { description: "kept" });
    const held = api.emulator.runTask.tasks();
    expect422(await api.call("PATCH", `/tasks/${t.id}`, body), pointers);
    expect(api.emulator.runTask.tasks()).toEqual(held);
  });
});

describe("run task emulator: 422 for malformed workspace task bodies", () => {
  let taskId: string;
  let ws: string;
  beforeEach(async () => {
    taskId = (await api.createTask("attach-me")).id;
    ws = api.ws("network");
  });
  const body = (attributes: Record<string, unknown>) => associateBody(taskId, attributes);

  test.each<[string, () => unknown, string[]]>([
    ["no data", () => ({}), ["/data"]],
    ["a wrong data.type", () => ({ ...body({ "enforcement-level": "advisory" }), data: { ...body({}).data, type: "tasks" } }), ["/data/type"]],
    ["no enforcement level", () => body({}), ["/data/attributes/enforcement-level"]],
    ["an unknown enforcement level", () => body({ "enforcement-level": "strict" }), ["/data/attributes/enforcement-level"]],
    ["a hyphenated stage", () => body({ "enforcement-level": "advisory", stage: "pre-apply" }), ["/data/attributes/stage"]],
    ["empty stages", () => body({ "enforcement-level": "advisory", stages: [] }), ["/data/attributes/stages"]],
    ["stages that are no list", () => body({ "enforcement-level": "advisory", stages: "post_plan" }), ["/data/attributes/stages"]],
    ["an unknown stage in stages", () => body({ "enforcement-level": "advisory", stages: ["pre_plan", "post-plan"] }), ["/data/attributes/stages/1"]],
    ["a stage twice in stages", () => body({ "enforcement-level": "advisory", stages: ["post_plan", "post_plan"] }), ["/data/attributes/stages"]],
    [
      "no relationships",
      () => ({ data: { type: "workspace-tasks", attributes: { "enforcement-level": "advisory" } } }),
      ["/data/relationships/task/data"],
    ],
    [
      "a task relationship of the wrong type",
      () => ({ data: { ...body({ "enforcement-level": "advisory" }).data, relationships: { task: { data: { id: taskId, type: "task" } } } } }),
      ["/data/relationships/task/data"],
    ],
    [
      "a task relationship without id",
      () => ({ data: { ...body({ "enforcement-level": "advisory" }).data, relationships: { task: { data: { type: "tasks" } } } } }),
      ["/data/relationships/task/data"],
    ],
    [
      "several faults at once",
      () => ({ data: { type: "workspace-tasks", attributes: { "enforcement-level": "hard", stages: ["later"] } } }),
      ["/data/attributes/enforcement-level", "/data/attributes/stages/0", "/data/relationships/task/data"],
    ],
  ])("associate with %s", async (_, make, pointers) => {
    expect422(await api.call("POST", `/workspaces/${ws}/tasks`, make()), pointers);
    expect(api.emulator.runTask.workspaceTasks()).toEqual([]);
  });

  test("associating the same task twice to a workspace is 422", async () => {
    await api.associate(ws, taskId);
    expect422(await api.call("POST", `/workspaces/${ws}/tasks`, body({ "enforcement-level": "mandatory" })), ["/data/relationships/task/data/id"]);
    expect(api.emulator.runTask.workspaceTasks()).toHaveLength(1);
    // Another workspace may take the same task.
    await api.associate(api.ws("app-staging"), taskId);
  });

  test("a task of another organization: 422 when the token sees it, 404 when it does not", async () => {
    await api.close();
    api = await RunTaskApi.start({
      organizations: [{ name: "a", workspaces: [{ id: "ws-a", name: "w" }] }, { name: "b" }],
      tokens: { both: { owner: true }, onlyA: { perOrganization: { a: { owner: true } } } },
    });
    const foreign = (await api.createTask("foreign", {}, "b", "both")).id;
    const r = await api.call("POST", "/workspaces/ws-a/tasks", associateBody(foreign), { token: "both" });
    expect422(r, ["/data/relationships/task/data/id"]);
    expect(r.body.errors[0].detail).toBe("Task must belong to the workspace's organization");
    expect((await api.call("POST", "/workspaces/ws-a/tasks", associateBody(foreign), { token: "onlyA" })).status).toBe(404);
  });

  test("a task that does not exist is 404", async () => {
    expect((await api.call("POST", `/workspaces/${ws}/tasks`, associateBody("task-doesnotexist0000"))).status).toBe(404);
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    ["the deprecated stage post_apply (update takes pre_plan or post_plan only)", { stage: "post_apply" }, ["/data/attributes/stage"]],
    ["the deprecated stage pre_apply", { stage: "pre_apply" }, ["/data/attributes/stage"]],
    ["a bad stage beside valid stages", { stage: "post_apply", stages: ["pre_plan"] }, ["/data/attributes/stage"]],
    ["empty stages", { stages: [] }, ["/data/attributes/stages"]],
    ["an unknown stage", { stages: ["pre-plan"] }, ["/data/attributes/stages/0"]],
    ["an unknown enforcement level", { "enforcement-level": "soft" }, ["/data/attributes/enforcement-level"]],
  ])("update with %s is 422 and changes nothing", async (_, attributes, pointers) => {
    const wt = await api.associate(ws, taskId, { "enforcement-level": "advisory", stages: ["pre_plan"] });
    expect422(await api.call("PATCH", `/workspaces/${ws}/tasks/${wt.id}`, { data: { type: "workspace-tasks", attributes } }), pointers);
    expect(api.emulator.runTask.workspaceTasks()).toEqual([
      { id: wt.id, workspaceId: ws, taskId, enforcementLevel: "advisory", stages: ["pre_plan"] },
    ]);
  });

  test("update with a wrong data.type is 422", async () => {
    const wt = await api.associate(ws, taskId);
    expect422(await api.call("PATCH", `/workspaces/${ws}/tasks/${wt.id}`, { data: { type: "tasks", attributes: {} } }), ["/data/type"]);
  });
});

describe("run task emulator: global settings without the feature", () => {
  test("are ignored unchecked on create and update, as the service does", async () => {
    await api.close();
    api = await RunTaskApi.start({ organizations: [{ name: "free", globalRunTasks: false }] });
    const global = { enabled: true, stages: ["pre-apply"], "enforcement-level": "strict" };
    const t = await api.createTask("g", { "global-configuration": global }, "free");
    expect(t.attributes).not.toHaveProperty("global-configuration");
    const u = await api.call("PATCH", `/tasks/${t.id}`, attrs({ "global-configuration": { enabled: true, stages: ["pre_plan"] } }));
    expect(u.status).toBe(200);
    expect(u.body.data.attributes).not.toHaveProperty("global-configuration");
    expect(api.emulator.runTask.tasks()[0].global).toEqual({ enabled: false, stages: [], enforcementLevel: null });
  });
});
