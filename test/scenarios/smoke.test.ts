import { startEmulator, type Emulator } from "../../emulator";
import type { ConsumerProject } from "../../demo/consumerProject";
import { EngineStack, engineProject } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { emulatorStackConfig, RUNTASK_TOKEN } from "../support/emulatorStack";

jest.setTimeout(300_000);
let emulator: Emulator;
let project: ConsumerProject;
beforeAll(async () => {
  project = engineProject();
  emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    runTask: { tokens: { [RUNTASK_TOKEN]: { owner: true } }, organizations: [{ name: "acme", workspaces: [{ name: "app" }] }] },
  });
});
afterAll(async () => {
  await emulator?.close();
  project?.remove();
});

test("dynamic", async () => {
  const stack = EngineStack.inline({
    project,
    projectName: "smoke",
    config: emulatorStackConfig(emulator),
    secretKeys: ["runtask:token", "snapshot:token"],
  });
  stack.program({
    resources: [
      { type: "RunTask", name: "scanner", args: { url: "https://hooks.example.com/a", hmacKey: "k" }, secretArgs: ["hmacKey"] },
      {
        type: "WorkspaceRunTask",
        name: "on-app",
        args: { workspaceId: emulator.runTask.workspace("app").id, taskId: { $ref: "scanner" }, enforcementLevel: "advisory" },
      },
      { type: "SnapshotAutoConfig", name: "nightly", args: { interval: "24h", storageType: "local", pathPrefix: "/tmp/x", localMaxSpace: 1000 } },
    ],
  });
  const up = await stack.up();
  expect(up.ok).toBe(true);
  expectServiceMatchesState(emulator, stack);
  emulator.requests.reset();
  const again = await stack.up();
  expect(again.changes).toEqual({ same: 4 });
  expect(emulator.requests.writes()).toBe(0);
  const d = await stack.destroy();
  expect(d.ok).toBe(true);
  expectServiceMatchesState(emulator, stack);
  stack.remove();
});

test("yaml", async () => {
  const stack = EngineStack.yaml({
    project,
    projectName: "smokey",
    config: emulatorStackConfig(emulator),
    secretKeys: ["runtask:token", "snapshot:token"],
  });
  stack.yamlProgram(`resources:
  scanner:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/a
  on-app:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${emulator.runTask.workspace("app").id}
      taskId: \${scanner.id}
      enforcementLevel: advisory
`);
  const up = await stack.up();
  expect(up.ok).toBe(true);
  expectServiceMatchesState(emulator, stack);
  const d = await stack.destroy();
  expect(d.ok).toBe(true);
  expectServiceMatchesState(emulator, stack);
  stack.remove();
});
