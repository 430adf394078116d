import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN } from "../../emulator";
import type { RunTaskEmulatorOptions } from "../../emulator";

let emulator: Emulator;

async function start(options: RunTaskEmulatorOptions = {}): Promise<void> {
  await emulator?.close();
  emulator = await startEmulator({ runTask: options });
}

afterEach(() => emulator.close());

async function call(method: string, path: string, body?: unknown, token = DEFAULT_RUNTASK_TOKEN): Promise<{ status: number; body: any }> {
  const res = await fetch(`${emulator.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.api+json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const taskBody = (attributes: Record<string, unknown>) => ({ data: { type: "tasks", attributes: { category: "task", url: "https://hooks.example.com/t", ...attributes } } });
const createTask = async (name: string, extra: Record<string, unknown> = {}, org = "emulator-org") => {
  const r = await call("POST", `/organizations/${org}/tasks`, taskBody({ name, ...extra }));
  expect(r.status).toBe(201);
  return r.body.data;
};
const wsId = (name: string) => emulator.runTask.workspace(name).id;

describe("run task emulator: tasks", () => {
  beforeEach(() => start());

  test("create answers 201 with the document; hmac-key is null; defaults filled", async () => {
    const r = await call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "scan", "hmac-key": "secret-k" }));
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      type: "tasks",
      attributes: { name: "scan", category: "task", enabled: true, "hmac-key": null, description: null, "global-configuration": { enabled: false, stages: [], "enforcement-level": null } },
      relationships: { organization: { data: { id: "emulator-org", type: "organizations" } } },
    });
    expect(r.body.data.id).toMatch(/^task-[A-Za-z0-9]{16}$/);
    expect(r.body.data.links.self).toBe(`/api/v2/tasks/${r.body.data.id}`);
    expect(emulator.runTask.store.tasks.get(r.body.data.id)?.hmacKey).toBe("secret-k");
  });

  test("the sample spelling hmac_key is accepted", async () => {
    const t = await createTask("sample", { hmac_key: "k2" });
    expect(emulator.runTask.store.tasks.get(t.id)?.hmacKey).toBe("k2");
  });

  test("show, update (other attributes keep their values), delete, then 404", async () => {
    const t = await createTask("a", { description: "d", "hmac-key": "k" });
    expect((await call("GET", `/tasks/${t.id}`)).body.data.attributes.name).toBe("a");
    const u = await call("PATCH", `/tasks/${t.id}`, { data: { type: "tasks", attributes: { enabled: false } } });
    expect(u.status).toBe(200);
    expect(u.body.data.attributes).toMatchObject({ name: "a", description: "d", enabled: false, "hmac-key": null });
    expect(emulator.runTask.store.tasks.get(t.id)?.hmacKey).toBe("k");
    expect((await call("DELETE", `/tasks/${t.id}`)).status).toBe(204);
    const gone = await call("GET", `/tasks/${t.id}`);
    expect(gone).toEqual({ status: 404, body: { errors: [{ status: "404", title: "not found" }] } });
    expect((await call("DELETE", `/tasks/${t.id}`)).status).toBe(404);
  });

  test("422 with source pointers for malformed bodies", async () => {
    const r = await call("POST", "/organizations/emulator-org/tasks", {
      data: { type: "tasks", attributes: { name: "bad name", url: "ftp://x", category: "hook", description: "x".repeat(301), "global-configuration": { stages: ["pre-apply"], "enforcement-level": "strict" } } },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: any) => e.source.pointer)).toEqual([
      "/data/attributes/name", "/data/attributes/url", "/data/attributes/category", "/data/attributes/description",
      "/data/attributes/global-configuration/stages/0", "/data/attributes/global-configuration/enforcement-level",
    ]);
    expect((await call("POST", "/organizations/emulator-org/tasks", { data: { type: "task", attributes: {} } })).body.errors[0].source.pointer).toBe("/data/type");
    expect((await call("POST", "/organizations/emulator-org/tasks", { nodata: 1 })).status).toBe(422);
  });

  test("task names are unique per organization", async () => {
    await createTask("dup");
    const r = await call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "dup" }));
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toEqual({ status: "422", title: "invalid attribute", detail: "Name has already been taken", source: { pointer: "/data/attributes/name" } });
  });

  test("an unknown organization is 404; a missing token is 401", async () => {
    expect((await call("POST", "/organizations/nope/tasks", taskBody({ name: "x" }))).status).toBe(404);
    expect((await call("GET", "/organizations/emulator-org/tasks", undefined, "wrong")).status).toBe(401);
  });

  test("pagination: default 20, maximum 100, links and meta", async () => {
    for (let i = 0; i < 150; i++) emulator.runTask.store.addTask({ organization: "emulator-org", name: `t${i}`, url: "https://x.example", category: "task", description: null, hmacKey: null, enabled: true, global: { enabled: false, stages: [], enforcementLevel: null } });
    let r = await call("GET", "/organizations/emulator-org/tasks");
    expect(r.body.data).toHaveLength(20);
    expect(r.body.meta.pagination).toEqual({ "current-page": 1, "page-size": 20, "prev-page": null, "next-page": 2, "total-pages": 8, "total-count": 150 });
    expect(r.body.links.prev).toBeNull();
    expect(r.body.links.next).toBe("/api/v2/organizations/emulator-org/tasks?page%5Bnumber%5D=2&page%5Bsize%5D=20");
    r = await call("GET", "/organizations/emulator-org/tasks?page%5Bnumber%5D=2&page%5Bsize%5D=500");
    expect(r.body.data).toHaveLength(50);
    expect(r.body.data[0].attributes.name).toBe("t100");
    expect(r.body.meta.pagination).toEqual({ "current-page": 2, "page-size": 100, "prev-page": 1, "next-page": null, "total-pages": 2, "total-count": 150 });
    expect(r.body.links.next).toBeNull();
  });

  test("include=workspace_tasks.workspace adds the associations and their workspaces", async () => {
    const t = await createTask("inc");
    await call("POST", `/workspaces/${wsId("network")}/tasks`, { data: { type: "workspace-tasks", attributes: { "enforcement-level": "advisory" }, relationships: { task: { data: { id: t.id, type: "tasks" } } } } });
    const r = await call("GET", `/tasks/${t.id}?include=workspace_tasks.workspace`);
    expect(r.body.included.map((x: any) => x.type)).toEqual(["workspace-tasks", "workspaces"]);
    expect(r.body.data.relationships["workspace-tasks"].data).toHaveLength(1);
    const list = await call("GET", "/organizations/emulator-org/tasks?include=workspace_tasks");
    expect(list.body.included.map((x: any) => x.type)).toEqual(["workspace-tasks"]);
  });
});

describe("run task emulator: organization features and rendering", () => {
  test("without global run tasks, global-configuration is absent and ignored", async () => {
    await start({ organizations: [{ name: "free", globalRunTasks: false, workspaces: [{ name: "w" }] }] });
    const t = await createTask("g", { "global-configuration": { enabled: true, stages: ["pre_plan"], "enforcement-level": "mandatory" } }, "free");
    expect(t.attributes).not.toHaveProperty("global-configuration");
  });

  test("enabled rendered as a string, as the spec's samples", async () => {
    await start({ enabledAsString: true });
    expect((await createTask("s")).attributes.enabled).toBe("true");
  });
});

describe("run task emulator: workspace tasks", () => {
  beforeEach(() => start());
  const assoc = (taskId: string, attributes: Record<string, unknown> = { "enforcement-level": "advisory" }) => ({
    data: { type: "workspace-tasks", attributes, relationships: { task: { data: { id: taskId, type: "tasks" } } } },
  });

  test("associate (201), default stage, list, show, update, delete", async () => {
    const t = await createTask("w");
    const ws = wsId("app-production");
    const r = await call("POST", `/workspaces/${ws}/tasks`, assoc(t.id));
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      type: "workspace-tasks", attributes: { "enforcement-level": "advisory", stage: "post_plan", stages: ["post_plan"] },
      relationships: { task: { data: { id: t.id, type: "tasks" } }, workspace: { data: { id: ws, type: "workspaces" } } },
    });
    const id = r.body.data.id;
    expect(id).toMatch(/^wstask-[A-Za-z0-9]{16}$/);
    expect(r.body.data.links.self).toBe(`/api/v2/workspaces/${ws}/tasks/${id}`);
    expect((await call("GET", `/workspaces/${ws}/tasks`)).body.data.map((d: any) => d.id)).toEqual([id]);
    expect((await call("GET", `/workspaces/${ws}/tasks/${id}`)).status).toBe(200);
    const u = await call("PATCH", `/workspaces/${ws}/tasks/${id}`, { data: { type: "workspace-tasks", attributes: { stages: ["post_plan", "pre_plan"] } } });
    expect(u.body.data.attributes).toEqual({ "enforcement-level": "advisory", stage: "post_plan", stages: ["post_plan", "pre_plan"] });
    expect((await call("DELETE", `/workspaces/${ws}/tasks/${id}`)).status).toBe(204);
    expect((await call("GET", `/workspaces/${ws}/tasks/${id}`)).status).toBe(404);
  });

  test("deprecated stage: any stage on create, only pre_plan/post_plan on update", async () => {
    const t = await createTask("st");
    const ws = wsId("app-staging");
    const r = await call("POST", `/workspaces/${ws}/tasks`, assoc(t.id, { "enforcement-level": "mandatory", stage: "pre_apply" }));
    expect(r.body.data.attributes.stages).toEqual(["pre_apply"]);
    const bad = await call("PATCH", `/workspaces/${ws}/tasks/${r.body.data.id}`, { data: { type: "workspace-tasks", attributes: { stage: "post_apply" } } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe("/data/attributes/stage");
  });

  test("422s: level, stages, missing task relationship, duplicate association", async () => {
    const t = await createTask("v");
    const ws = wsId("network");
    expect((await call("POST", `/workspaces/${ws}/tasks`, assoc(t.id, { "enforcement-level": "strict" }))).status).toBe(422);
    expect((await call("POST", `/workspaces/${ws}/tasks`, assoc(t.id, { "enforcement-level": "advisory", stages: [] }))).status).toBe(422);
    expect((await call("POST", `/workspaces/${ws}/tasks`, assoc(t.id, { "enforcement-level": "advisory", stages: ["post_plan", "post_plan"] }))).status).toBe(422);
    const noRel = await call("POST", `/workspaces/${ws}/tasks`, { data: { type: "workspace-tasks", attributes: { "enforcement-level": "advisory" } } });
    expect(noRel.body.errors[0].source.pointer).toBe("/data/relationships/task/data");
    expect((await call("POST", `/workspaces/${ws}/tasks`, assoc(t.id))).status).toBe(201);
    expect((await call("POST", `/workspaces/${ws}/tasks`, assoc(t.id))).status).toBe(422);
    expect((await call("POST", `/workspaces/${ws}/tasks`, assoc("task-missing"))).status).toBe(404);
    expect((await call("POST", `/workspaces/ws-missing/tasks`, assoc(t.id))).status).toBe(404);
  });

  test("deleting a task removes its associations", async () => {
    const t = await createTask("cascade");
    await call("POST", `/workspaces/${wsId("network")}/tasks`, assoc(t.id));
    await call("DELETE", `/tasks/${t.id}`);
    expect(emulator.runTask.store.workspaceTasks.size).toBe(0);
  });

  test("associate can answer 204 with no body", async () => {
    await start({ associateResponse: "204" });
    const t = await createTask("nobody");
    const r = await call("POST", `/workspaces/${wsId("network")}/tasks`, assoc(t.id));
    expect(r).toEqual({ status: 204, body: undefined });
  });
});

describe("run task emulator: permissions", () => {
  test("owner creates; manage-run-tasks manages; workspace permission per workspace; others get 404", async () => {
    await start({
      tokens: {
        owner: { owner: true },
        manager: { manageRunTasks: true },
        attacher: { manageWorkspaceRunTasks: ["ws-allowed"] },
      },
      organizations: [{ name: "o", workspaces: [{ id: "ws-allowed", name: "a" }, { id: "ws-other", name: "b" }] }],
    });
    const body = taskBody({ name: "p" });
    expect((await call("POST", "/organizations/o/tasks", body, "manager")).status).toBe(404);
    const created = await call("POST", "/organizations/o/tasks", body, "owner");
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await call("GET", `/tasks/${id}`, undefined, "manager")).status).toBe(200);
    expect((await call("GET", `/tasks/${id}`, undefined, "attacher")).status).toBe(404);
    const assoc = { data: { type: "workspace-tasks", attributes: { "enforcement-level": "advisory" }, relationships: { task: { data: { id, type: "tasks" } } } } };
    expect((await call("POST", "/workspaces/ws-other/tasks", assoc, "attacher")).status).toBe(404);
    expect((await call("POST", "/workspaces/ws-allowed/tasks", assoc, "attacher")).status).toBe(201);
    expect((await call("POST", "/workspaces/ws-allowed/tasks", assoc, "manager")).status).toBe(404);
  });
});
