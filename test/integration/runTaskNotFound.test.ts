import { DEFAULT_RUNTASK_TOKEN, startEmulator, type Emulator, type RunTaskEmulatorOptions, type TokenGrant } from "../../emulator";
import { startDeployment } from "../../provider/takeover/heldObjects";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { failure } from "../support/failure";
import { configureProvider } from "../support/providerConfig";
import { Switchboard } from "../support/switchboard";
import { checkedInputs } from "../support/checkedInputs";

/**
 * The service answers 404 both for a missing object and for one the token may not see or act on. A read's or a
 * delete's 404 is taken for "gone" only when a list that answers the same token does not hold the object; the
 * other calls' 404s are explained by asking the object's parent.
 */

const BLIND = "token-that-sees-nothing";
const LIST_ONLY = "token-that-may-list-only";
const NO_WORKSPACES = "token-without-workspace-permissions";
const TOKENS: Record<string, TokenGrant> = {
  [DEFAULT_RUNTASK_TOKEN]: { owner: true },
  [BLIND]: { organizations: [] },
  [LIST_ONLY]: {
    manageRunTasks: true,
    manageWorkspaceRunTasks: true,
    deniedRoutes: ["GET /tasks/:id", "DELETE /tasks/:id", "GET /workspaces/:ws/tasks/:id", "DELETE /workspaces/:ws/tasks/:id"],
  },
  [NO_WORKSPACES]: { manageRunTasks: true },
};

let emulator: Emulator;
const calls = new Switchboard();

async function start(options: RunTaskEmulatorOptions = {}): Promise<void> {
  await emulator?.close();
  emulator = await startEmulator({
    runTask: { tokens: TOKENS, ...options },
    interceptors: [calls.interceptor],
  });
  useToken(DEFAULT_RUNTASK_TOKEN);
}

function useToken(token: string, address = emulator.url, organization = "emulator-org"): void {
  configureProvider(
    { "runtask:address": address, "runtask:token": token, "runtask:organization": organization },
    { retry: { baseDelayMs: 5, maxDelayMs: 20 } },
  );
}

beforeEach(async () => {
  calls.reset();
  await start();
});
afterEach(() => emulator.close());
afterAll(() => closeSharedDispatchers());

async function taskAndAssociation() {
  const task = await tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan" }));
  const workspaceId = emulator.runTask.workspace("network").id;
  const assoc = await wsTasks.create(await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "mandatory" }));
  // What follows (refresh, destroy) is a later deployment than the one that made them.
  startDeployment();
  return { task, assoc, workspaceId };
}

describe("read and delete: gone only when a list that answers does not hold the object", () => {
  test("deleted outside the program: refresh drops both, delete succeeds; one list after each 404", async () => {
    const { task, assoc } = await taskAndAssociation();
    emulator.runTask.store.deleteTask(task.id);
    emulator.requests.reset();
    expect(await wsTasks.read(assoc.id, assoc.outs)).toEqual({ id: "", props: {} });
    expect(await tasks.read(task.id, task.outs)).toEqual({ id: "", props: {} });
    expect(emulator.requests.byRoute()).toEqual({
      "GET /api/v2/workspaces/:ws/tasks/:id": 1,
      "GET /api/v2/workspaces/:ws/tasks": 1,
      "GET /api/v2/tasks/:id": 1,
      "GET /api/v2/organizations/:org/tasks": 1,
    });
    await expect(wsTasks.delete(assoc.id, assoc.outs)).resolves.toBeUndefined();
    await expect(tasks.delete(task.id, task.outs)).resolves.toBeUndefined();
  });

  test("a token that may list but not read or delete: refresh and destroy fail, naming the permission and the token setting; the objects stay", async () => {
    const { task, assoc } = await taskAndAssociation();
    useToken(LIST_ONLY);
    const taskErrors = [await failure(tasks.read(task.id, task.outs)), await failure(tasks.delete(task.id, task.outs))];
    for (const [err, verb] of [
      [taskErrors[0], "read"],
      [taskErrors[1], "delete"],
    ] as const) {
      expect(err.code).toBe("not_found");
      expect(err.message).toContain(
        `but the task list of organization "emulator-org" holds ${task.id}: the token may list the organization's run tasks but not ${verb} this one`,
      );
      expect(err.message).toContain("Manage Run Tasks permission");
      expect(err.message).toContain("runtask:token / RUNTASK_TOKEN");
    }
    const assocErrors = [await failure(wsTasks.read(assoc.id, assoc.outs)), await failure(wsTasks.delete(assoc.id, assoc.outs))];
    for (const [err, verb] of [
      [assocErrors[0], "read"],
      [assocErrors[1], "delete"],
    ] as const) {
      expect(err.code).toBe("not_found");
      expect(err.message).toContain(`holds ${assoc.id}: the token may list the workspace's run tasks but not ${verb} this association`);
      expect(err.message).toContain("Manage Workspace Run Tasks permission");
      expect(err.message).toContain("runtask:token / RUNTASK_TOKEN");
    }
    expect(emulator.runTask.tasks()).toHaveLength(1);
    expect(emulator.runTask.workspaceTasks()).toHaveLength(1);

    useToken(DEFAULT_RUNTASK_TOKEN);
    await wsTasks.delete(assoc.id, assoc.outs);
    await tasks.delete(task.id, task.outs);
    expect([emulator.runTask.tasks(), emulator.runTask.workspaceTasks()]).toEqual([[], []]);
  });

  test("a token that sees nothing: refresh and delete fail, naming the token setting; the right token then deletes", async () => {
    const { task, assoc } = await taskAndAssociation();
    useToken(BLIND);
    for (const attempt of [
      () => tasks.read(task.id, task.outs),
      () => wsTasks.read(assoc.id, assoc.outs),
      () => tasks.delete(task.id, task.outs),
      () => wsTasks.delete(assoc.id, assoc.outs),
    ]) {
      const err = await failure(attempt());
      expect(err.code).toBe("not_found");
      expect(err.message).toMatch(/and so does the task list of |and the run task list of workspace \S+ answers 404/);
      expect(err.message).toContain("runtask:token / RUNTASK_TOKEN");
      expect(err.message).toContain("kept in the state");
    }
    expect(emulator.runTask.tasks()).toHaveLength(1);
    useToken(DEFAULT_RUNTASK_TOKEN);
    await wsTasks.delete(assoc.id, assoc.outs);
    await tasks.delete(task.id, task.outs);
    expect(emulator.runTask.tasks()).toEqual([]);
  });

  test("the list is followed to its end, falling back to the server's page size when it refuses the one asked for", async () => {
    await start({ maxPageSize: 5, pageSizeAboveMax: "reject" });
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await tasks.create(await checkedInputs(tasks, { name: `t${i}`, url: "https://hooks.example.com/scan" })));
    useToken(LIST_ONLY);
    // The last task is on the third page: found there, so the 404 is a missing permission, not a deletion.
    const err = await failure(tasks.read(made[11].id, made[11].outs));
    expect(err.message).toContain(`holds ${made[11].id}`);
    useToken(DEFAULT_RUNTASK_TOKEN);
    emulator.runTask.store.deleteTask(made[11].id);
    expect(await tasks.read(made[11].id, made[11].outs)).toEqual({ id: "", props: {} });
  });

  test("a read by id alone (an import) looks in the default organization; without one it fails rather than guess", async () => {
    await expect(tasks.read("task-doesnotexist", {})).resolves.toEqual({ id: "", props: {} });
    useToken(DEFAULT_RUNTASK_TOKEN, emulator.url, "");
    const err = await failure(tasks.read("task-doesnotexist", {}));
    expect(err.message).toContain("no organization is known to look for it in: set runtask:organization / RUNTASK_ORGANIZATION");
  });
});

describe("the object's parent deleted outside the program", () => {
  const bothWaysOut = (err: Error, workspaceId: string) => {
    expect(err.message).toContain(
      `and the run task list of workspace ${workspaceId} answers 404: the token cannot see the workspace, or the workspace was deleted`,
    );
    expect(err.message).toContain("Use a token that may see the workspace (it needs the Manage Workspace Run Tasks permission");
    expect(err.message).toContain("runtask:token / RUNTASK_TOKEN");
    expect(err.message).toContain("if the workspace was deleted, forget it with `pulumi state delete <URN>`");
  };

  test("a deleted workspace: refresh and delete fail naming both ways out, after one list; nothing else is asked", async () => {
    const { task, assoc, workspaceId } = await taskAndAssociation();
    emulator.runTask.deleteWorkspace(workspaceId);
    emulator.requests.reset();
    bothWaysOut(await failure(wsTasks.read(assoc.id, assoc.outs)), workspaceId);
    expect(emulator.requests.byRoute()).toEqual({ "GET /api/v2/workspaces/:ws/tasks/:id": 1, "GET /api/v2/workspaces/:ws/tasks": 1 });
    bothWaysOut(await failure(wsTasks.delete(assoc.id, assoc.outs)), workspaceId);
    expect(emulator.runTask.tasks().map((t) => t.id)).toEqual([task.id]);
  });

  test.each([false, true])(
    "a token without permission on the workspace (the task's include leaving out what it may not see: %s): the association stays",
    async (includeVisibleOnly) => {
      await start({ includeVisibleOnly });
      const { task, assoc, workspaceId } = await taskAndAssociation();
      useToken(NO_WORKSPACES);
      // What the task says of its associations is no proof either way: a service may leave this one out.
      const shown = await fetch(`${emulator.url}/api/v2/tasks/${task.id}?include=workspace_tasks`, {
        headers: { authorization: `Bearer ${NO_WORKSPACES}` },
      }).then((r) => r.json() as Promise<{ included: unknown[] }>);
      expect(shown.included).toHaveLength(includeVisibleOnly ? 0 : 1);
      bothWaysOut(await failure(wsTasks.read(assoc.id, assoc.outs)), workspaceId);
      bothWaysOut(await failure(wsTasks.delete(assoc.id, assoc.outs)), workspaceId);
      expect(emulator.runTask.workspaceTasks()).toHaveLength(1);
    },
  );

  test("a deleted organization: the task and the association stay, and the messages name the way out", async () => {
    const { task, assoc } = await taskAndAssociation();
    emulator.runTask.deleteOrganization("emulator-org");
    for (const attempt of [() => tasks.read(task.id, task.outs), () => tasks.delete(task.id, task.outs)]) {
      const err = await failure(attempt());
      expect(err.message).toContain(
        'and so does the task list of organization "emulator-org": the organization may have been deleted, and the task with it',
      );
      expect(err.message).toContain("forget it with `pulumi state delete <URN>`");
    }
    for (const attempt of [() => wsTasks.read(assoc.id, assoc.outs), () => wsTasks.delete(assoc.id, assoc.outs)]) {
      bothWaysOut(await failure(attempt()), String(assoc.outs.workspaceId));
    }
  });
});

describe("other calls' 404s say which part answered, with one request to the parent", () => {
  test("create in an organization that does not answer, and in one where the token is not an owner", async () => {
    emulator.requests.reset();
    const missing = await failure(tasks.create(await checkedInputs(tasks, { name: "x", url: "https://h.example.com", organization: "nope" })));
    expect(missing.message).toContain('organization "nope" answers 404 too: it does not exist, or the token cannot see it');
    expect(emulator.requests.byRoute()).toEqual({ "POST /api/v2/organizations/:org/tasks": 1, "GET /api/v2/organizations/:org/tasks": 1 });
    useToken(NO_WORKSPACES);
    const notOwner = await failure(tasks.create(await checkedInputs(tasks, { name: "x", url: "https://h.example.com" })));
    expect(notOwner.message).toContain(
      'organization "emulator-org" answers, so the token may not create run tasks there: the spec requires owner permission',
    );
  });

  test("update of a task deleted outside the program", async () => {
    const { task } = await taskAndAssociation();
    emulator.runTask.store.deleteTask(task.id);
    const news = await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/other" });
    const err = await failure(tasks.update(task.id, task.outs, news));
    expect(err.message).toContain(`organization "emulator-org" answers, so run task ${task.id} was deleted outside the program`);
  });

  test("associate to a workspace that does not answer, and a task that does not", async () => {
    const { task } = await taskAndAssociation();
    const toMissingWorkspace = await failure(
      wsTasks.create(await checkedInputs(wsTasks, { workspaceId: "ws-missing0000000", taskId: task.id, enforcementLevel: "advisory" })),
    );
    expect(toMissingWorkspace.message).toContain(
      "workspace ws-missing0000000 answers 404 too: it does not exist, or the token lacks the Manage Workspace Run Tasks permission",
    );
    const workspaceId = emulator.runTask.workspace("app-staging").id;
    const ofMissingTask = await failure(
      wsTasks.create(await checkedInputs(wsTasks, { workspaceId, taskId: "task-missing00000", enforcementLevel: "advisory" })),
    );
    expect(ofMissingTask.message).toContain(
      `workspace ${workspaceId} answers, so run task task-missing00000 does not exist or the token cannot see it`,
    );
  });

  test("update of an association deleted outside the program", async () => {
    const { assoc } = await taskAndAssociation();
    emulator.runTask.store.workspaceTasks.delete(assoc.id);
    const news = await checkedInputs(wsTasks, { workspaceId: assoc.outs.workspaceId, taskId: assoc.outs.taskId, enforcementLevel: "advisory" });
    const err = await failure(wsTasks.update(assoc.id, assoc.outs, news));
    expect(err.message).toContain(`so association ${assoc.id} was deleted outside the program`);
  });

  test("a 404 that is not the service's (a wrong base path) names the address at once, without probing", async () => {
    const { task } = await taskAndAssociation();
    useToken(DEFAULT_RUNTASK_TOKEN, `${emulator.url}/wrong`);
    emulator.requests.reset();
    const err = await failure(tasks.read(task.id, task.outs));
    expect(err.message).toContain("the answer is not the run task service's (a 404 without a JSON:API error object): check runtask:address");
    expect(emulator.requests.total()).toBe(1);
  });
});

describe("a 2xx answer that is not the spec's shape is an error naming the address, never gone, never a value", () => {
  const ANSWERS: [string, { status: number; body?: unknown }, string][] = [
    ["a 204", { status: 204 }, "no body"],
    ["a proxy's sign-in page", { status: 200, body: "<html><body>Sign in</body></html>" }, "a page of HTML or XML"],
    ['{"data": null}', { status: 200, body: { data: null } }, 'a JSON object with the key "data" whose "data" is null'],
    ["{}", { status: 200, body: {} }, "an empty JSON object"],
  ];
  const answering = (method: string, route: string, answer: { status: number; body?: unknown }) =>
    calls.answers.push((req, key) => (req.method === method && key === route ? answer : undefined));
  const unexpected = (err: Error & { code?: string }, shown: string) => {
    expect(err.code).toBe("unexpected_answer");
    expect(err.message).toContain(`but ${shown}: check runtask:address`);
  };

  test.each(ANSWERS)("show of a task or an association (%s): refresh fails and keeps both", async (_, answer, shown) => {
    const { task, assoc } = await taskAndAssociation();
    answering("GET", "/api/v2/tasks/:id", answer);
    answering("GET", "/api/v2/workspaces/:ws/tasks/:id", answer);
    unexpected(await failure(tasks.read(task.id, task.outs)), shown);
    unexpected(await failure(wsTasks.read(assoc.id, assoc.outs)), shown);
  });

  test.each(ANSWERS)("the list that would prove a 404 (%s): refresh and delete fail and keep the object", async (_, answer, shown) => {
    const { task, assoc } = await taskAndAssociation();
    emulator.runTask.store.deleteTask(task.id);
    answering("GET", "/api/v2/organizations/:org/tasks", answer);
    answering("GET", "/api/v2/workspaces/:ws/tasks", answer);
    for (const attempt of [
      () => tasks.read(task.id, task.outs),
      () => tasks.delete(task.id, task.outs),
      () => wsTasks.read(assoc.id, assoc.outs),
      () => wsTasks.delete(assoc.id, assoc.outs),
    ]) {
      const err = await failure(attempt());
      expect(err.message).toContain("could not be read to tell");
      expect(err.message).toContain(`but ${shown}: check runtask:address`);
    }
  });

  test("an update answered without a document fails naming the address", async () => {
    const { task } = await taskAndAssociation();
    answering("PATCH", "/api/v2/tasks/:id", { status: 200, body: { data: [] } });
    const news = await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/other" });
    unexpected(await failure(tasks.update(task.id, task.outs, news)), 'a JSON object with the key "data" whose "data" is a list');
  });

  test("a list item of another type is not the spec's list", async () => {
    await taskAndAssociation();
    answering("GET", "/api/v2/organizations/:org/tasks", { status: 200, body: { data: [{ id: "x-1", type: "things", attributes: {} }] } });
    const err = await failure(tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan", adopt: true })));
    expect(err.code).toBe("unexpected_answer");
    expect(err.message).toContain('the answer is not a JSON:API list of "tasks"');
  });
});
