import { RunTaskApi } from "../support/runTaskApi";

let api: RunTaskApi;
afterEach(() => api.close());

const TASKS = "/api/v2/organizations/emulator-org/tasks";
/** A link as the emulator renders it: absolute, with page[number] and page[size] percent-encoded. */
const link = (path: string, number: number, size: number, before = "") =>
  `${api.origin}${path}?${before}page%5Bnumber%5D=${number}&page%5Bsize%5D=${size}`;
const pagination = (current: number, size: number, prev: number | null, next: number | null, pages: number, count: number) => ({
  "current-page": current,
  "page-size": size,
  "prev-page": prev,
  "next-page": next,
  "total-pages": pages,
  "total-count": count,
});
const names = (data: { attributes: { name: string } }[]) => data.map((d) => d.attributes.name);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `t${from + i}`);

describe("run task emulator: pages of 150 tasks", () => {
  beforeEach(async () => {
    api = await RunTaskApi.start();
    for (let i = 0; i < 150; i++) api.emulator.runTask.addTask("emulator-org", { name: `t${i}` });
    // Tasks of another organization never count.
    api.emulator.runTask.addOrganization("elsewhere");
    for (let i = 0; i < 5; i++) api.emulator.runTask.addTask("elsewhere", { name: `x${i}` });
  });

  test("without page parameters: the first 20, oldest first, with the envelope", async () => {
    const r = await api.call("GET", "/organizations/emulator-org/tasks");
    expect(r.status).toBe(200);
    expect(r.contentType).toBe("application/vnd.api+json");
    expect(names(r.body.data)).toEqual(range(0, 20));
    expect(r.body.meta).toEqual({ pagination: pagination(1, 20, null, 2, 8, 150) });
    expect(r.body.links).toEqual({
      self: link(TASKS, 1, 20),
      first: link(TASKS, 1, 20),
      prev: null,
      next: link(TASKS, 2, 20),
      last: link(TASKS, 8, 20),
    });
  });

  test("following links.next visits 8 pages of 20 and the last of 10, every task once", async () => {
    const seen: string[] = [];
    let next: string | null = link(TASKS, 1, 20);
    let pages = 0;
    while (next) {
      const r = await api.call("GET", next.slice(`${api.origin}/api/v2`.length));
      pages++;
      expect(r.body.meta.pagination["current-page"]).toBe(pages);
      expect(r.body.data).toHaveLength(pages < 8 ? 20 : 10);
      seen.push(...names(r.body.data));
      next = r.body.links.next;
    }
    expect(pages).toBe(8);
    expect(seen).toEqual(range(0, 150));
  });

  test("a middle page links to both neighbours", async () => {
    const r = await api.call("GET", "/organizations/emulator-org/tasks?page%5Bnumber%5D=4&page%5Bsize%5D=20");
    expect(names(r.body.data)).toEqual(range(60, 80));
    expect(r.body.meta.pagination).toEqual(pagination(4, 20, 3, 5, 8, 150));
    expect(r.body.links).toMatchObject({ self: link(TASKS, 4, 20), prev: link(TASKS, 3, 20), next: link(TASKS, 5, 20), last: link(TASKS, 8, 20) });
  });

  test("page[size]=100: two pages, of 100 and 50", async () => {
    const first = await api.call("GET", "/organizations/emulator-org/tasks?page%5Bsize%5D=100");
    expect(names(first.body.data)).toEqual(range(0, 100));
    expect(first.body.meta.pagination).toEqual(pagination(1, 100, null, 2, 2, 150));
    const second = await api.call("GET", "/organizations/emulator-org/tasks?page%5Bnumber%5D=2&page%5Bsize%5D=100");
    expect(names(second.body.data)).toEqual(range(100, 150));
    expect(second.body.meta.pagination).toEqual(pagination(2, 100, 1, null, 2, 150));
    expect(second.body.links).toMatchObject({ prev: link(TASKS, 1, 100), next: null, last: link(TASKS, 2, 100) });
  });

  test.each([101, 150, 1000])("page[size]=%d is clamped to 100, in meta and in the links", async (size) => {
    const r = await api.call("GET", `/organizations/emulator-org/tasks?page%5Bsize%5D=${size}`);
    expect(r.body.data).toHaveLength(100);
    expect(r.body.meta.pagination).toEqual(pagination(1, 100, null, 2, 2, 150));
    expect(r.body.links.next).toBe(link(TASKS, 2, 100));
  });

  test("an odd page size: 22 pages of 7, the last holding 3", async () => {
    const r = await api.call("GET", "/organizations/emulator-org/tasks?page%5Bnumber%5D=22&page%5Bsize%5D=7");
    expect(names(r.body.data)).toEqual(range(147, 150));
    expect(r.body.meta.pagination).toEqual(pagination(22, 7, 21, null, 22, 150));
  });

  test("brackets percent-encoded, as URLSearchParams writes them, or raw: the same page", async () => {
    const encoded = new URLSearchParams({ "page[number]": "3", "page[size]": "30" }).toString();
    expect(encoded).toBe("page%5Bnumber%5D=3&page%5Bsize%5D=30");
    const a = await api.call("GET", `/organizations/emulator-org/tasks?${encoded}`);
    const b = await api.call("GET", "/organizations/emulator-org/tasks?page[number]=3&page[size]=30");
    expect(names(a.body.data)).toEqual(range(60, 90));
    expect(b.body).toEqual(a.body);
  });

  test("a page past the last is empty and points back", async () => {
    const r = await api.call("GET", "/organizations/emulator-org/tasks?page%5Bnumber%5D=9");
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(r.body.meta.pagination).toEqual(pagination(9, 20, 8, null, 8, 150));
  });

  test.each(["0", "-1", "two", "1.5"])("page[number]=%s takes the first page; page[size]=%s takes 20", async (bad) => {
    const r = await api.call("GET", `/organizations/emulator-org/tasks?page%5Bnumber%5D=${bad}&page%5Bsize%5D=${bad}`);
    expect(r.body.meta.pagination).toEqual(pagination(1, 20, null, 2, 8, 150));
  });

  test("include is kept in the links and covers the page's tasks only", async () => {
    const [t0, t25] = [api.emulator.runTask.tasks()[0], api.emulator.runTask.tasks()[25]];
    const ws = api.ws("network");
    const a0 = api.emulator.runTask.addWorkspaceTask(ws, t0.id);
    const a25 = api.emulator.runTask.addWorkspaceTask(ws, t25.id);
    const first = await api.call("GET", "/organizations/emulator-org/tasks?include=workspace_tasks");
    expect(first.body.links.next).toBe(link(TASKS, 2, 20, "include=workspace_tasks&"));
    expect(first.body.included.map((x: { id: string }) => x.id)).toEqual([a0.id]);
    const second = await api.call("GET", first.body.links.next.slice(`${api.origin}/api/v2`.length));
    expect(second.body.included.map((x: { id: string }) => x.id)).toEqual([a25.id]);
  });
});

describe("run task emulator: pages of workspace tasks", () => {
  const path = (ws: string) => `/api/v2/workspaces/${ws}/tasks`;

  beforeEach(async () => {
    api = await RunTaskApi.start();
  });

  test("45 associations of one workspace: 3 pages of 20, 20 and 5", async () => {
    const ws = api.ws("app-production");
    for (let i = 0; i < 45; i++) api.emulator.runTask.addWorkspaceTask(ws, api.emulator.runTask.addTask("emulator-org", { name: `t${i}` }).id);
    // Another workspace's association is not listed.
    api.emulator.runTask.addWorkspaceTask(api.ws("network"), api.emulator.runTask.tasks()[0].id);
    const expectedIds = api.emulator.runTask.workspaceTasks({ workspaceId: ws }).map((w) => w.id);
    const first = await api.call("GET", `/workspaces/${ws}/tasks`);
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual(expectedIds.slice(0, 20));
    expect(first.body.meta.pagination).toEqual(pagination(1, 20, null, 2, 3, 45));
    expect(first.body.links).toEqual({
      self: link(path(ws), 1, 20),
      first: link(path(ws), 1, 20),
      prev: null,
      next: link(path(ws), 2, 20),
      last: link(path(ws), 3, 20),
    });
    const last = await api.call("GET", `/workspaces/${ws}/tasks?page%5Bnumber%5D=3`);
    expect(last.body.data.map((d: { id: string }) => d.id)).toEqual(expectedIds.slice(40));
    expect(last.body.meta.pagination).toEqual(pagination(3, 20, 2, null, 3, 45));
  });

  test("150 associations with page[size]=250: clamped to 100", async () => {
    const ws = api.ws("network");
    for (let i = 0; i < 150; i++) api.emulator.runTask.addWorkspaceTask(ws, api.emulator.runTask.addTask("emulator-org", { name: `t${i}` }).id);
    const r = await api.call("GET", `/workspaces/${ws}/tasks?page%5Bsize%5D=250&page%5Bnumber%5D=2`);
    expect(r.body.data).toHaveLength(50);
    expect(r.body.meta.pagination).toEqual(pagination(2, 100, 1, null, 2, 150));
  });

  test("no associations: one empty page", async () => {
    const ws = api.ws("network");
    const r = await api.call("GET", `/workspaces/${ws}/tasks`);
    expect(r.body).toEqual({
      data: [],
      links: { self: link(path(ws), 1, 20), first: link(path(ws), 1, 20), prev: null, next: null, last: link(path(ws), 1, 20) },
      meta: { pagination: pagination(1, 20, null, null, 1, 0) },
    });
  });
});

describe("run task emulator: the largest page (maxPageSize, pageSizeAboveMax)", () => {
  const seed = (n: number) => {
    for (let i = 0; i < n; i++) api.emulator.runTask.addTask("emulator-org", { name: `t${i}` });
  };
  const REFUSED = (status: number, max: number) => ({
    errors: [
      { status: String(status), title: "invalid query parameter", detail: `page[size] must be at most ${max}`, source: { parameter: "page[size]" } },
    ],
  });

  test("by default the maximum is 100 and larger sizes are clamped", async () => {
    api = await RunTaskApi.start();
    seed(150);
    const r = await api.call("GET", "/organizations/emulator-org/tasks?page%5Bsize%5D=99999999999999999999");
    expect(r.status).toBe(200);
    expect(r.body.meta.pagination).toEqual(pagination(1, 100, null, 2, 2, 150));
  });

  test("maxPageSize 20, clamp: page[size]=100 is served in pages of 20, as meta and the links say", async () => {
    api = await RunTaskApi.start({ maxPageSize: 20, pageSizeAboveMax: "clamp" });
    seed(45);
    const r = await api.call("GET", "/organizations/emulator-org/tasks?page%5Bsize%5D=100");
    expect(names(r.body.data)).toEqual(range(0, 20));
    expect(r.body.meta.pagination).toEqual(pagination(1, 20, null, 2, 3, 45));
    expect(r.body.links.next).toBe(link(TASKS, 2, 20));
  });

  describe("maxPageSize 20, reject", () => {
    beforeEach(async () => {
      api = await RunTaskApi.start({ maxPageSize: 20, pageSizeAboveMax: "reject" });
      seed(45);
    });

    test.each(["21", "100", "99999999999999999999"])("page[size]=%s is 400 with a JSON:API error pointing at the parameter", async (size) => {
      const r = await api.call("GET", `/organizations/emulator-org/tasks?page%5Bnumber%5D=1&page%5Bsize%5D=${size}`);
      expect(r).toEqual({ status: 400, contentType: "application/vnd.api+json", body: REFUSED(400, 20) });
    });

    test("the workspace tasks list refuses it too", async () => {
      const ws = api.ws("network");
      api.emulator.runTask.addWorkspaceTask(ws, api.emulator.runTask.tasks()[0].id);
      expect(await api.call("GET", `/workspaces/${ws}/tasks?page[size]=100`)).toEqual({
        status: 400,
        contentType: "application/vnd.api+json",
        body: REFUSED(400, 20),
      });
      expect((await api.call("GET", `/workspaces/${ws}/tasks?page[size]=20`)).status).toBe(200);
    });

    test("a client that falls back to the server's default size and follows links.next gets every task", async () => {
      expect((await api.call("GET", "/organizations/emulator-org/tasks?page%5Bsize%5D=100")).status).toBe(400);
      const seen: string[] = [];
      for (let path: string | null = "/organizations/emulator-org/tasks"; path;) {
        const r = await api.call("GET", path);
        expect(r.status).toBe(200);
        expect(r.body.meta.pagination["page-size"]).toBe(20);
        seen.push(...names(r.body.data));
        path = r.body.links.next ? r.body.links.next.slice(`${api.origin}/api/v2`.length) : null;
      }
      expect(seen).toEqual(range(0, 45));
    });

    test("page[size] at the maximum, malformed or left out is served", async () => {
      for (const query of ["page%5Bsize%5D=20", "page%5Bsize%5D=7", "page%5Bsize%5D=0", "page%5Bsize%5D=many", ""]) {
        expect({ query, status: (await api.call("GET", `/organizations/emulator-org/tasks?${query}`)).status }).toEqual({ query, status: 200 });
      }
    });

    test("a missing or forbidden organization is 404, and an unknown token 401, before the page size is looked at", async () => {
      expect((await api.call("GET", "/organizations/nope/tasks?page%5Bsize%5D=100")).status).toBe(404);
      expect((await api.call("GET", "/organizations/emulator-org/tasks?page%5Bsize%5D=100", undefined, { token: "unknown" })).status).toBe(401);
    });
  });

  test("pageSizeRejectStatus 422 refuses with 422 instead", async () => {
    api = await RunTaskApi.start({ maxPageSize: 50, pageSizeAboveMax: "reject", pageSizeRejectStatus: 422 });
    expect(await api.call("GET", "/organizations/emulator-org/tasks?page%5Bsize%5D=100")).toEqual({
      status: 422,
      contentType: "application/vnd.api+json",
      body: REFUSED(422, 50),
    });
  });

  test("a maximum below 20 is also the default page size", async () => {
    api = await RunTaskApi.start({ maxPageSize: 10 });
    seed(25);
    expect((await api.call("GET", "/organizations/emulator-org/tasks")).body.meta.pagination).toEqual(pagination(1, 10, null, 2, 3, 25));
  });

  test.each<[Record<string, unknown>, string]>([
    [{ maxPageSize: 0 }, "maxPageSize must be a positive integer, not 0"],
    [{ maxPageSize: 2.5 }, "maxPageSize must be a positive integer, not 2.5"],
    [{ pageSizeAboveMax: "ignore" }, 'pageSizeAboveMax must be one of "clamp", "reject", not "ignore"'],
    [{ pageSizeRejectStatus: 413 }, "pageSizeRejectStatus must be one of 400, 422, not 413"],
  ])("%j is refused at start", async (options, message) => {
    await expect(RunTaskApi.start(options)).rejects.toThrow(message);
    api = await RunTaskApi.start();
  });
});

describe("run task emulator: lists that lag behind writes (listLagMs)", () => {
  test("a new task and a new association show in their lists only after the lag; show finds them at once", async () => {
    api = await RunTaskApi.start({ listLagMs: 200 });
    const ws = api.ws("network");
    const task = await api.createTask("scan");
    const association = await api.call("POST", `/workspaces/${ws}/tasks`, {
      data: {
        type: "workspace-tasks",
        attributes: { "enforcement-level": "advisory" },
        relationships: { task: { data: { id: task.id, type: "tasks" } } },
      },
    });
    expect(association.status).toBe(201);
    const [held] = api.emulator.runTask.workspaceTasks({ workspaceId: ws });
    expect((await api.call("GET", "/organizations/emulator-org/tasks")).body.data).toEqual([]);
    expect((await api.call("GET", `/workspaces/${ws}/tasks`)).body.meta.pagination["total-count"]).toBe(0);
    expect((await api.call("GET", `/tasks/${task.id}`)).status).toBe(200);
    expect((await api.call("GET", `/workspaces/${ws}/tasks/${held.id}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(names((await api.call("GET", "/organizations/emulator-org/tasks")).body.data)).toEqual(["scan"]);
    expect((await api.workspaceTasks(ws)).map((w) => w.id)).toEqual([held.id]);
  });
});

describe("run task emulator: lists that change between their pages (listChurn)", () => {
  const pageOf = async (n: number) => (await api.call("GET", `/organizations/emulator-org/tasks?page%5Bnumber%5D=${n}&page%5Bsize%5D=2`)).body;

  test('"remove": before page 2 the first task is deleted, so one task is on no page read and the total count drops', async () => {
    api = await RunTaskApi.start({ listChurn: "remove" });
    for (let i = 0; i < 4; i++) api.emulator.runTask.addTask("emulator-org", { name: `t${i}` });
    const [first, second] = [await pageOf(1), await pageOf(2)];
    expect([...names(first.data), ...names(second.data)]).toEqual(["t0", "t1", "t3"]);
    expect([first.meta.pagination["total-count"], second.meta.pagination["total-count"]]).toEqual([4, 3]);
    expect(api.emulator.runTask.tasks().map((t) => t.name)).toEqual(["t1", "t2", "t3"]);
  });

  test('"insert": before page 2 a task is made ahead of the others, so one task is read twice and the total count grows', async () => {
    api = await RunTaskApi.start({ listChurn: "insert" });
    for (let i = 0; i < 4; i++) api.emulator.runTask.addTask("emulator-org", { name: `t${i}` });
    const [first, second] = [await pageOf(1), await pageOf(2)];
    expect([...names(first.data), ...names(second.data)]).toEqual(["t0", "t1", "t1", "t2"]);
    expect([first.meta.pagination["total-count"], second.meta.pagination["total-count"]]).toEqual([4, 5]);
    expect(api.emulator.runTask.tasks().map((t) => t.name)).toEqual(["t0-1", "t0", "t1", "t2", "t3"]);
  });
});
