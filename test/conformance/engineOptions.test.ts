import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { createConsumerProject, dynamicProviderPlugin, Engine, type ConsumerProject, type ProgramSpec, type Step } from "../../engine";
import { Switchboard } from "../support/switchboard";

/**
 * Resource options through the dynamic provider plugin (@pulumi/pulumi's cmd/dynamic-provider), as the engine sends
 * them (engine/engine.ts). That plugin hands a dynamic provider neither `DiffRequest.ignoreChanges` nor the
 * requests' `timeout`: `ignoreChanges` reaches it only as the news the engine computed, and `customTimeouts` not
 * at all, so that `operationTimeout` bounds its operations. What follows shows both.
 */
let fixture: ConsumerProject;
let emulator: Emulator;
const calls = new Switchboard();

beforeAll(async () => {
  fixture = createConsumerProject({ project: "engine-options-dynamic", stack: "options" });
  emulator = await startEmulator({
    runTask: {
      organizations: [
        { name: "acme", workspaces: [{ name: "app" }] },
        { name: "beta", workspaces: [{ name: "web" }] },
      ],
    },
    interceptors: [calls.interceptor],
  });
});

afterEach(() => {
  calls.reset();
});

afterAll(async () => {
  await emulator?.close();
  fixture?.remove();
});

const engineWith = (extra: Record<string, string> = {}, stateName = "state.json") =>
  new Engine({
    plugin: dynamicProviderPlugin(fixture.dir),
    stateFile: join(fixture.dir, stateName),
    config: { "runtask:address": emulator.url, "runtask:token": "emulator-runtask-token", "runtask:organization": "acme", ...extra },
  });
const program = (spec: ProgramSpec) => fixture.capture({ snapshots: [], runTasks: [], attachments: [], ...spec });
const ops = (steps: Step[]) => Object.fromEntries(steps.map((s) => [s.name, s.op]));

test("ignoreChanges: a change of the program to an ignored argument is no change, and up writes nothing", async () => {
  const engine = engineWith({}, "ignore.json");
  await engine.up(program({ runTasks: [{ resource: "scanner", args: { url: "https://hooks.example.com/scan", enabled: true } }] }));
  const ignoring = program({
    runTasks: [{ resource: "scanner", args: { url: "https://hooks.example.com/scan", enabled: false }, options: { ignoreChanges: ["enabled"] } }],
  });
  expect(ignoring[0].ignoreChanges).toEqual(["enabled"]);
  expect(ops(await engine.preview(ignoring))).toEqual({ scanner: "same" });
  emulator.requests.reset();
  expect(ops(await engine.up(ignoring))).toEqual({ scanner: "same" });
  expect(emulator.requests.writes()).toBe(0);
  expect(emulator.runTask.tasks().find((t) => t.name === "scanner")?.enabled).toBe(true);
  await engine.destroy();
});

test("customTimeouts do not reach a dynamic provider: a create against a server that does not answer ends at operationTimeout", async () => {
  calls.answers = [calls.hang("POST /api/v2/organizations/:org/tasks")];
  const engine = engineWith({ "runtask:operationTimeout": "3s" }, "timeouts.json");
  const slow = program({
    runTasks: [{ resource: "slow", args: { url: "https://hooks.example.com/slow" }, options: { customTimeouts: { create: "1s" } } }],
  });
  expect(slow[0].customTimeouts).toEqual({ create: "1s" });
  const started = Date.now();
  const err = await engine.up(slow).catch((e: Error) => e);
  const elapsed = Date.now() - started;
  expect((err as Error).message).toMatch(/time bound of 3s/);
  expect((err as Error).message).not.toContain("customTimeouts");
  expect(elapsed).toBeGreaterThan(2_900);
});

test("two organizations with the dynamic resources: one token that sees both, each RunTask naming its organization", async () => {
  const engine = engineWith({}, "organizations.json");
  const spec = {
    runTasks: [
      { resource: "acme-scanner", args: { name: "scanner", url: "https://hooks.example.com/scan", organization: "acme" } },
      { resource: "beta-scanner", args: { name: "scanner", url: "https://hooks.example.com/scan", organization: "beta" } },
    ],
  };
  await engine.up(program(spec));
  expect(
    emulator.runTask
      .tasks()
      .map((t) => `${t.organization}/${t.name}`)
      .sort(),
  ).toEqual(["acme/scanner", "beta/scanner"]);
  expect(ops(await engine.up(program(spec)))).toEqual({ "acme-scanner": "same", "beta-scanner": "same" });
  await engine.destroy();
  expect(emulator.runTask.tasks()).toEqual([]);
});
