import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { DEFAULT_ORGANIZATION, DEFAULT_RUNTASK_TOKEN } from "../../emulator/runtask/service";
import {
  createConsumerProject,
  dynamicProviderPlugin,
  Engine,
  plainConfig,
  type ConsumerProject,
  type StackConfig,
  type StepEvent,
} from "../../engine";

/**
 * The engine driver's handling of a program of its own directory: the program runs under mocks with its stack
 * config, gets the ids and outputs of the resources in the driver's state (so its stack outputs are real), and
 * `retainOnDelete` leaves an object in place when the stack is destroyed. Progress is reported per resource.
 */

const HMAC = "canary-program-run-hmac-5e02";
const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const { RunTask, WorkspaceRunTask } = require("pulumi-snapshot-runtask");
const config = new pulumi.Config();
const task = new RunTask("kept", { url: "https://hooks.example.com/kept", hmacKey: config.requireSecret("hmacKey") }, { retainOnDelete: true });
const attachment = new WorkspaceRunTask("kept-on-app", { workspaceId: config.require("workspaceId"), taskId: task.id, enforcementLevel: "advisory" });
exports.taskId = task.id;
exports.hmacKey = task.hmacKey;
exports.attachment = { id: attachment.id, stages: attachment.stages };
`;

let project: ConsumerProject;
let emulator: Emulator;
let engine: Engine;
let config: StackConfig;
const programDir = "programs/kept";
const events: StepEvent[] = [];

beforeAll(async () => {
  project = createConsumerProject();
  mkdirSync(join(project.dir, programDir), { recursive: true });
  writeFileSync(join(project.dir, programDir, "Pulumi.yaml"), "name: kept-task\nruntime: nodejs\n");
  writeFileSync(join(project.dir, programDir, "index.js"), PROGRAM);
  emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  config = {
    "runtask:address": { value: emulator.url },
    "runtask:token": { value: DEFAULT_RUNTASK_TOKEN, secret: true },
    "runtask:organization": { value: DEFAULT_ORGANIZATION },
    "kept-task:hmacKey": { value: HMAC, secret: true },
    "kept-task:workspaceId": { value: emulator.runTask.workspace("app-production").id },
  };
  engine = new Engine({
    plugin: dynamicProviderPlugin(join(project.dir, programDir)),
    stateFile: join(project.dir, "kept-state.json"),
    config: plainConfig(config),
    onEvent: (e) => events.push(e),
  });
});

afterAll(async () => {
  await emulator?.close();
  project?.remove();
});

const run = (preview: boolean) => project.run({ programDir, preview, config, stateFile: join(project.dir, "kept-state.json") });

test("the program's URNs name its project and the stack; its options and secret config reach the registrations", async () => {
  const { registrations } = await run(true);
  const [task, attachment] = registrations;
  expect(task.urn).toBe(`urn:pulumi:${project.stack}::kept-task::pulumi-nodejs:dynamic/runtask:RunTask::kept`);
  expect(task.retainOnDelete).toBe(true);
  expect(attachment.retainOnDelete).toBeUndefined();
  expect(attachment.dependencies).toEqual([task.urn]);
  expect(attachment.inputs.taskId).toBe("@id:kept");
  expect(task.inputs.hmacKey).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: HMAC });
});

test("up reports each operation as it starts and ends; the program then sees the real ids and outputs", async () => {
  const { registrations } = await run(true);
  await engine.up(registrations);
  const state = engine.state();
  const taskId = state.get("kept")!.id;
  const attachmentId = state.get("kept-on-app")!.id;
  expect(events.map((e) => [e.phase, e.op, e.name, e.id])).toEqual([
    ["started", "create", "kept", undefined],
    ["done", "create", "kept", taskId],
    ["started", "create", "kept-on-app", undefined],
    ["done", "create", "kept-on-app", attachmentId],
  ]);

  const after = await run(false);
  expect(after.outputs).toEqual({
    taskId: { value: taskId, secret: false },
    hmacKey: { value: HMAC, secret: true },
    attachment: { value: { id: attachmentId, stages: ["post_plan"] }, secret: false },
  });
  expect(after.registrations[1].inputs.taskId).toBe(taskId);

  emulator.requests.reset();
  const steps = await engine.up(after.registrations);
  expect(steps.map((s) => s.op)).toEqual(["same", "same"]);
  expect(emulator.requests.writes()).toBe(0);
});

test("destroy deletes the association and leaves the retained task in place, out of the stack", async () => {
  const taskId = engine.state().get("kept")!.id;
  events.length = 0;
  const steps = await engine.destroy();
  expect(steps).toEqual([
    { op: "delete", name: "kept-on-app" },
    { op: "delete", name: "kept", retained: true },
  ]);
  expect(events.filter((e) => e.phase === "done").map((e) => [e.name, e.retained])).toEqual([
    ["kept-on-app", undefined],
    ["kept", true],
  ]);
  expect(engine.state().resources).toEqual([]);
  expect(emulator.runTask.store.workspaceTasks.size).toBe(0);
  expect(emulator.runTask.store.tasks.get(taskId)?.name).toBe("kept");
});
