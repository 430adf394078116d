import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { engineSuite, scenarioEmulator } from "../support/engine/engineSuite";
import { EngineStack, type EngineRun, type ResourceSpec } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { nameOf, packageResources, typeOf } from "../support/engine/stateFile";
import { Switchboard } from "../support/switchboard";

/**
 * Sequences where two resources of a stack meet one object, or one resource meets itself under two names, through
 * the Pulumi engine (pulumi/pulumi `step_generator.go`: a move without `aliases` creates at the new name, then
 * deletes the old; a delete-first replacement of a resource renamed with `aliases` sends Delete with the old state's
 * URN and Create with the new; a resource with init errors is replaced under `replaceOnChanges: ["*"]`); and two
 * stacks that give the same names. After each step the service holds exactly the objects the states name, once
 * each, and a destroy leaves it empty.
 */
jest.setTimeout(300_000);

const calls = new Switchboard();
const suite = engineSuite({ calls, forgetBetweenTests: true, emulator: scenarioEmulator(["app"]) });
const stackOf = (projectName: string) => suite.stack("inline", projectName);
const ops = (run: EngineRun) => Object.fromEntries(run.steps.filter((s) => !/^pulumi:/.test(typeOf(s.urn))).map((s) => [nameOf(s.urn), s.op]));
const hourly = { interval: 3600, storageType: "local", pathPrefix: "/var/snapshots", localMaxSpace: 1_000_000 };

async function expectDestroyLeavesNothing(stack: EngineStack): Promise<void> {
  const destroyed = await stack.destroy();
  expect(destroyed.error).toBeUndefined();
  expect([suite.emulator.snapshot.configs.size, suite.emulator.runTask.tasks().length, suite.emulator.runTask.workspaceTasks().length]).toEqual([
    0, 0, 0,
  ]);
  stack.remove();
}

test("a move without aliases to an explicit provider, adopting the object, keeps it: the old resource's delete in the other provider's process leaves it", async () => {
  const stack = stackOf("adopt-move");
  stack.program({ resources: [{ type: "snapshot:index:SnapshotAutoConfig", name: "nightly", args: hourly }] });
  expect((await stack.up()).ok).toBe(true);

  stack.program({
    resources: [
      { type: "pulumi:providers:snapshot", name: "backups", args: { address: suite.emulator.url, token: DEFAULT_SNAPSHOT_TOKEN } },
      {
        type: "snapshot:index:SnapshotAutoConfig",
        name: "backups-nightly",
        args: { ...hourly, name: "nightly", adopt: true },
        options: { provider: "backups" },
      },
    ],
  });
  const moved = await stack.up();
  expect(moved.error).toBeUndefined();
  expect(ops(moved)).toEqual({ "backups-nightly": "create", nightly: "delete" });
  // The delete ran in the default provider's process, the adopt in the explicit one's.
  expect(moved.output).toMatch(/snapshot configuration nightly is not deleted: another resource of this stack holds it/);
  expect(suite.emulator.snapshot.configs.has("nightly")).toBe(true);
  expectServiceMatchesState(suite.emulator, stack);

  suite.emulator.requests.reset();
  expect((await stack.up()).changes).toEqual({ same: 3 });
  expect(suite.emulator.requests.writes()).toBe(0);
  await expectDestroyLeavesNothing(stack);
});

test("a rename with aliases in the same up as a delete-first replacement: the old object is deleted and the new one made, once", async () => {
  const stack = stackOf("rename-replace");
  stack.program({ resources: [{ type: "runtask:index:RunTask", name: "scanner", args: { url: "https://hooks.example.com/a" } }] });
  expect((await stack.up()).ok).toBe(true);
  const [before] = suite.emulator.runTask.tasks();

  stack.program({
    resources: [
      {
        type: "runtask:index:RunTask",
        name: "policy-scanner",
        args: { name: "scanner", url: "https://hooks.example.com/b" },
        options: { aliases: [{ name: "scanner" }], replaceOnChanges: ["url"], deleteBeforeReplace: true },
      },
    ],
  });
  const replaced = await stack.up();
  expect(replaced.error).toBeUndefined();
  expect(replaced.changes).toEqual({ replace: 1, same: 1 });
  // The engine's Delete named the old URN, its Diff and Create the new one: the create carried the delete out.
  expect(replaced.output).toMatch(/is this resource's own: deleted now, and made anew/);
  const after = suite.emulator.runTask.tasks();
  expect(after.map((t) => [t.name, t.url])).toEqual([["scanner", "https://hooks.example.com/b"]]);
  expect(after[0].id).not.toBe(before.id);
  expectServiceMatchesState(suite.emulator, stack);

  expect((await stack.up()).changes).toEqual({ same: 2 });
  await expectDestroyLeavesNothing(stack);
});

test("a dynamic resource with init errors replaced under replaceOnChanges: ['*'] is made once, and destroyed", async () => {
  const stack = stackOf("init-errors");
  // Every answer to a create is lost: the provider finds the configuration and records it with init errors.
  calls.answers.push((req) => (req.method === "POST" ? "dropAfter" : undefined));
  stack.program({ resources: [{ type: "SnapshotAutoConfig", name: "nightly", args: hourly, options: { replaceOnChanges: ["*"] } }] });
  const lost = await stack.up();
  expect(lost.ok).toBe(false);
  expect(stack.state().resources.find((r) => nameOf(r.urn) === "nightly")?.initErrors?.length).toBe(1);
  expectServiceMatchesState(suite.emulator, stack);
  calls.reset();

  const replaced = await stack.up();
  expect(replaced.error).toBeUndefined();
  expect(replaced.changes).toEqual({ replace: 1, same: 1 });
  expect([...suite.emulator.snapshot.configs.keys()]).toEqual(["nightly"]);
  expect(stack.state().resources.find((r) => nameOf(r.urn) === "nightly")?.initErrors).toBeUndefined();
  expectServiceMatchesState(suite.emulator, stack);
  await expectDestroyLeavesNothing(stack);
});

test("two stacks, one name: the second stack's creates are refused naming the stack that holds each object, and nothing else, and names of its own from the stack's name keep both", async () => {
  const dev = suite.stack("inline", "two-stacks", { stack: "dev" });
  const prod = suite.stack("inline", "two-stacks", { stack: "prod", backendOf: dev });
  const app = suite.emulator.runTask.workspace("app").id;
  const program = (suffix: string, extra: ResourceSpec[] = []) => ({
    resources: [
      { type: "SnapshotAutoConfig", name: "nightly", args: { ...hourly, ...(suffix ? { name: `nightly-${suffix}` } : {}) } },
      { type: "RunTask", name: "scanner", args: { url: "https://hooks.example.com/scan", ...(suffix ? { name: `scanner-${suffix}` } : {}) } },
      { type: "WorkspaceRunTask", name: "on-app", args: { workspaceId: app, taskId: { $ref: "scanner" }, enforcementLevel: "advisory" } },
      ...extra,
    ],
  });
  expect((await dev.program(program("")).up()).error).toBeUndefined();
  const [devTask] = suite.emulator.runTask.tasks();

  // The same names in a second stack (and an association of the first stack's task to the same workspace).
  const devTaskOnApp: ResourceSpec = {
    type: "WorkspaceRunTask",
    name: "dev-scanner-on-app",
    args: { workspaceId: app, taskId: devTask.id, enforcementLevel: "advisory" },
  };
  suite.emulator.requests.reset();
  const refused = await prod.program(program("", [devTaskOnApp])).up();
  expect(refused.ok).toBe(false);
  const errors = Object.fromEntries(refused.diagnostics.filter((d) => d.severity === "error" && d.urn).map((d) => [nameOf(d.urn!), d.message]));
  // Each names the stack that holds its object (read from the backend's states), and nothing else: no recovery, no
  // adopt, which would make both stacks manage it.
  const heldBy = (urn: string) => `It is managed by stack "dev" (${urn}) of this backend. `;
  const devUrn = (type: string, name: string) => `urn:pulumi:dev::two-stacks::pulumi-nodejs:dynamic/${type}::${name}`;
  expect(errors.nightly).toContain(
    `snapshot configuration "nightly" already exists (nightly); a create never overwrites it. ${heldBy(devUrn("snapshot:SnapshotAutoConfig", "nightly"))}` +
      "Give each stack its own `name`, e.g. from the stack's name (`nightly-${pulumi.getStack()}` in TypeScript",
  );
  expect(errors.scanner).toContain(heldBy(devUrn("runtask:RunTask", "scanner")));
  expect(errors.scanner).toContain("`scanner-${pulumi.getStack()}`");
  expect(errors["dev-scanner-on-app"]).toContain(`the association of run task ${devTask.id} with workspace ${app} already exists`);
  expect(errors["dev-scanner-on-app"]).toContain(
    `${heldBy(devUrn("runtask:WorkspaceRunTask", "on-app"))}Attach the task to the workspace from one stack only`,
  );
  for (const message of Object.values(errors)) {
    expect(message).not.toMatch(/Record it|recovery|Renamed or moved|Replaced with/);
    expect(message).toContain("adopting it would make both manage it, and either one's destroy delete it");
  }
  // Nothing changed at the service (the creates it refused aside), nothing recorded in the second stack.
  expect(suite.emulator.requests.entries.filter((e) => e.method !== "GET" && e.method !== "LIST" && e.status < 300)).toEqual([]);
  expect([suite.emulator.snapshot.configs.size, suite.emulator.runTask.tasks().length, suite.emulator.runTask.workspaceTasks().length]).toEqual([
    1, 1, 1,
  ]);
  expect(packageResources(prod.state())).toEqual([]);

  // As the message says: names of its own, from the stack's name.
  const own = await prod.program(program("prod")).up();
  expect(own.error).toBeUndefined();
  expect(own.changes).toMatchObject({ create: 3 });
  expect(
    suite.emulator.runTask
      .tasks()
      .map((t) => t.name)
      .sort(),
  ).toEqual(["scanner", "scanner-prod"]);
  expectServiceMatchesState(suite.emulator, dev, prod);
  expect((await dev.destroy()).error).toBeUndefined();
  expect([...suite.emulator.snapshot.configs.keys()]).toEqual(["nightly-prod"]);
  expectServiceMatchesState(suite.emulator, dev, prod);
  await expectDestroyLeavesNothing(prod);
  dev.remove();
});
