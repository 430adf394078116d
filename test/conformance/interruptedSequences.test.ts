import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import {
  createConsumerProject,
  dynamicProviderPlugin,
  Engine,
  NativeEngine,
  type ConsumerProject,
  type NativeResource,
  type ProgramSpec,
} from "../../engine";
import { emulatorStackConfig, nativeResources, RUNTASK_TOKEN } from "../support/emulatorStack";
import { Switchboard } from "../support/switchboard";

/**
 * Engine sequences that stop midway, through the dynamic provider and the provider plugins, driven as the engine
 * drives them:
 * - a delete-before-replace stopped between its delete and its create (the service refuses the create): the engine
 *   keeps the deleted resource in the state, pending replacement (pulumi/pulumi `pkg/resource/deploy/step.go`,
 *   `DeleteStep.Apply`), so the state never claims as live an object that is gone, and the next `up` creates it
 *   without deleting anything; a program that drops it removes it from the state without a request
 *   (`RemovePendingReplaceStep`);
 * - a move to a new name with `adopt` whose deployment fails before the old resource's delete: the delete comes in
 *   the next deployment, in a new plugin process, and must leave the object the moved resource holds.
 */
jest.setTimeout(240_000);

const calls = new Switchboard();
let emulator: Emulator;
let project: ConsumerProject;

beforeAll(async () => {
  project = createConsumerProject({ project: "interrupted-replacement", stack: "dev" });
  emulator = await startEmulator({
    interceptors: [calls.interceptor],
    snapshot: { takeSnapshots: false },
    runTask: { tokens: { [RUNTASK_TOKEN]: { owner: true } }, organizations: [{ name: "acme", workspaces: [{ name: "app" }, { name: "web" }] }] },
  });
});

afterEach(() => calls.reset());

afterAll(async () => {
  calls.reset();
  await emulator?.close();
  project?.remove();
});

const config = () => emulatorStackConfig(emulator);
/** The service refuses every create of `what` (a 400 or 422 is final: no retry makes it succeed). */
const refuseCreates = (what: "snapshot" | "task" | "association") =>
  calls.answers.push((req) => {
    const snapshot = req.method === "POST" && req.path.includes("/snapshot-auto/config/");
    const task = req.method === "POST" && /\/organizations\/[^/]+\/tasks$/.test(req.path);
    const association = req.method === "POST" && /\/workspaces\/[^/]+\/tasks$/.test(req.path);
    if (what === "snapshot" && snapshot) return { status: 400, body: { errors: ["refused for the test"] } };
    if ((what === "task" && task) || (what === "association" && association))
      return { status: 422, body: { errors: [{ status: "422", title: "refused for the test" }] } };
    return undefined;
  });
const deletes = () => emulator.requests.entries.filter((e) => e.method === "DELETE").length;
const ops = (steps: { name: string; op: string }[]) => Object.fromEntries(steps.map((s) => [s.name, s.op]));
const ws = (name: string) => emulator.runTask.workspace(name).id;
const tasksNamed = (name: string) => emulator.runTask.tasks().filter((t) => t.name === name);
const { urn, resource } = nativeResources("interrupted-replacement");

describe("dynamic provider: `--replace` of a configuration with deleteBeforeReplace, its create refused", () => {
  const offsite = { name: "offsite", interval: 3600, pathPrefix: "backups", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };
  const spec = (resources: ProgramSpec["snapshots"]): ProgramSpec => ({ snapshots: resources, runTasks: [], attachments: [] });
  const withOffsite = spec([{ resource: "offsite", args: offsite, options: { deleteBeforeReplace: true } }]);
  let n = 0;
  const newEngine = () =>
    new Engine({ plugin: dynamicProviderPlugin(project.dir), stateFile: join(project.dir, `state-${++n}.json`), config: config() });

  async function interrupted(engine: Engine): Promise<void> {
    await engine.up(project.capture(withOffsite));
    refuseCreates("snapshot");
    await expect(engine.up(project.capture(withOffsite), { replace: ["offsite"] })).rejects.toThrow(/refused for the test/);
    calls.reset();
    // Deleted, and not made again: the state keeps it as pending replacement, never as a live object.
    expect(emulator.snapshot.configs.has("offsite")).toBe(false);
    expect(engine.state().get("offsite")).toMatchObject({ id: "offsite", pendingReplacement: true });
  }

  test("the next up creates it, deleting nothing; then it is an object like any other", async () => {
    const engine = newEngine();
    await interrupted(engine);
    expect(ops(await engine.preview(project.capture(withOffsite)))).toEqual({ offsite: "replace" });
    emulator.requests.reset();
    expect(ops(await engine.up(project.capture(withOffsite)))).toEqual({ offsite: "replace" });
    expect(deletes()).toBe(0);
    expect(emulator.snapshot.configs.has("offsite")).toBe(true);
    expect(engine.state().get("offsite")?.pendingReplacement).toBeUndefined();
    expect(ops(await engine.up(project.capture(withOffsite)))).toEqual({ offsite: "same" });
    await engine.destroy();
    expect(emulator.snapshot.configs.size).toBe(0);
  });

  test("a program that drops it removes it from the state without a request", async () => {
    const engine = newEngine();
    await interrupted(engine);
    emulator.requests.reset();
    await engine.up(project.capture(spec([])));
    expect(emulator.requests.entries).toEqual([]);
    expect(engine.state().resources).toEqual([]);
  });

  test("destroy removes it from the state without a request", async () => {
    const engine = newEngine();
    await interrupted(engine);
    emulator.requests.reset();
    await engine.destroy();
    expect(emulator.requests.entries).toEqual([]);
    expect(engine.state().resources).toEqual([]);
  });
});

describe("provider plugins: replaceOnChanges of a task with two associations, the task's create refused", () => {
  const program = (url: string): NativeResource[] => [
    resource("runtask:index:RunTask", "scanner", { name: "scanner", url }, { replaceOnChanges: ["url"] }),
    resource("runtask:index:WorkspaceRunTask", "on-app", { workspaceId: ws("app"), taskId: "@id:scanner", enforcementLevel: "mandatory" }),
    resource("runtask:index:WorkspaceRunTask", "on-web", { workspaceId: ws("web"), taskId: "@id:scanner", enforcementLevel: "advisory" }),
  ];
  const held = (engine: NativeEngine, name: string, token = name === "scanner" ? "runtask:index:RunTask" : "runtask:index:WorkspaceRunTask") =>
    engine.held(urn(token, name));

  test("the task and its associations are kept pending replacement; the next up makes them again, deleting nothing live", async () => {
    const engine = new NativeEngine({ programDir: project.dir, config: config() });
    await engine.up(program("https://hooks.example.com/a"));
    refuseCreates("task");
    await expect(engine.up(program("https://hooks.example.com/b"))).rejects.toThrow(/refused for the test/);
    calls.reset();
    expect([tasksNamed("scanner"), emulator.runTask.workspaceTasks()]).toEqual([[], []]);
    for (const name of ["scanner", "on-app", "on-web"]) expect(held(engine, name)).toMatchObject({ pendingReplacement: true });

    emulator.requests.reset();
    expect(ops(await engine.up(program("https://hooks.example.com/b")))).toMatchObject({ scanner: "replace" });
    // The task is created without a delete. The associations' replacements are made first (their task changed),
    // and the engine then deletes the old ones as it deletes any replaced object (step.go, `DeleteStep.Apply`):
    // the service answers that they are gone, and nothing live is deleted.
    const deleted = emulator.requests.entries.filter((e) => e.method === "DELETE");
    expect(deleted.map((e) => [e.route, e.status])).toEqual([
      ["/api/v2/workspaces/:ws/tasks/:id", 404],
      ["/api/v2/workspaces/:ws/tasks/:id", 404],
    ]);
    const [task] = tasksNamed("scanner");
    expect(task.url).toBe("https://hooks.example.com/b");
    expect(held(engine, "scanner")).toMatchObject({ id: task.id });
    expect(held(engine, "scanner")).not.toHaveProperty("pendingReplacement");
    const associations = emulator.runTask.workspaceTasks();
    expect(associations.map((a) => a.taskId)).toEqual([task.id, task.id]);
    for (const name of ["on-app", "on-web"]) expect(held(engine, name)).not.toHaveProperty("pendingReplacement");
    expect(Object.values(ops(await engine.up(program("https://hooks.example.com/b"))))).toEqual(["same", "same", "same"]);
    await engine.destroy();
    expect([emulator.runTask.tasks(), emulator.runTask.workspaceTasks()]).toEqual([[], []]);
  });
});

describe("a move with adopt whose deployment stops before the old resource's delete", () => {
  const url = "https://hooks.example.com/scan";

  test("dynamic provider: the next up's delete of the old resource leaves the object the moved resource holds", async () => {
    const engine = new Engine({ plugin: dynamicProviderPlugin(project.dir), stateFile: join(project.dir, "state-move.json"), config: config() });
    await engine.up(project.capture({ runTasks: [{ resource: "scanner", args: { name: "scanner", url } }] }));
    const [task] = tasksNamed("scanner");
    // The moved task, and an association of it that the service refuses: made after the task, it fails the deployment.
    const moved: ProgramSpec = {
      runTasks: [{ resource: "scanner-moved", args: { name: "scanner", url, adopt: true } }],
      attachments: [{ resource: "other", task: "scanner-moved", args: { workspaceId: ws("app"), enforcementLevel: "advisory" } }],
    };
    refuseCreates("association");
    await expect(engine.up(project.capture(moved))).rejects.toThrow(/refused for the test/);
    calls.reset();
    // The moved resource took the task over; the old one's delete never came.
    expect(["scanner", "scanner-moved"].map((r) => engine.state().get(r)?.id)).toEqual([task.id, task.id]);

    expect(ops(await engine.up(project.capture(moved)))).toMatchObject({ "scanner-moved": "same", other: "create" });
    expect(tasksNamed("scanner").map((t) => t.id)).toEqual([task.id]);
    expect(engine.state().get("scanner")).toBeUndefined();
    expect(engine.state().get("scanner-moved")?.id).toBe(task.id);
    expect(engine.pluginOutput).toMatch(new RegExp(`run task ${task.id} is left in place: another resource of this stack holds it`));
    await engine.destroy();
    expect(emulator.runTask.tasks()).toEqual([]);
  });

  test("provider plugins: the same", async () => {
    const task = (name: string, inputs: Record<string, unknown>) => resource("runtask:index:RunTask", name, inputs);
    const taskUrn = (name: string) => urn("runtask:index:RunTask", name);
    const engine = new NativeEngine({ programDir: project.dir, config: config() });
    await engine.up([task("scanner", { name: "scanner", url })]);
    const [made] = tasksNamed("scanner");
    const moved: NativeResource[] = [
      task("scanner-moved", { name: "scanner", url, adopt: true }),
      resource("runtask:index:WorkspaceRunTask", "other", { workspaceId: ws("app"), taskId: "@id:scanner-moved", enforcementLevel: "advisory" }),
    ];
    refuseCreates("association");
    await expect(engine.up(moved)).rejects.toThrow(/refused for the test/);
    calls.reset();
    expect([engine.held(taskUrn("scanner"))?.id, engine.held(taskUrn("scanner-moved"))?.id]).toEqual([made.id, made.id]);

    expect(ops(await engine.up(moved))).toMatchObject({ "scanner-moved": "same", other: "create", scanner: "delete" });
    expect(tasksNamed("scanner").map((t) => t.id)).toEqual([made.id]);
    expect(engine.held(taskUrn("scanner"))).toBeUndefined();
    expect(engine.pluginOutput).toMatch(new RegExp(`run task ${made.id} is left in place: another resource of this stack holds it`));
    await engine.destroy();
    expect(emulator.runTask.tasks()).toEqual([]);
  });
});
