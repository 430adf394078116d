import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { RunTaskHttp } from "../../provider/services/runtask/client";
import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN } from "../../emulator";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { getRunTask as getRunTaskWith } from "../../provider/functions/runTask";
import { getRunTask, getWorkspaceRunTask, listRunTasks, listWorkspaceRunTasks } from "../../sdk";

let emulator: Emulator;
const saved = { ...process.env };

beforeAll(async () => {
  emulator = await startEmulator();
  Object.assign(process.env, { RUNTASK_ADDR: emulator.url, RUNTASK_TOKEN: DEFAULT_RUNTASK_TOKEN, RUNTASK_ORGANIZATION: "emulator-org" });
  const store = emulator.runTask.store;
  for (let i = 0; i < 150; i++) {
    store.addTask({
      organization: "emulator-org",
      name: `t-${i}`,
      url: `https://h.example/${i}`,
      category: "task",
      description: i === 149 ? "last" : null,
      hmacKey: "k",
      enabled: i % 2 === 0,
      global: { enabled: false, stages: [], enforcementLevel: null },
    });
  }
  const last = [...store.tasks.values()][149];
  for (const name of ["app-production", "network"]) {
    store.addWorkspaceTask({
      workspaceId: emulator.runTask.workspace(name).id,
      taskId: last.id,
      enforcementLevel: "mandatory",
      stages: ["pre_plan"],
    });
  }
});

afterAll(async () => {
  process.env = saved;
  await emulator.close();
  await closeSharedDispatchers();
});

describe("program-side run task functions", () => {
  test("listRunTasks follows every page: 150 tasks in two requests of 100", async () => {
    emulator.requests.reset();
    const all = await listRunTasks();
    expect(all).toHaveLength(150);
    expect(all[0]).toMatchObject({ name: "t-0", enabled: true, organization: "emulator-org", category: "task" });
    expect(all[1].enabled).toBe(false);
    expect(emulator.requests.byRoute()).toEqual({ "GET /api/v2/organizations/:org/tasks": 2 });
    expect(emulator.requests.entries.map((e) => e.path)).toEqual([
      "/api/v2/organizations/emulator-org/tasks",
      "/api/v2/organizations/emulator-org/tasks",
    ]);
  });

  test("listRunTasks always asks for the associations: every task lists its own, none an empty list it was not told", async () => {
    const all = await listRunTasks();
    expect(all[149].workspaceTaskIds).toHaveLength(2);
    expect(all[0].workspaceTaskIds).toEqual([]);
    expect(emulator.requests.entries.at(-1)?.path).toBe("/api/v2/organizations/emulator-org/tasks");
    expect(all[149]).not.toHaveProperty("workspaces");
    // Asked for, the workspaces come back too: each task's own, by id and name.
    const withWorkspaces = await listRunTasks({ include: ["workspace_tasks.workspace"] });
    expect(withWorkspaces[149].workspaceTaskIds).toHaveLength(2);
    expect(withWorkspaces[149].workspaces).toEqual([
      { id: emulator.runTask.workspace("app-production").id, name: "app-production" },
      { id: emulator.runTask.workspace("network").id, name: "network" },
    ]);
    expect(withWorkspaces[0].workspaces).toEqual([]);
  });

  test("a server that ignores include: workspaceTaskIds is left out rather than []", async () => {
    const ignoring = await startEmulator({
      interceptors: [
        (req, route) => {
          const task = { id: "task-x", type: "tasks", attributes: { name: "x", url: "https://h.example" }, relationships: {} };
          if (req.method === "GET" && route === "/api/v2/tasks/:id") return { status: 200, body: { data: task } };
          // The organization's list, which tells the task's organization by name, ignores include too.
          const pagination = { "current-page": 1, "page-size": 20, "prev-page": null, "next-page": null, "total-pages": 1, "total-count": 1 };
          if (req.method === "GET" && route === "/api/v2/organizations/:org/tasks")
            return { status: 200, body: { data: [task], meta: { pagination } } };
          return undefined;
        },
      ],
    });
    try {
      const lookup = (key: string) =>
        ({ "runtask:address": ignoring.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "emulator-org" })[key];
      const record = await getRunTaskWith({ id: "task-x" }, lookup);
      expect(record).not.toHaveProperty("workspaceTaskIds");
    } finally {
      await ignoring.close();
    }
  });

  test("getRunTask by name (found on the second page) and by id; a missing one fails", async () => {
    const byName = await getRunTask({ name: "t-149" });
    expect(byName).toMatchObject({ name: "t-149", description: "last", url: "https://h.example/149" });
    expect(await getRunTask({ id: byName.id })).toEqual(byName);
    await expect(getRunTask({ name: "none" })).rejects.toThrow('getRunTask: no run task named "none" in organization "emulator-org"');
    await expect(getRunTask({ id: "task-none" })).rejects.toThrow("getRunTask: no run task task-none (missing or not authorized)");
  });

  test("workspace run tasks: list and get by task", async () => {
    const ws = emulator.runTask.workspace("network").id;
    const list = await listWorkspaceRunTasks({ workspaceId: ws });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ workspaceId: ws, enforcementLevel: "mandatory", stages: ["pre_plan"], stage: "pre_plan" });
    expect(await getWorkspaceRunTask({ workspaceId: ws, taskId: list[0].taskId })).toEqual(list[0]);
    await expect(getWorkspaceRunTask({ workspaceId: ws, taskId: "task-x" })).rejects.toThrow(
      `getWorkspaceRunTask: could not find task "task-x" in workspace "${ws}"`,
    );
  });

  test("page[number] and page[size] reach the service percent-encoded", async () => {
    const urls: string[] = [];
    const server = createServer((req, res) => {
      urls.push(req.url ?? "");
      const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page[number]"));
      res.writeHead(200, { "content-type": "application/vnd.api+json" });
      res.end(JSON.stringify({ data: [], meta: { pagination: { "current-page": page, "next-page": page < 3 ? page + 1 : null } } }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const http = new RunTaskHttp({ address: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: "t", tls: {} });
      await http.listAll("/organizations/o/tasks", "tasks", { include: "workspace_tasks" });
      expect(urls).toEqual([1, 2, 3].map((n) => `/api/v2/organizations/o/tasks?include=workspace_tasks&page%5Bnumber%5D=${n}&page%5Bsize%5D=100`));
    } finally {
      server.close();
    }
  });
});
