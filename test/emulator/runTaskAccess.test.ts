import { associateBody, NOT_FOUND, RunTaskApi, taskBody, UNAUTHORIZED } from "../support/runTaskApi";

let api: RunTaskApi;
afterEach(() => api.close());

describe("run task emulator: authentication", () => {
  const NO_TOKEN: [string, string | null][] = [
    ["no Authorization header", null],
    ["an unknown token", "not-a-token"],
    ["an empty bearer token", ""],
  ];
  const CALLS = [
    ["GET", "/organizations/emulator-org/tasks"],
    ["GET", "/tasks/task-x"],
    ["DELETE", "/workspaces/ws-x/tasks/wstask-x"],
  ];

  describe("under letterOfSpec, as the spec says (404 for missing and forbidden alike)", () => {
    beforeEach(async () => {
      api = await RunTaskApi.start({ letterOfSpec: true });
    });

    test.each(NO_TOKEN)("%s is 404 with the JSON:API error object of a missing object", async (_, token) => {
      for (const [method, path] of CALLS) {
        const r = await api.call(method, path, undefined, { token });
        expect(r).toEqual({ status: 404, contentType: "application/vnd.api+json", body: NOT_FOUND });
      }
    });

    test("an unknown token cannot tell an existing task from a missing one", async () => {
      const t = await api.createTask("exists");
      const existing = await api.call("GET", `/tasks/${t.id}`, undefined, { token: "not-a-token" });
      const missing = await api.call("GET", "/tasks/task-doesnotexist0000", undefined, { token: "not-a-token" });
      expect(existing).toEqual(missing);
      expect(existing.status).toBe(404);
    });

    test("a scheme other than Bearer is 404", async () => {
      const res = await fetch(`${api.origin}/api/v2/organizations/emulator-org/tasks`, { headers: { authorization: "Basic ZW11bGF0b3I6dG9rZW4=" } });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(NOT_FOUND);
    });

    test("the token is checked first: before the content type, existence and the body; nothing is created", async () => {
      expect((await api.call("POST", "/organizations/emulator-org/tasks", { data: { type: "wrong" } }, { token: "bad" })).status).toBe(404);
      expect(
        (await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "x" }), { token: "bad", contentType: "text/plain" })).status,
      ).toBe(404);
      expect((await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "x" }), { token: "bad" })).status).toBe(404);
      expect(api.emulator.runTask.tasks()).toEqual([]);
    });

    test.each(["constructor", "__proto__", "toString"])("a token named like an object property (%s) is 404", async (token) => {
      expect((await api.call("GET", "/organizations/emulator-org/tasks", undefined, { token })).status).toBe(404);
    });

    test("the default token owns the default organization", async () => {
      expect((await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "mine" }))).status).toBe(201);
    });
  });

  describe("by default, as the real service answers a bad token (401; go-tfe's ErrUnauthorized)", () => {
    beforeEach(async () => {
      api = await RunTaskApi.start();
    });

    test.each(NO_TOKEN)("%s is 401 with a JSON:API error object", async (_, token) => {
      for (const [method, path] of CALLS) {
        const r = await api.call(method, path, undefined, { token });
        expect(r).toEqual({ status: 401, contentType: "application/vnd.api+json", body: UNAUTHORIZED });
      }
    });

    test("a scheme other than Bearer is 401", async () => {
      const res = await fetch(`${api.origin}/api/v2/organizations/emulator-org/tasks`, { headers: { authorization: "Basic ZW11bGF0b3I6dG9rZW4=" } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(UNAUTHORIZED);
    });

    test("401 comes before the content type, validation and existence checks", async () => {
      expect((await api.call("POST", "/organizations/nope/tasks", { data: { type: "wrong" } }, { token: "bad" })).status).toBe(401);
      expect(
        (await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "x" }), { token: "bad", contentType: "text/plain" })).status,
      ).toBe(401);
    });

    test.each(["constructor", "__proto__", "toString"])("a token named like an object property (%s) is 401", async (token) => {
      expect((await api.call("GET", "/organizations/emulator-org/tasks", undefined, { token })).status).toBe(401);
    });

    test("a known token without the permission still gets 404, not 401", async () => {
      await api.close();
      api = await RunTaskApi.start({ tokens: { weak: {} } });
      expect((await api.call("GET", "/organizations/emulator-org/tasks", undefined, { token: "weak" })).body).toEqual(NOT_FOUND);
    });
  });

  test.each([{}, { letterOfSpec: true }])(
    "GET /api/v2/ping answers 204 with no token, and every answer carries the API version, as go-tfe reads them (%j)",
    async (options) => {
      api = await RunTaskApi.start(options);
      for (const headers of [{}, { authorization: "Bearer not-a-token" }] as Record<string, string>[]) {
        const ping = await fetch(`${api.origin}/api/v2/ping`, { headers });
        expect([ping.status, await ping.text(), ping.headers.get("tfp-api-version")]).toEqual([204, "", "2.6"]);
      }
      for (const path of ["/api/v2/organizations/emulator-org/tasks", "/api/v2/nowhere", "/api/v2/tasks/%zz"]) {
        expect((await fetch(`${api.origin}${path}`)).headers.get("tfp-api-version")).toBe("2.6");
      }
      expect((await fetch(`${api.origin}/api/v2/ping`, { method: "POST" })).status).toBe(405);
    },
  );

  test("unknownTokenStatus given wins over letterOfSpec either way, and other values are refused", async () => {
    api = await RunTaskApi.start({ unknownTokenStatus: 404 });
    expect((await api.call("GET", "/tasks/task-x", undefined, { token: "nope" })).status).toBe(404);
    await api.close();
    api = await RunTaskApi.start({ unknownTokenStatus: 401, letterOfSpec: true });
    expect((await api.call("GET", "/tasks/task-x", undefined, { token: "nope" })).status).toBe(401);
    await expect(RunTaskApi.start({ unknownTokenStatus: 403 as never })).rejects.toThrow("unknownTokenStatus must be one of 401, 404, not 403");
  });
});

describe("run task emulator: permissions per token and organization", () => {
  // Two organizations, two workspaces each; every token below has a different mix of the spec's permissions.
  const organizations = ["a", "b"].map((org) => ({ name: org, workspaces: [1, 2].map((n) => ({ id: `ws-${org}${n}`, name: `w${n}` })) }));
  const tokens = {
    root: { owner: true },
    ownerOfA: { perOrganization: { a: { owner: true } } },
    mixed: { perOrganization: { a: { owner: true }, b: { manageRunTasks: true } } },
    managerEverywhere: { manageRunTasks: true },
    managerOfB: { manageRunTasks: true, organizations: ["b"] },
    attacherByName: { perOrganization: { a: { manageWorkspaceRunTasks: ["w1"] } } },
    attacherById: { manageWorkspaceRunTasks: ["ws-b2"] },
    attacherEverywhere: { manageWorkspaceRunTasks: true },
    nothing: {},
  };
  type Token = keyof typeof tokens;
  let taskOf: Record<string, string>;

  beforeEach(async () => {
    api = await RunTaskApi.start({ organizations, tokens });
    taskOf = {
      a: (await api.createTask("ta", {}, "a", "root")).id,
      b: (await api.createTask("tb", {}, "b", "root")).id,
    };
  });

  const status = async (token: Token, method: string, path: string, body?: unknown) => {
    const r = await api.call(method, path, body, { token });
    if (r.status === 404) expect(r.body).toEqual(NOT_FOUND);
    return r.status;
  };

  test.each<[Token, "a" | "b", number]>([
    ["root", "a", 201],
    ["root", "b", 201],
    ["ownerOfA", "a", 201],
    ["ownerOfA", "b", 404],
    ["mixed", "a", 201],
    ["mixed", "b", 404],
    ["managerEverywhere", "a", 404],
    ["managerEverywhere", "b", 404],
    ["attacherEverywhere", "a", 404],
    ["nothing", "a", 404],
  ])("create a task: %s in %s -> %d (only owners create)", async (token, org, expected) => {
    expect(await status(token, "POST", `/organizations/${org}/tasks`, taskBody({ name: `new-${token}` }))).toBe(expected);
  });

  test.each<[Token, "a" | "b", number]>([
    ["root", "a", 200],
    ["ownerOfA", "a", 200],
    ["ownerOfA", "b", 404],
    ["mixed", "a", 200],
    ["mixed", "b", 200],
    ["managerEverywhere", "a", 200],
    ["managerEverywhere", "b", 200],
    ["managerOfB", "a", 404],
    ["managerOfB", "b", 200],
    ["attacherEverywhere", "b", 404],
    ["nothing", "b", 404],
  ])("list, show, update and delete tasks: %s in %s -> %d", async (token, org, expected) => {
    const id = taskOf[org];
    expect(await status(token, "GET", `/organizations/${org}/tasks`)).toBe(expected);
    expect(await status(token, "GET", `/tasks/${id}`)).toBe(expected);
    expect(await status(token, "PATCH", `/tasks/${id}`, { data: { type: "tasks", attributes: { description: "x" } } })).toBe(expected);
    expect(await status(token, "DELETE", `/tasks/${id}`)).toBe(expected === 200 ? 204 : 404);
    expect(api.emulator.runTask.tasks().some((t) => t.id === id)).toBe(expected !== 200);
  });

  test.each<[Token, string, boolean]>([
    ["root", "ws-a1", true],
    ["root", "ws-b2", true],
    ["ownerOfA", "ws-a2", true],
    ["ownerOfA", "ws-b1", false],
    ["attacherEverywhere", "ws-a1", true],
    ["attacherEverywhere", "ws-b2", true],
    ["attacherByName", "ws-a1", true],
    ["attacherByName", "ws-a2", false],
    ["attacherByName", "ws-b1", false],
    ["attacherById", "ws-b2", true],
    ["attacherById", "ws-b1", false],
    ["managerEverywhere", "ws-a1", false],
    ["mixed", "ws-b1", false],
    ["nothing", "ws-a1", false],
  ])("workspace tasks: %s on %s -> allowed %s", async (token, ws, allowed) => {
    const task = taskOf[ws.slice(3, 4)];
    const created = await api.call("POST", `/workspaces/${ws}/tasks`, associateBody(task), { token });
    expect(created.status).toBe(allowed ? 201 : 404);
    // The object exists either way (made by root when the token may not), so 404 below means "not authorized".
    if (!allowed) expect((await api.call("POST", `/workspaces/${ws}/tasks`, associateBody(task), { token: "root" })).status).toBe(201);
    const id = api.emulator.runTask.workspaceTasks({ workspaceId: ws, taskId: task })[0].id;
    const ok = (code: number) => (allowed ? code : 404);
    expect(await status(token, "GET", `/workspaces/${ws}/tasks`)).toBe(ok(200));
    expect(await status(token, "GET", `/workspaces/${ws}/tasks/${id}`)).toBe(ok(200));
    expect(
      await status(token, "PATCH", `/workspaces/${ws}/tasks/${id}`, {
        data: { type: "workspace-tasks", attributes: { "enforcement-level": "mandatory" } },
      }),
    ).toBe(ok(200));
    expect(await status(token, "DELETE", `/workspaces/${ws}/tasks/${id}`)).toBe(ok(204));
    expect(api.emulator.runTask.workspaceTasks().some((w) => w.id === id)).toBe(!allowed);
  });

  test("a missing object and a forbidden one give the same 404 body", async () => {
    const forbidden = await api.call("GET", `/tasks/${taskOf.a}`, undefined, { token: "managerOfB" });
    const missing = await api.call("GET", "/tasks/task-doesnotexist0000", undefined, { token: "managerOfB" });
    expect(forbidden).toEqual(missing);
    expect(missing).toEqual({ status: 404, contentType: "application/vnd.api+json", body: NOT_FOUND });
  });
});

describe("run task emulator: content type of request bodies", () => {
  const UNSUPPORTED = (received?: string) => ({
    errors: [
      {
        status: "415",
        title: "unsupported media type",
        detail: `requests with a body must have Content-Type application/vnd.api+json${received ? `, not ${received}` : ""}`,
      },
    ],
  });

  beforeEach(async () => {
    api = await RunTaskApi.start();
  });

  test.each(["application/json", "text/plain", "application/x-www-form-urlencoded"])(
    "a body sent as %s is 415, and nothing is created",
    async (type) => {
      const r = await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "typed" }), { contentType: type });
      expect(r).toEqual({ status: 415, contentType: "application/vnd.api+json", body: UNSUPPORTED(type) });
      expect(api.emulator.runTask.tasks()).toEqual([]);
    },
  );

  test("a body without Content-Type is 415, on every method that takes one", async () => {
    const t = await api.createTask("t");
    const ws = api.ws("network");
    const wt = await api.associate(ws, t.id);
    const sent = [
      ["POST", "/organizations/emulator-org/tasks", taskBody({ name: "other" })],
      ["PATCH", `/tasks/${t.id}`, taskBody({ description: "x" })],
      ["POST", `/workspaces/${ws}/tasks`, associateBody(t.id)],
      ["PATCH", `/workspaces/${ws}/tasks/${wt.id}`, { data: { type: "workspace-tasks", attributes: { stage: "pre_plan" } } }],
    ] as const;
    for (const [method, path, body] of sent) {
      const r = await api.call(method, path, body, { contentType: null });
      expect({ method, path, status: r.status, body: r.body }).toEqual({ method, path, status: 415, body: UNSUPPORTED() });
    }
  });

  test("media type parameters are tolerated; requests without a body need no Content-Type", async () => {
    const r = await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "charset" }), {
      contentType: "application/vnd.api+json; charset=utf-8",
    });
    expect(r.status).toBe(201);
    expect((await api.call("GET", `/tasks/${r.body.data.id}`, undefined, { contentType: null })).status).toBe(200);
    expect((await api.call("DELETE", `/tasks/${r.body.data.id}`, undefined, { contentType: null })).status).toBe(204);
  });

  test("a bad token is 401 before the content type is looked at", async () => {
    expect(
      (await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "x" }), { token: "bad", contentType: "text/plain" })).status,
    ).toBe(401);
  });

  test("a known token without the permission gets 415 before its 404: the content type comes before the objects", async () => {
    await api.close();
    api = await RunTaskApi.start({ tokens: { weak: {} } });
    expect(
      (await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "x" }), { token: "weak", contentType: "text/plain" })).status,
    ).toBe(415);
    expect((await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "x" }), { token: "weak" })).status).toBe(404);
  });

  test("requireJsonApiContentType: false accepts any content type", async () => {
    await api.close();
    api = await RunTaskApi.start({ requireJsonApiContentType: false });
    expect(
      (await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "plain" }), { contentType: "application/json" })).status,
    ).toBe(201);
    expect((await api.call("POST", "/organizations/emulator-org/tasks", taskBody({ name: "none" }), { contentType: null })).status).toBe(201);
  });
});

test("a malformed percent-escape in a path is 400 with a JSON:API error object, whatever the token, never a 500", async () => {
  api = await RunTaskApi.start();
  const bad = { status: 400, contentType: "application/vnd.api+json" };
  expect(await api.call("GET", "/tasks/task-%zz")).toEqual({
    ...bad,
    body: { errors: [{ status: "400", title: "bad request", detail: 'invalid URL escape "%zz" in the path' }] },
  });
  expect((await api.call("GET", "/organizations/emulator-%E9org/tasks", undefined, { token: "nope" })).status).toBe(400);
  expect((await api.call("POST", "/organizations/emulator-org%/tasks", taskBody({ name: "x" }))).status).toBe(400);
  expect(api.emulator.runTask.tasks()).toEqual([]);
});
