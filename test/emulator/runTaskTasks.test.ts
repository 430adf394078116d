import { DEFAULT_ORGANIZATION, DEFAULT_RUNTASK_TOKEN, startEmulator } from "../../emulator";
import { NOT_FOUND, RunTaskApi, taskBody } from "../support/runTaskApi";

let api: RunTaskApi;
afterEach(() => api?.close());

const JSON_API = "application/vnd.api+json";
const NO_GLOBAL = { enabled: false, stages: [], "enforcement-level": null };

describe("run task emulator: task endpoints", () => {
  beforeEach(async () => {
    api = await RunTaskApi.start();
  });

  test("create: 201 with the whole document; hmac-key null; defaults filled in", async () => {
    const r = await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "scan", "hmac-key": "secret-k" }));
    expect({ status: r.status, contentType: r.contentType }).toEqual({ status: 201, contentType: JSON_API });
    const id = r.body.data.id;
    expect(id).toMatch(/^task-[0-9A-Za-z]{16}$/);
    expect(r.body).toEqual({
      data: {
        id,
        type: "tasks",
        attributes: {
          category: "task",
          name: "scan",
          url: "https://hooks.example.com/task",
          description: null,
          enabled: true,
          "hmac-key": null,
          "created-at": expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          "global-configuration": NO_GLOBAL,
        },
        relationships: {
          organization: { data: { id: "emulator-org", type: "organizations" } },
          tasks: { data: [] },
          "workspace-tasks": { data: [] },
        },
        links: { self: `/api/v2/tasks/${id}` },
      },
    });
    expect(api.emulator.runTask.tasks()).toEqual([expect.objectContaining({ id, hmacKey: "secret-k", organization: "emulator-org" })]);
  });

  test("ids are distinct", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await api.createTask(`t${i}`)).id);
    expect(ids.size).toBe(20);
  });

  test("the key is read from hmac-key, as the attribute table spells it; the samples' hmac_key is ignored, as an unknown attribute", async () => {
    const a = await api.createTask("sample", { hmac_key: "k-underscore" });
    const b = await api.createTask("both", { hmac_key: "k-underscore", "hmac-key": "k-dash" });
    expect(api.emulator.runTask.tasks().map((t) => t.hmacKey)).toEqual([null, "k-dash"]);
    expect([a.attributes["hmac-key"], b.attributes["hmac-key"]]).toEqual([null, null]);
  });

  test('hmacKeyAttribute "hmac_key" reads the spelling of the sample bodies and ignores the other', async () => {
    await api.close();
    api = await RunTaskApi.start({ hmacKeyAttribute: "hmac_key" });
    await api.createTask("sample", { hmac_key: "k-underscore" });
    await api.createTask("table", { "hmac-key": "k-dash" });
    expect(api.emulator.runTask.tasks().map((t) => t.hmacKey)).toEqual(["k-underscore", null]);
  });

  test('shapes "samples": enabled as a string, show without global-configuration, the key from hmac_key, associate 201 with a document', async () => {
    await api.close();
    api = await RunTaskApi.start({ shapes: "samples" });
    const t = await api.createTask("sampled", { hmac_key: "k-underscore", "global-configuration": { enabled: true, stages: ["pre_plan"] } });
    expect(t.attributes.enabled).toBe("true");
    expect(t.attributes["global-configuration"]).toMatchObject({ enabled: true });
    expect(api.emulator.runTask.tasks()[0].hmacKey).toBe("k-underscore");
    const shown = await api.call("GET", `/tasks/${t.id}`);
    expect(shown.body.data.attributes).not.toHaveProperty("global-configuration");
    const ws = api.emulator.runTask.workspace("network").id;
    const associated = await api.call("POST", `/workspaces/${ws}/tasks`, {
      data: {
        type: "workspace-tasks",
        attributes: { "enforcement-level": "advisory" },
        relationships: { task: { data: { id: t.id, type: "tasks" } } },
      },
    });
    expect(associated.status).toBe(201);
    expect(associated.body.data.type).toBe("workspace-tasks");
  });

  test("an option given wins over the profile, and an unknown profile is refused at start", async () => {
    await api.close();
    api = await RunTaskApi.start({ shapes: "samples", hmacKeyAttribute: "hmac-key", enabledAsString: false });
    const t = await api.createTask("mixed", { "hmac-key": "k-dash" });
    expect(t.attributes.enabled).toBe(true);
    expect(api.emulator.runTask.tasks()[0].hmacKey).toBe("k-dash");
    await expect(RunTaskApi.start({ shapes: "typed" as never })).rejects.toThrow('shapes must be one of "tables", "samples", not "typed"');
  });

  test("global configuration is echoed with its stages in the order sent", async () => {
    const global = { enabled: true, stages: ["post_plan", "pre_plan"], "enforcement-level": "mandatory" };
    const t = await api.createTask("g", { "global-configuration": global, enabled: false, description: "checks" });
    expect(t.attributes).toMatchObject({ enabled: false, description: "checks", "global-configuration": global });
  });

  test("list: 200 with every task of the organization, oldest first, and the envelope", async () => {
    const a = await api.createTask("a");
    const b = await api.createTask("b");
    const r = await api.call("GET", "/organizations/emulator-org/tasks");
    expect({ status: r.status, contentType: r.contentType }).toEqual({ status: 200, contentType: JSON_API });
    expect(r.body.data).toEqual([a, b]);
    expect(Object.keys(r.body).sort()).toEqual(["data", "links", "meta"]);
    expect(r.body.meta.pagination).toMatchObject({ "total-count": 2, "total-pages": 1 });
  });

  test("show: 200 with the same document as create", async () => {
    const t = await api.createTask("shown", { description: "d" });
    const r = await api.call("GET", `/tasks/${t.id}`);
    expect({ status: r.status, contentType: r.contentType }).toEqual({ status: 200, contentType: JSON_API });
    expect(r.body).toEqual({ data: t });
  });

  test("update: 200; attributes not sent keep their values, the HMAC key included", async () => {
    const global = { enabled: true, stages: ["pre_apply", "pre_plan"], "enforcement-level": "advisory" };
    const t = await api.createTask("u", { description: "d", "hmac-key": "k1", "global-configuration": global });
    const r = await api.call("PATCH", `/tasks/${t.id}`, { data: { type: "tasks", attributes: { enabled: false } } });
    expect({ status: r.status, contentType: r.contentType }).toEqual({ status: 200, contentType: JSON_API });
    expect(r.body.data.attributes).toEqual({ ...t.attributes, enabled: false });
    expect(api.emulator.runTask.tasks()[0].hmacKey).toBe("k1");
    // A partial global configuration changes only what it names.
    const g = await api.call("PATCH", `/tasks/${t.id}`, {
      data: { type: "tasks", attributes: { "global-configuration": { "enforcement-level": "mandatory" } } },
    });
    expect(g.body.data.attributes["global-configuration"]).toEqual({ ...global, "enforcement-level": "mandatory" });
    // Rename, new url, empty description, key rotation.
    const u = await api.call("PATCH", `/tasks/${t.id}`, {
      data: { type: "tasks", attributes: { name: "renamed", url: "http://other.example.com/x", description: "", "hmac-key": "k2" } },
    });
    expect(u.body.data.attributes).toMatchObject({
      name: "renamed",
      url: "http://other.example.com/x",
      description: "",
      "hmac-key": null,
      enabled: false,
    });
    expect(api.emulator.runTask.tasks()[0].hmacKey).toBe("k2");
    expect(u.body.data.id).toBe(t.id);
  });

  test("attributes the spec does not list are ignored, on create and on update", async () => {
    const t = await api.createTask("extra", { color: "blue", "created-at": "2000-01-01T00:00:00Z" });
    expect(t.attributes).not.toHaveProperty("color");
    expect(t.attributes["created-at"]).not.toBe("2000-01-01T00:00:00Z");
    const r = await api.call("PATCH", `/tasks/${t.id}`, { data: { type: "tasks", attributes: { color: "red" } } });
    expect(r.body.data).toEqual(t);
  });

  test("update with no attributes at all is 200 and changes nothing", async () => {
    const t = await api.createTask("same", { "hmac-key": "k" });
    const r = await api.call("PATCH", `/tasks/${t.id}`, { data: { type: "tasks" } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(t);
  });

  test("delete: 204 with no body; then show, update and delete are 404", async () => {
    const t = await api.createTask("gone");
    const r = await api.call("DELETE", `/tasks/${t.id}`);
    expect(r).toEqual({ status: 204, contentType: undefined, body: undefined });
    expect(api.emulator.runTask.tasks()).toEqual([]);
    for (const [method, body] of [["GET"], ["PATCH", taskBody({ name: "gone" })], ["DELETE"]] as const) {
      const again = await api.call(method, `/tasks/${t.id}`, body);
      expect(again).toEqual({ status: 404, contentType: JSON_API, body: NOT_FOUND });
    }
  });

  test("deleting a task deletes its workspace associations", async () => {
    const t = await api.createTask("cascade");
    const keep = await api.createTask("keep");
    const [w1, w2] = [api.ws("network"), api.ws("app-staging")];
    const a1 = await api.associate(w1, t.id);
    await api.associate(w2, t.id);
    const kept = await api.associate(w1, keep.id);
    await api.call("DELETE", `/tasks/${t.id}`);
    expect(api.emulator.runTask.workspaceTasks().map((w) => w.id)).toEqual([kept.id]);
    expect((await api.call("GET", `/workspaces/${w1}/tasks/${a1.id}`)).status).toBe(404);
    expect((await api.call("GET", `/workspaces/${w2}/tasks`)).body.data).toEqual([]);
  });

  test("an unknown organization is 404 for create and list", async () => {
    expect(await api.call("POST", "/organizations/nope/tasks", taskBody({ name: "x" }))).toEqual({
      status: 404,
      contentType: JSON_API,
      body: NOT_FOUND,
    });
    expect((await api.call("GET", "/organizations/nope/tasks")).status).toBe(404);
  });

  test("relationships.workspace-tasks names the task's associations", async () => {
    const t = await api.createTask("rel");
    const a = await api.associate(api.ws("network"), t.id);
    const r = await api.call("GET", `/tasks/${t.id}`);
    expect(r.body.data.relationships["workspace-tasks"]).toEqual({ data: [{ id: a.id, type: "workspace-tasks" }] });
    expect(r.body.data.relationships.tasks).toEqual({ data: [] });
  });

  test("hmac-key is null in every answer that carries a task", async () => {
    const t = await api.createTask("secretive", { "hmac-key": "never-shown" });
    await api.associate(api.ws("network"), t.id);
    const answers = [
      await api.call("GET", `/tasks/${t.id}?include=workspace_tasks.workspace`),
      await api.call("GET", "/organizations/emulator-org/tasks?include=workspace_tasks"),
      await api.call("PATCH", `/tasks/${t.id}`, { data: { type: "tasks", attributes: { "hmac-key": "rotated" } } }),
    ];
    for (const r of answers) {
      const tasks = [r.body.data].flat();
      expect(tasks.map((d: { attributes: Record<string, unknown> }) => d.attributes["hmac-key"])).toEqual([null]);
      expect(JSON.stringify(r.body)).not.toMatch(/never-shown|rotated/);
    }
  });
});

describe("run task emulator: include", () => {
  let taskA: string;
  let taskB: string;
  let wsNames: Record<string, string>;
  beforeEach(async () => {
    api = await RunTaskApi.start();
    taskA = (await api.createTask("a")).id;
    taskB = (await api.createTask("b")).id;
    wsNames = { network: api.ws("network"), staging: api.ws("app-staging") };
    // a on both workspaces, b on network: network is shared.
    await api.associate(wsNames.network, taskA);
    await api.associate(wsNames.staging, taskA, { "enforcement-level": "mandatory", stages: ["pre_apply"] });
    await api.associate(wsNames.network, taskB);
  });
  const kinds = (included: { type: string; id: string }[]) => included.map((x) => `${x.type}:${x.id}`);

  test("show with include=workspace_tasks adds the task's associations", async () => {
    const r = await api.call("GET", `/tasks/${taskA}?include=workspace_tasks`);
    const expected = api.emulator.runTask.workspaceTasks({ taskId: taskA });
    expect(kinds(r.body.included)).toEqual(expected.map((w) => `workspace-tasks:${w.id}`));
    expect(r.body.included[1]).toMatchObject({ attributes: { "enforcement-level": "mandatory", stage: "pre_apply", stages: ["pre_apply"] } });
  });

  test("show with include=workspace_tasks.workspace adds the workspaces too", async () => {
    const r = await api.call("GET", `/tasks/${taskA}?include=workspace_tasks.workspace`);
    expect(r.body.included.map((x: { type: string }) => x.type)).toEqual(["workspace-tasks", "workspace-tasks", "workspaces", "workspaces"]);
    expect(r.body.included.slice(2)).toEqual([
      {
        id: wsNames.network,
        type: "workspaces",
        attributes: { name: "network" },
        relationships: { organization: { data: { id: "emulator-org", type: "organizations" } } },
        links: { self: `/api/v2/workspaces/${wsNames.network}` },
      },
      expect.objectContaining({ id: wsNames.staging, attributes: { name: "app-staging" } }),
    ]);
  });

  test("list with both includes: every association once, every workspace once", async () => {
    const r = await api.call("GET", "/organizations/emulator-org/tasks?include=workspace_tasks,workspace_tasks.workspace");
    const types = r.body.included.map((x: { type: string }) => x.type);
    expect(types.filter((t: string) => t === "workspace-tasks")).toHaveLength(3);
    expect(
      r.body.included
        .filter((x: { type: string }) => x.type === "workspaces")
        .map((x: { id: string }) => x.id)
        .sort(),
    ).toEqual(Object.values(wsNames).sort());
  });

  test.each(["workspaces", "workspace_tasks.task", "workspace-tasks", "workspace_tasks,organization"])(
    "an include the spec does not list (%s) is 400 with a JSON:API error pointing at the parameter",
    async (include) => {
      const expected = {
        status: 400,
        contentType: JSON_API,
        body: {
          errors: [
            {
              status: "400",
              title: "invalid include parameter",
              detail: expect.stringContaining("include takes workspace_tasks, workspace_tasks.workspace"),
              source: { parameter: "include" },
            },
          ],
        },
      };
      expect(await api.call("GET", `/tasks/${taskA}?include=${include}`)).toEqual(expected);
      expect(await api.call("GET", `/organizations/emulator-org/tasks?include=${include}`)).toEqual(expected);
    },
  );

  test("include values may be separated by spaces after the comma; an empty include includes nothing", async () => {
    const r = await api.call("GET", `/tasks/${taskA}?include=workspace_tasks,%20workspace_tasks.workspace`);
    expect(r.body.included.map((x: { type: string }) => x.type)).toEqual(["workspace-tasks", "workspace-tasks", "workspaces", "workspaces"]);
    const empty = await api.call("GET", `/tasks/${taskA}?include=`);
    expect(empty.status).toBe(200);
    expect(empty.body).not.toHaveProperty("included");
  });

  test("without include there is no included member", async () => {
    expect((await api.call("GET", `/tasks/${taskB}`)).body).not.toHaveProperty("included");
    expect((await api.call("GET", "/organizations/emulator-org/tasks")).body).not.toHaveProperty("included");
  });
});

describe("run task emulator: rendering options and organization features", () => {
  test('enabledAsString renders enabled as "true"/"false" everywhere, as the spec\'s samples do', async () => {
    api = await RunTaskApi.start({ enabledAsString: true });
    const t = await api.createTask("s");
    expect(t.attributes.enabled).toBe("true");
    const off = await api.call("PATCH", `/tasks/${t.id}`, { data: { type: "tasks", attributes: { enabled: false } } });
    expect(off.body.data.attributes.enabled).toBe("false");
    expect((await api.call("GET", `/tasks/${t.id}`)).body.data.attributes.enabled).toBe("false");
    expect((await api.call("GET", "/organizations/emulator-org/tasks")).body.data[0].attributes.enabled).toBe("false");
    // What the emulator holds stays a boolean, and the string form is accepted back in this mode only.
    expect(api.emulator.runTask.tasks()[0].enabled).toBe(false);
    expect(
      (await api.call("PATCH", `/tasks/${t.id}`, { data: { type: "tasks", attributes: { enabled: "true" } } })).body.data.attributes.enabled,
    ).toBe("true");
  });

  test("by default enabled is a boolean, both ways", async () => {
    api = await RunTaskApi.start();
    const t = await api.createTask("b", { enabled: false });
    expect(t.attributes.enabled).toBe(false);
    const r = await api.call("PATCH", `/tasks/${t.id}`, { data: { type: "tasks", attributes: { enabled: "true" } } });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(["/data/attributes/enabled"]);
  });

  test("without the global run tasks feature, global-configuration is absent from every answer", async () => {
    api = await RunTaskApi.start({ organizations: [{ name: "free", globalRunTasks: false, workspaces: [{ name: "w" }] }] });
    const t = await api.createTask("g", {}, "free");
    const answers = [
      t,
      (await api.call("GET", `/tasks/${t.id}`)).body.data,
      (await api.call("GET", "/organizations/free/tasks")).body.data[0],
      (await api.call("PATCH", `/tasks/${t.id}`, { data: { type: "tasks", attributes: { description: "x" } } })).body.data,
    ];
    for (const data of answers) expect(data.attributes).not.toHaveProperty("global-configuration");
  });

  test("setFeature turns global-configuration on and off for an organization", async () => {
    api = await RunTaskApi.start();
    const t = await api.createTask("flip", { "global-configuration": { enabled: true, stages: ["pre_plan"], "enforcement-level": "advisory" } });
    api.emulator.runTask.setFeature("emulator-org", false);
    expect((await api.call("GET", `/tasks/${t.id}`)).body.data.attributes).not.toHaveProperty("global-configuration");
    api.emulator.runTask.setFeature("emulator-org", true);
    expect((await api.call("GET", `/tasks/${t.id}`)).body.data.attributes["global-configuration"]).toEqual({
      enabled: true,
      stages: ["pre_plan"],
      "enforcement-level": "advisory",
    });
    expect(() => api.emulator.runTask.setFeature("nope", true)).toThrow('no organization "nope"');
  });
});

describe("run task emulator: global-configuration in the show answer", () => {
  const global = { enabled: true, stages: ["pre_plan", "post_apply"], "enforcement-level": "mandatory" };

  test("by default show carries global-configuration, as the spec's attribute list of a response document has it", async () => {
    api = await RunTaskApi.start();
    const t = await api.createTask("g", { "global-configuration": global });
    expect((await api.call("GET", `/tasks/${t.id}`)).body.data.attributes["global-configuration"]).toEqual(global);
    expect((await api.call("GET", `/tasks/${t.id}?include=workspace_tasks`)).body.data.attributes["global-configuration"]).toEqual(global);
  });

  test("showGlobalConfiguration: false omits it from show only, as the spec's show sample does; list, create and update keep it", async () => {
    api = await RunTaskApi.start({ showGlobalConfiguration: false });
    const t = await api.createTask("g", { "global-configuration": global, description: "d" });
    expect(t.attributes["global-configuration"]).toEqual(global);
    const shown = await api.call("GET", `/tasks/${t.id}`);
    expect(shown.status).toBe(200);
    const { "global-configuration": _omitted, ...rest } = t.attributes;
    expect(shown.body.data).toEqual({ ...t, attributes: rest });
    expect((await api.call("GET", `/tasks/${t.id}?include=workspace_tasks.workspace`)).body.data.attributes).not.toHaveProperty(
      "global-configuration",
    );
    expect((await api.call("GET", "/organizations/emulator-org/tasks")).body.data[0].attributes["global-configuration"]).toEqual(global);
    const updated = await api.call("PATCH", `/tasks/${t.id}`, {
      data: { type: "tasks", attributes: { "global-configuration": { enabled: false } } },
    });
    expect(updated.body.data.attributes["global-configuration"]).toEqual({ ...global, enabled: false });
    // What is held is unchanged by the rendering.
    expect(api.emulator.runTask.tasks()[0].global).toEqual({ enabled: false, stages: ["pre_plan", "post_apply"], enforcementLevel: "mandatory" });
  });
});

describe("run task emulator: defaults, accessors and out-of-band changes", () => {
  test("startEmulator() with no options: emulator-org with three workspaces and the default owner token", async () => {
    const emulator = await startEmulator();
    api = new RunTaskApi(emulator);
    expect(DEFAULT_RUNTASK_TOKEN).toBe("emulator-runtask-token");
    expect(DEFAULT_ORGANIZATION).toBe("emulator-org");
    const workspaces = emulator.runTask.workspaces();
    expect(workspaces.map((w) => [w.organization, w.name])).toEqual([
      ["emulator-org", "app-production"],
      ["emulator-org", "app-staging"],
      ["emulator-org", "network"],
    ]);
    for (const w of workspaces) expect(w.id).toMatch(/^ws-[0-9A-Za-z]{16}$/);
    const t = await api.createTask("works");
    await api.associate(workspaces[0].id, t.id);
    // Seeded workspace ids are the same on every start.
    const again = await startEmulator();
    expect(again.runTask.workspaces()).toEqual(workspaces);
    await again.close();
  });

  test("accessors return copies; changing the store is an out-of-band change the API reports", async () => {
    api = await RunTaskApi.start();
    const t = await api.createTask("drift", { description: "before" });
    api.emulator.runTask.tasks()[0].description = "not through the copy";
    expect((await api.call("GET", `/tasks/${t.id}`)).body.data.attributes.description).toBe("before");
    api.emulator.runTask.store.tasks.get(t.id)!.description = "changed out of band";
    expect((await api.call("GET", `/tasks/${t.id}`)).body.data.attributes.description).toBe("changed out of band");
    api.emulator.runTask.store.deleteTask(t.id);
    expect((await api.call("GET", `/tasks/${t.id}`)).status).toBe(404);
  });

  test("addTask and addWorkspaceTask seed objects with the create defaults, as the API then shows them", async () => {
    api = await RunTaskApi.start();
    const rt = api.emulator.runTask;
    const t = rt.addTask("emulator-org", { name: "seeded", hmacKey: "k" });
    expect(t).toMatchObject({
      category: "task",
      enabled: true,
      description: null,
      hmacKey: "k",
      global: { enabled: false, stages: [], enforcementLevel: null },
    });
    const ws = api.ws("network");
    const wt = rt.addWorkspaceTask(ws, t.id);
    expect(wt).toEqual({ id: expect.stringMatching(/^wstask-/), workspaceId: ws, taskId: t.id, enforcementLevel: "advisory", stages: ["post_plan"] });
    expect((await api.call("GET", `/workspaces/${ws}/tasks/${wt.id}`)).body.data.attributes).toEqual({
      "enforcement-level": "advisory",
      stage: "post_plan",
      stages: ["post_plan"],
    });
    expect((await api.call("GET", `/tasks/${t.id}`)).body.data.attributes).toMatchObject({ name: "seeded", "hmac-key": null });
    expect(() => rt.addTask("nope", { name: "x" })).toThrow(/no organization/);
    expect(() => rt.addWorkspaceTask("ws-nope", t.id)).toThrow(/no workspace/);
    expect(() => rt.addWorkspaceTask(ws, "task-nope")).toThrow(/no task/);
  });

  test("addOrganization and addWorkspace seed more after start; duplicates are refused", async () => {
    api = await RunTaskApi.start();
    const rt = api.emulator.runTask;
    rt.addOrganization("later", { globalRunTasks: false });
    const ws = rt.addWorkspace("later", "fresh");
    expect(ws.id).toMatch(/^ws-/);
    expect(rt.addWorkspace("later", "fixed", "ws-fixed").id).toBe("ws-fixed");
    const t = await api.createTask("in-later", {}, "later");
    expect(t.attributes).not.toHaveProperty("global-configuration");
    await api.associate(ws.id, t.id);
    expect(() => rt.addOrganization("later")).toThrow(/exists already/);
    expect(() => rt.addWorkspace("later", "fresh")).toThrow(/exists already/);
    expect(() => rt.addWorkspace("later", "other", "ws-fixed")).toThrow(/taken/);
    expect(() => rt.addWorkspace("later", "other", "workspace-1")).toThrow(/must start with "ws-"/);
    expect(() => rt.addWorkspace("missing", "w")).toThrow(/no organization/);
  });
});

describe("run task emulator: unknown routes", () => {
  beforeEach(async () => {
    api = await RunTaskApi.start();
  });

  test("an unknown path under /api/v2 is a JSON:API 404", async () => {
    expect(await api.call("GET", "/organizations/emulator-org/widgets")).toEqual({ status: 404, contentType: JSON_API, body: NOT_FOUND });
  });

  test("a known path with another method is a JSON:API 405", async () => {
    const r = await api.call("PUT", "/tasks/task-x", taskBody({ name: "x" }));
    expect(r).toEqual({ status: 405, contentType: JSON_API, body: { errors: [{ status: "405", title: "method not allowed" }] } });
  });
});
