import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { engineSuite } from "../support/engine/engineSuite";
import { readFileSync } from "node:fs";
import { EngineStack, killProcesses, opsByName, processAlive, type ProgramSpec } from "../support/engine/engineStack";
import { expectServiceMatchesState, ledger } from "../support/engine/serviceLedger";
import { nameOf } from "../support/engine/stateFile";
import { Switchboard } from "../support/switchboard";

/**
 * Engine sequences that stop midway, through the Pulumi engine:
 * - the CLI killed (SIGKILL, as a CI runner's timeout kills it) while a create's request is at the service, which
 *   carries it out: the object is made, and the state holds a pending create, no resource, and the stack's lock; the
 *   plugin processes it had started end by themselves; then the way back, as the CLI and the provider tell it:
 *   `pulumi cancel`, an up refused "already exists" that prints the commands that record the object (its URN, its
 *   id), run as printed, with no program change;
 * - the CLI killed while an update's request is at the service: the next up writes it again, nothing duplicated;
 * - a delete-first replacement whose create the service refuses: the engine keeps the deleted resource in the state,
 *   pending replacement (pulumi/pulumi `step.go`, `DeleteStep.Apply`), so the state claims no object that is gone;
 *   the next up creates it without a delete, and a program or destroy that drops it removes it without a request;
 * - a move with adopt across provider processes whose deployment fails before the old resource's delete: the next
 *   up's delete, in a new process of the old provider, leaves the object the moved resource holds.
 */
jest.setTimeout(600_000);

const calls = new Switchboard();
const suite = engineSuite({ calls, forgetBetweenTests: true });
const stackOf = (projectName: string, runtime: "inline" | "yaml" = "inline") => suite.stack(runtime, projectName);
const ws = (name: string) => suite.emulator.runTask.workspace(name).id;
const tasksNamed = (name: string) => suite.emulator.runTask.tasks().filter((t) => t.name === name);

/**
 * Holds the first request `matches` picks until `release`; `arrived` resolves when it reaches the service. Released,
 * the service carries it out (the engine that sent it may be gone by then).
 */
function holdFirst(matches: (method: string, route: string) => boolean): { arrived: Promise<void>; release: () => void } {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<undefined>((resolve) => (release = () => resolve(undefined)));
  let held = false;
  calls.answers.push((req, route) => {
    if (held || !matches(req.method, route)) return undefined;
    held = true;
    arrive();
    return released;
  });
  return { arrived, release };
}

/** Kills the CLI of `up` once `request` reached the service; the service then carries the request out. */
async function killedDuring(stack: EngineStack, request: (method: string, route: string) => boolean): Promise<void> {
  const hold = holdFirst(request);
  const running = stack.start("up");
  await hold.arrived;
  await running.killCli();
  hold.release();
  // The plugins, orphaned, are killed with their group; the service has done its part by then.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const run = await running.done;
  expect(run.ok).toBe(false);
  calls.reset();
}

/**
 * Kills the CLI of `up` alone (its plugins left running, as after a CI runner's timeout) once `request` reached the
 * service, which then carries it out; answers the plugin processes the CLI had started (the dynamic provider plugin
 * and its shell script, or the provider plugins; not the language host, which is not this package's).
 */
async function killedAloneDuring(
  stack: EngineStack,
  request: (method: string, route: string) => boolean,
): Promise<{ orphans: number[]; plugins: number[] }> {
  const hold = holdFirst(request);
  const running = stack.start("up");
  await hold.arrived;
  const orphans = await running.killCliAlone();
  hold.release();
  expect((await running.done).ok).toBe(false);
  calls.reset();
  return { orphans, plugins: orphans.filter((pid) => /pulumi-resource-|dynamic-provider/.test(commandLineOf(pid))) };
}

/** What the CLI prints under "Diagnostics:" once a command ends: each diagnostic of the command, once. */
function diagnosticsOf(output: string): string {
  return output.slice(output.indexOf("\nDiagnostics:\n"));
}

function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/** Waits up to `ms` for every process to end; answers those still running. */
async function stillRunningAfter(pids: number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (pids.some(processAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(processAlive);
}

describe("the CLI killed in the middle of a create, the service carrying it out", () => {
  test.each(["inline", "yaml"] as const)(
    "%s: the object is made, the state holds a pending create, the plugins end by themselves; cancel; the next up takes the object over with no step of the user's",
    async (runtime) => {
      const stack = stackOf(`killed-create-${runtime}`, runtime);
      if (runtime === "inline") stack.program({ resources: [{ type: "RunTask", name: "scanner", args: { url: "https://hooks.example.com/scan" } }] });
      else stack.yamlProgram(`resources:\n  scanner:\n    type: runtask:index:RunTask\n    properties:\n      url: https://hooks.example.com/scan\n`);
      const { orphans, plugins } = await killedAloneDuring(
        stack,
        (method, route) => method === "POST" && route === "/api/v2/organizations/:org/tasks",
      );
      // The plugin processes, this package's code loaded in them, end within seconds of their engine's death (the
      // YAML language host is not this package's: it is ended here).
      expect(plugins.length).toBeGreaterThan(0);
      try {
        expect(await stillRunningAfter(plugins, 10_000)).toEqual([]);
      } finally {
        killProcesses(orphans);
      }

      // Made, and not recorded: the engine died before the answer. The state names the create as pending.
      const [made] = tasksNamed("scanner");
      expect(tasksNamed("scanner")).toHaveLength(1);
      const [pending] = stack.state().pendingOperations;
      expect([nameOf(pending.resource.urn), pending.type]).toEqual(["scanner", "creating"]);
      expect(ledger(suite.emulator, stack)).toEqual({ stranded: [`RunTask ${made.id}`], lost: [], claimedTwice: [] });

      // The killed CLI left the stack locked; the CLI says to cancel.
      const locked = await stack.up();
      expect(locked.error).toMatch(
        /the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`/,
      );
      expect((await stack.cli(["cancel", "--yes"])).code).toBe(0);

      // The next up takes the object over with no step of the user's, on the proof its state holds: the create of this
      // very resource pending from the killed up, the only task of its name holding what that create sent, held by no
      // other resource or stack. It says so once.
      suite.emulator.requests.reset();
      const recovered = await stack.up();
      expect(recovered.error).toBeUndefined();
      expect(recovered.output).toMatch(/Attempting to deploy or update resources with 1 pending operations from previous deployment/);
      const urn = pending.resource.urn;
      const said = `run task ${made.id}, made by an up of this stack that was stopped while creating ${urn}`;
      // Once among the diagnostics (the CLI also shows each as it comes, with the step's line).
      expect(diagnosticsOf(recovered.output).split(said).length - 1).toBe(1);
      expect(recovered.output).not.toContain("already exists");
      expect(recovered.changes).toEqual({ create: 1, same: 1 });
      // Its create refused (the name is taken), the task is made the program's: one write carried out.
      const writes = suite.emulator.requests.entries.filter((e) => e.method !== "GET");
      expect(writes.map((e) => [e.method, e.status])).toEqual([
        ["POST", 422],
        ["PATCH", 200],
      ]);
      expect(tasksNamed("scanner")).toHaveLength(1);
      // The engine keeps the pending create (pkg/backend/snapshot.go) until a refresh clears it, as the provider says.
      expect(stack.state().pendingOperations).toHaveLength(1);
      expect((await stack.cli(["refresh", "--clear-pending-creates", "--yes", "--skip-preview"])).code).toBe(0);
      expect(stack.state().resources.find((r) => nameOf(r.urn) === "scanner")?.id).toBe(made.id);
      expect(stack.state().pendingOperations).toEqual([]);
      expect(tasksNamed("scanner")).toHaveLength(1);
      expectServiceMatchesState(suite.emulator, stack);

      suite.emulator.requests.reset();
      expect((await stack.up()).changes).toEqual({ same: 2 });
      expect(suite.emulator.requests.writes()).toBe(0);
      expect((await stack.destroy()).error).toBeUndefined();
      expect(suite.emulator.runTask.tasks()).toEqual([]);
      stack.remove();
    },
  );
});

test("the CLI killed in the middle of an update, the service carrying it out: the next up writes it again, nothing duplicated", async () => {
  const stack = stackOf("killed-update", "yaml");
  const program = (level: string) =>
    stack.yamlProgram(`resources:
  scanner:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/scan
  on-app:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${ws("app")}
      taskId: \${scanner.id}
      enforcementLevel: ${level}
`);
  program("advisory");
  expect((await stack.up()).error).toBeUndefined();
  program("mandatory");
  await killedDuring(stack, (method, route) => method === "PATCH" && route === "/api/v2/workspaces/:ws/tasks/:id");
  expect(stack.state().pendingOperations.map((p) => [nameOf(p.resource.urn), p.type])).toEqual([["on-app", "updating"]]);
  // The service has the new level; the state the old one, and the pending update.
  expect(suite.emulator.runTask.workspaceTasks()).toMatchObject([{ enforcementLevel: "mandatory" }]);
  expectServiceMatchesState(suite.emulator, stack);

  expect((await stack.cli(["cancel", "--yes"])).code).toBe(0);
  const again = await stack.up();
  expect(again.error).toBeUndefined();
  expect(opsByName(again)).toMatchObject({ "on-app": "update" });
  expect([suite.emulator.runTask.tasks().length, suite.emulator.runTask.workspaceTasks().length]).toEqual([1, 1]);
  expect(stack.state().resources.find((r) => nameOf(r.urn) === "on-app")?.outputs).toMatchObject({ enforcementLevel: "mandatory" });
  // A refresh clears what the engine keeps of the interrupted update.
  await stack.refresh();
  expect(stack.state().pendingOperations).toEqual([]);
  expect((await stack.up()).changes).toEqual({ same: 3 });
  expectServiceMatchesState(suite.emulator, stack);
  expect((await stack.destroy()).error).toBeUndefined();
  stack.remove();
});

describe("a delete-first replacement whose create the service refuses", () => {
  const refuseCreates = (what: "snapshot" | "task") =>
    calls.answers.push((req, route) => {
      if (what === "snapshot" && req.method === "POST" && route.startsWith("/v1/sys/storage/raft/snapshot-auto/config/"))
        return { status: 400, body: { errors: ["refused for the test"] } };
      if (what === "task" && req.method === "POST" && route === "/api/v2/organizations/:org/tasks")
        return { status: 422, body: { errors: [{ status: "422", title: "refused for the test" }] } };
      return undefined;
    });
  const offsite = { name: "offsite", interval: 3600, pathPrefix: "backups", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };

  test("dynamic: --replace with deleteBeforeReplace: pending replacement; the next up creates it deleting nothing; a program that drops it removes it without a request", async () => {
    const stack = stackOf("pending-replacement");
    const withOffsite: ProgramSpec = {
      resources: [{ type: "SnapshotAutoConfig", name: "offsite", args: offsite, options: { deleteBeforeReplace: true } }],
    };
    expect((await stack.program(withOffsite).up()).error).toBeUndefined();
    const urn = stack.state().resources.find((r) => nameOf(r.urn) === "offsite")!.urn;
    refuseCreates("snapshot");
    const stopped = await stack.up({ replace: [urn] });
    expect(stopped.output).toMatch(/refused for the test/);
    calls.reset();
    // Deleted, and not made again: the state keeps it pending replacement, never as a live object.
    expect(suite.emulator.snapshot.configs.has("offsite")).toBe(false);
    expect(stack.state().resources.find((r) => nameOf(r.urn) === "offsite")).toMatchObject({ id: "offsite", pendingReplacement: true });
    expectServiceMatchesState(suite.emulator, stack);

    suite.emulator.requests.reset();
    const again = await stack.up();
    expect(opsByName(again)).toMatchObject({ offsite: "replace" });
    expect(suite.emulator.requests.entries.filter((e) => e.method === "DELETE")).toEqual([]);
    expect(suite.emulator.snapshot.configs.has("offsite")).toBe(true);
    expect(stack.state().resources.find((r) => nameOf(r.urn) === "offsite")?.pendingReplacement).toBeUndefined();
    expectServiceMatchesState(suite.emulator, stack);

    // Stopped again in the same place, then dropped from the program: it leaves the state, with no request.
    refuseCreates("snapshot");
    await stack.up({ replace: [urn] });
    calls.reset();
    suite.emulator.requests.reset();
    expect((await stack.program({ resources: [] }).up()).error).toBeUndefined();
    expect(suite.emulator.requests.entries).toEqual([]);
    expect(stack.state().resources.filter((r) => nameOf(r.urn) === "offsite")).toEqual([]);
    expect((await stack.destroy()).error).toBeUndefined();
    stack.remove();
  });

  test("plugins: replaceOnChanges of a task with two associations: kept pending replacement; the next up makes them again, deleting nothing live; destroy removes the rest", async () => {
    const stack = stackOf("pending-replacement-plugins");
    const program = (url: string): ProgramSpec => ({
      resources: [
        { type: "runtask:index:RunTask", name: "scanner", args: { name: "scanner", url }, options: { replaceOnChanges: ["url"] } },
        {
          type: "runtask:index:WorkspaceRunTask",
          name: "on-app",
          args: { workspaceId: ws("app"), taskId: { $ref: "scanner" }, enforcementLevel: "mandatory" },
        },
        {
          type: "runtask:index:WorkspaceRunTask",
          name: "on-web",
          args: { workspaceId: ws("web"), taskId: { $ref: "scanner" }, enforcementLevel: "advisory" },
        },
      ],
    });
    expect((await stack.program(program("https://hooks.example.com/a")).up()).error).toBeUndefined();
    refuseCreates("task");
    const stopped = await stack.program(program("https://hooks.example.com/b")).up();
    expect(stopped.output).toMatch(/refused for the test/);
    calls.reset();
    expect([tasksNamed("scanner"), suite.emulator.runTask.workspaceTasks()]).toEqual([[], []]);
    for (const name of ["scanner", "on-app", "on-web"]) {
      expect(stack.state().resources.find((r) => nameOf(r.urn) === name)).toMatchObject({ pendingReplacement: true });
    }
    expectServiceMatchesState(suite.emulator, stack);

    suite.emulator.requests.reset();
    const again = await stack.up();
    expect(again.error).toBeUndefined();
    expect(opsByName(again)).toMatchObject({ scanner: "replace" });
    // Nothing live is deleted: whatever delete the engine still sends finds its object gone.
    expect(suite.emulator.requests.entries.filter((e) => e.method === "DELETE" && e.status !== 404)).toEqual([]);
    const [task] = tasksNamed("scanner");
    expect(task.url).toBe("https://hooks.example.com/b");
    expect(suite.emulator.runTask.workspaceTasks().map((a) => a.taskId)).toEqual([task.id, task.id]);
    expectServiceMatchesState(suite.emulator, stack);
    expect((await stack.destroy()).error).toBeUndefined();
    expect([suite.emulator.runTask.tasks().length, suite.emulator.runTask.workspaceTasks().length]).toEqual([0, 0]);
    stack.remove();
  });
});

test("a move with adopt to an explicit provider whose up fails before the old resource's delete: the next up's delete, in a new process of the old provider, leaves the object", async () => {
  const stack = stackOf("stopped-move");
  const nightly = { interval: 3600, storageType: "local", pathPrefix: "/var/snapshots", localMaxSpace: 1_000_000 };
  expect(
    (await stack.program({ resources: [{ type: "snapshot:index:SnapshotAutoConfig", name: "nightly", args: nightly }] }).up()).error,
  ).toBeUndefined();
  const moved: ProgramSpec = {
    resources: [
      { type: "pulumi:providers:snapshot", name: "backups", args: { address: suite.emulator.url, token: DEFAULT_SNAPSHOT_TOKEN } },
      {
        type: "snapshot:index:SnapshotAutoConfig",
        name: "backups-nightly",
        args: { ...nightly, name: "nightly", adopt: true },
        options: { provider: "backups" },
      },
      // Fails in the same up, after the adopt, so that the engine stops before it deletes the old resource.
      {
        type: "runtask:index:RunTask",
        name: "broken",
        args: { url: "https://hooks.example.com/x", organization: "missing" },
        options: { dependsOn: ["backups-nightly"] },
      },
    ],
  };
  const stopped = await stack.program(moved).up();
  expect(stopped.ok).toBe(false);
  expect(opsByName(stopped)).not.toHaveProperty("nightly", "delete");
  // Both resources claim the one object until the old one's delete.
  expect(
    stack
      .state()
      .resources.filter((r) => r.id === "nightly")
      .map((r) => nameOf(r.urn))
      .sort(),
  ).toEqual(["backups-nightly", "nightly"]);

  const next = await stack.program({ resources: moved.resources.slice(0, 2) }).up();
  expect(next.error).toBeUndefined();
  expect(opsByName(next)).toMatchObject({ nightly: "delete", "backups-nightly": "same" });
  expect(next.output).toMatch(/snapshot configuration nightly is not deleted: another resource of this stack holds it/);
  expect(suite.emulator.snapshot.configs.has("nightly")).toBe(true);
  expectServiceMatchesState(suite.emulator, stack);
  expect((await stack.destroy()).error).toBeUndefined();
  expect(suite.emulator.snapshot.configs.size).toBe(0);
  stack.remove();
});
