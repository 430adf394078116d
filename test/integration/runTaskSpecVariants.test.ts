import { startEmulator, type Emulator, type Interceptor, type RunTaskEmulatorOptions, DEFAULT_RUNTASK_TOKEN } from "../../emulator";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { getRunTask, listRunTasks } from "../../provider/functions/runTask";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { configureProvider } from "../support/providerConfig";
import { Switchboard } from "../support/switchboard";
import { checkedInputs } from "../support/checkedInputs";

/**
 * What the run task spec allows a server to answer, and what the provider must make of it: a 404 that may mean
 * "not authorized", global settings that are declarative, refusals recognised by looking rather than by their
 * wording, a server that refuses the page size asked for, and an address given with its API prefix.
 */

let emulator: Emulator;
const calls = new Switchboard();

async function start(options: RunTaskEmulatorOptions = {}, address?: (url: string) => string): Promise<void> {
  await emulator?.close();
  emulator = await startEmulator({
    runTask: { tokens: { [DEFAULT_RUNTASK_TOKEN]: { owner: true } }, ...options },
    interceptors: [calls.interceptor],
  });
  useToken(DEFAULT_RUNTASK_TOKEN, address);
}

function useToken(token: string, address: (url: string) => string = (url) => url): void {
  configureProvider(
    { "runtask:address": address(emulator.url), "runtask:token": token, "runtask:organization": "emulator-org" },
    { retry: { baseDelayMs: 5, maxDelayMs: 20 } },
  );
}

beforeEach(async () => {
  calls.reset();
  await start();
});
afterEach(() => emulator.close());
afterAll(() => closeSharedDispatchers());

const scanner = { name: "scanner", url: "https://hooks.example.com/scan" };
const bodies = (method: string) => emulator.runTask.received.filter((r) => r.method === method).map((r) => r.body as any);

describe("global is declarative", () => {
  const mandatory = { enabled: true, enforcementLevel: "mandatory", stages: ["post_plan"] };

  test("removed from the program: one write turns it off on the service", async () => {
    const { id, outs } = await tasks.create(await checkedInputs(tasks, { ...scanner, global: mandatory }));
    expect(outs.global).toEqual(mandatory);
    const without = await checkedInputs(tasks, scanner);
    expect(await tasks.diff(id, outs, without)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: true });
    emulator.requests.reset();
    const { outs: after } = await tasks.update(id, outs, without);
    expect(emulator.requests.byRoute()).toEqual({ "PATCH /api/v2/tasks/:id": 1 });
    expect(bodies("PATCH").at(-1).data.attributes["global-configuration"]).toEqual({ enabled: false });
    expect(emulator.runTask.store.tasks.get(id)?.global.enabled).toBe(false);
    expect(after.global).toMatchObject({ enabled: false });
    expect((await tasks.diff(id, after, without)).changes).toBe(false);
  });

  test.each([
    ["a show that carries them", true],
    ["a show that leaves them out (the spec's sample): read from the organization's list", false],
  ])("changed outside the program, %s: refresh shows it, and the update puts the program's back", async (_label, showGlobalConfiguration) => {
    await start({ showGlobalConfiguration });
    const program = await checkedInputs(tasks, scanner);
    const { id, outs } = await tasks.create(program);
    expect((await tasks.diff(id, outs, program)).changes).toBe(false);
    Object.assign(emulator.runTask.store.tasks.get(id)!.global, { enabled: true, stages: ["pre_plan"], enforcementLevel: "mandatory" });
    const refreshed = await tasks.read(id, outs);
    expect(refreshed.props.global).toEqual({ enabled: true, stages: ["pre_plan"], enforcementLevel: "mandatory" });
    expect(await tasks.diff(id, refreshed.props, program)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: true });
    await tasks.update(id, refreshed.props, program);
    expect(emulator.runTask.store.tasks.get(id)?.global.enabled).toBe(false);
  });

  test("a key removed goes back to its default", async () => {
    const { id, outs } = await tasks.create(await checkedInputs(tasks, { ...scanner, global: mandatory }));
    const news = await checkedInputs(tasks, { ...scanner, global: { stages: ["post_plan"], enforcementLevel: "mandatory" } });
    expect((await tasks.diff(id, outs, news)).changes).toBe(true);
    await tasks.update(id, outs, news);
    expect(emulator.runTask.store.tasks.get(id)?.global).toMatchObject({ enabled: false, stages: ["post_plan"], enforcementLevel: "mandatory" });
  });

  test("an organization without the feature: no diff and no write of global settings", async () => {
    emulator.runTask.setFeature("emulator-org", false);
    const program = await checkedInputs(tasks, scanner);
    const { id, outs } = await tasks.create(program);
    expect(outs).not.toHaveProperty("global");
    expect(bodies("POST").at(-1).data.attributes).not.toHaveProperty("global-configuration");
    expect((await tasks.diff(id, (await tasks.read(id, outs)).props, program)).changes).toBe(false);
    await tasks.update(id, outs, await checkedInputs(tasks, { ...scanner, description: "changed" }));
    expect(bodies("PATCH").at(-1).data.attributes).not.toHaveProperty("global-configuration");
  });
});

describe("conflicts are recognised by looking, whatever the service's wording", () => {
  /** A 422 in other words than the emulator's, for every create of an object that exists. */
  const reworded: Interceptor = (req, route) => {
    const body = req.body as any;
    if (
      req.method === "POST" &&
      route === "/api/v2/organizations/:org/tasks" &&
      emulator.runTask.tasks().some((t) => t.name === body?.data?.attributes?.name)
    ) {
      return { status: 422, body: { errors: [{ status: "422", title: "Unprocessable Entity" }] } };
    }
    if (
      req.method === "POST" &&
      route === "/api/v2/workspaces/:ws/tasks" &&
      emulator.runTask.workspaceTasks({ taskId: body?.data?.relationships?.task?.data?.id }).length > 0
    ) {
      return { status: 422, body: { errors: [{ status: "422", detail: "Validation failed" }] } };
    }
    return undefined;
  };

  test("a task name and an association that exist give the adopt advice", async () => {
    calls.answers = [reworded];
    const existing = emulator.runTask.addTask("emulator-org", { name: "scanner" });
    await expect(tasks.create(await checkedInputs(tasks, scanner))).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining(
        `run task "scanner" of organization "emulator-org" already exists (${existing.id}); a create never overwrites it. `,
      ),
    });
    const workspaceId = emulator.runTask.workspace("network").id;
    emulator.runTask.addWorkspaceTask(workspaceId, existing.id);
    await expect(
      wsTasks.create(await checkedInputs(wsTasks, { workspaceId, taskId: existing.id, enforcementLevel: "advisory" })),
    ).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining(
        `the association of run task ${existing.id} with workspace ${workspaceId} already exists (${emulator.runTask.workspaceTasks()[0].id}); a create never overwrites it. `,
      ),
    });
  });

  test("a 422 for anything else is the service's own message", async () => {
    calls.answers = [
      (req, route) =>
        req.method === "POST" && route === "/api/v2/organizations/:org/tasks"
          ? { status: 422, body: { errors: [{ status: "422", title: "invalid attribute", detail: "Url is not reachable" }] } }
          : undefined,
    ];
    await expect(tasks.create(await checkedInputs(tasks, scanner))).rejects.toMatchObject({
      code: "invalid",
      message: expect.stringContaining("Url is not reachable"),
    });
  });

  test("a 422 whose looking-into fails stays the error, with the lookup's failure said after it", async () => {
    calls.answers = [
      (req, route) =>
        req.method === "POST" && route === "/api/v2/organizations/:org/tasks"
          ? { status: 422, body: { errors: [{ status: "422", title: "invalid attribute", detail: "Url is not reachable" }] } }
          : req.method === "GET" && route === "/api/v2/organizations/:org/tasks"
            ? { status: 403, body: { errors: [{ status: "403", title: "forbidden" }] } }
            : undefined,
    ];
    const err = await tasks.create(await checkedInputs(tasks, scanner)).catch((e: Error & { code?: string; cause?: unknown }) => e);
    expect(err).toMatchObject({ code: "invalid" });
    expect((err as Error).message).toMatch(
      /POST \/organizations\/emulator-org\/tasks failed \(HTTP 422\): invalid attribute: Url is not reachable; looking whether the object exists failed too: .*HTTP 403/,
    );
    expect((err as Error & { cause?: unknown }).cause).toBeInstanceOf(Error);
  });
});

test("a server that refuses page[size]=100 is read with its own page size, following links.next", async () => {
  calls.answers = [
    (req) =>
      Number(req.query.get("page[size]")) > 20
        ? { status: 422, body: { errors: [{ status: "422", title: "invalid page size", source: { parameter: "page[size]" } }] } }
        : undefined,
  ];
  for (let i = 0; i < 45; i++) emulator.runTask.addTask("emulator-org", { name: `t-${i}` });
  const config = (key: string) => ({ "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN })[key];
  emulator.requests.reset();
  const all = await listRunTasks({ organization: "emulator-org" }, config);
  expect(all.map((t) => t.name)).toEqual(Array.from({ length: 45 }, (_, i) => `t-${i}`));
  expect(emulator.requests.byRoute()).toEqual({ "GET /api/v2/organizations/:org/tasks": 4 });
});

test("an address given with /api/v2 already on it reaches the API", async () => {
  await start({}, (url) => `${url}/api/v2/`);
  const { id } = await tasks.create(await checkedInputs(tasks, scanner));
  expect(emulator.runTask.store.tasks.has(id)).toBe(true);
});

test("a server that answers stages in another order than sent: no diff after create, update or refresh", async () => {
  await start({ reverseStages: true });
  const globalArgs = { enabled: true, stages: ["pre_plan", "post_plan"], enforcementLevel: "advisory" };
  const taskInputs = await checkedInputs(tasks, { ...scanner, global: globalArgs });
  const task = await tasks.create(taskInputs);
  expect((task.outs.global as { stages: string[] }).stages).toEqual(["post_plan", "pre_plan"]);
  expect((await tasks.diff(task.id, task.outs, taskInputs)).changes).toBe(false);
  const refreshedTask = await tasks.read(task.id, task.outs);
  expect((await tasks.diff(task.id, refreshedTask.props, taskInputs)).changes).toBe(false);

  const workspaceId = emulator.runTask.workspace("network").id;
  const assocInputs = await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "advisory", stages: ["pre_plan", "pre_apply"] });
  const assoc = await wsTasks.create(assocInputs);
  expect(assoc.outs.stages).toEqual(["pre_apply", "pre_plan"]);
  expect((await wsTasks.diff(assoc.id, assoc.outs, assocInputs)).changes).toBe(false);
  const refreshed = await wsTasks.read(assoc.id, assoc.outs);
  expect((await wsTasks.diff(assoc.id, refreshed.props, assocInputs)).changes).toBe(false);
  // A real change of the set still shows.
  const changed = await checkedInputs(wsTasks, { workspaceId, taskId: task.id, enforcementLevel: "advisory", stages: ["pre_plan"] });
  expect((await wsTasks.diff(assoc.id, refreshed.props, changed)).changes).toBe(true);
});

test.each([false, true])(
  'description: "" against a service that renders it as null (%s): no diff after create or refresh, nor from a state that holds ""',
  async (asNull) => {
    await start({ emptyDescriptionAsNull: asNull });
    const inputs = await checkedInputs(tasks, { ...scanner, description: "" });
    const task = await tasks.create(inputs);
    expect(bodies("POST")[0].data.attributes.description).toBe("");
    expect((await tasks.diff(task.id, task.outs, inputs)).changes).toBe(false);
    const refreshed = await tasks.read(task.id, task.outs);
    expect(refreshed.props).not.toHaveProperty("description");
    expect((await tasks.diff(task.id, refreshed.props, inputs)).changes).toBe(false);
    // A state an older version wrote, which kept the program's "".
    const older = { ...task.outs, description: "" };
    expect((await tasks.diff(task.id, older, inputs)).changes).toBe(false);
    expect((await tasks.diff(task.id, (await tasks.read(task.id, older)).props, inputs)).changes).toBe(false);
  },
);

describe("organizations known by an id of their own (the relationship's `data.id` is not the name)", () => {
  beforeEach(() => start({ organizationIds: "opaque", duplicates: "accept", organizations: [{ name: "emulator-org" }, { name: "other" }] }));
  const lookup = (key: string) =>
    ({ "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "emulator-org" })[key];

  test("a refresh keeps the name in `organization`, so nothing is to replace; a task deleted outside is proven gone by its organization's list", async () => {
    const { id, outs } = await tasks.create(await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan" }));
    const read = await tasks.read(id, outs);
    expect(read.props.organization).toBe("emulator-org");
    expect(read.inputs?.organization).toBe("emulator-org");
    expect(await tasks.diff(id, read.props, await checkedInputs(tasks, { name: "scanner", url: "https://hooks.example.com/scan" }))).toMatchObject({
      changes: false,
    });
    emulator.runTask.store.tasks.delete(id);
    expect((await tasks.read(id, read.props)).id).toBe("");
  });

  test("an import by id takes the organization whose list holds the task; where none does, it asks for <organization>/<task-name>", async () => {
    const mine = emulator.runTask.addTask("emulator-org", { name: "scanner" });
    expect((await tasks.read(mine.id, {})).props.organization).toBe("emulator-org");
    const theirs = emulator.runTask.addTask("other", { name: "scanner" });
    await expect(tasks.read(theirs.id, {})).rejects.toThrow(
      `import "${theirs.id}": the task's organization cannot be told: neither runtask:organization nor its relationship's id ("org-`,
    );
    expect((await tasks.read(`other/scanner`, {})).props.organization).toBe("other");
  });

  test("getRunTask by id names the organization by its name, and holds to the one given; by name, two of that name fail naming both", async () => {
    const one = emulator.runTask.addTask("emulator-org", { name: "scanner" });
    expect(await getRunTask({ id: one.id }, lookup)).toMatchObject({ id: one.id, organization: "emulator-org" });
    await expect(getRunTask({ id: one.id, organization: "other" }, lookup)).rejects.toThrow(
      `getRunTask: run task ${one.id} is not in organization "other"`,
    );
    const two = emulator.runTask.addTask("emulator-org", { name: "scanner" });
    await expect(getRunTask({ name: "scanner" }, lookup)).rejects.toThrow(
      `getRunTask: organization "emulator-org" holds 2 run tasks named "scanner" (${one.id}, ${two.id}): give the one meant by id`,
    );
  });
});
