import { startEmulator, type Emulator } from "../../emulator";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { runTaskProvider as tasks } from "../../provider/runTask/provider";
import { workspaceRunTaskProvider as wsTasks } from "../../provider/workspaceRunTask/provider";
import { failure } from "../support/failure";
import { configureProvider } from "../support/providerConfig";

/** Import ids users already have, resolved through the spec's lists; ids of other shapes refused at once. */
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator();
  configureProvider({ "runtask:address": emulator.url, "runtask:token": "emulator-runtask-token" });
});
afterAll(async () => {
  await emulator.close();
  await closeSharedDispatchers();
});

describe("RunTask", () => {
  test("<organization>/<task-name> reads the task by its name, with the service's id; task-<id> as before", async () => {
    const task = emulator.runTask.addTask("emulator-org", { name: "scanner", url: "https://hooks.example.com/scan" });
    const byName = await tasks.read("emulator-org/scanner", {});
    expect(byName.id).toBe(task.id);
    expect(byName.inputs).toMatchObject({ organization: "emulator-org", name: "scanner", url: "https://hooks.example.com/scan" });
    expect((await tasks.read(task.id, {})).props).toEqual(byName.props);
  });

  test("a name the organization does not have, or an organization that does not answer, says which", async () => {
    expect((await failure(tasks.read("emulator-org/nobody", {}))).message).toBe(
      'import "emulator-org/nobody": organization "emulator-org" has no run task named "nobody"',
    );
    expect((await failure(tasks.read("nowhere/scanner", {}))).message).toContain('organization "nowhere" answers 404');
  });

  test.each(["acme/app-production/scanner", "scanner", "wstask-abc", "acme/not a name", "../scanner", "./scanner"])(
    "%j is refused before any request, naming the forms",
    async (id) => {
      emulator.requests.reset();
      const err = await failure(tasks.read(id, {}));
      expect(err.code).toBe("invalid");
      expect(err.message).toBe(
        `"${id}" is not an import id of a RunTask: use task-<id> (the service's id), or <organization>/<task-name> (as the Terraform tfe provider takes it)`,
      );
      expect(emulator.requests.total()).toBe(0);
    },
  );
});

describe("WorkspaceRunTask", () => {
  let workspaceId: string;
  let taskId: string;
  let associationId: string;

  beforeAll(() => {
    workspaceId = emulator.runTask.workspace("network").id;
    const other = emulator.runTask.addTask("emulator-org", { name: "other" });
    emulator.runTask.addWorkspaceTask(workspaceId, other.id);
    taskId = emulator.runTask.addTask("emulator-org", { name: "policy" }).id;
    associationId = emulator.runTask.addWorkspaceTask(workspaceId, taskId, { enforcementLevel: "mandatory" }).id;
  });

  test.each([
    ["<workspace-id>/<wstask-id>", () => `${workspaceId}/${associationId}`],
    ["<workspace-id>/<task-id>", () => `${workspaceId}/${taskId}`],
    ["<workspace-id>/<task-name>", () => `${workspaceId}/policy`],
  ])("%s: the association, with the id <workspace-id>/<wstask-id>", async (_, id) => {
    const read = await wsTasks.read(id(), {});
    expect(read.id).toBe(`${workspaceId}/${associationId}`);
    expect(read.inputs).toEqual({ workspaceId, taskId, enforcementLevel: "mandatory", stages: ["post_plan"] });
  });

  test("a task the workspace has no association of, and a workspace that does not answer, say which", async () => {
    expect((await failure(wsTasks.read(`${workspaceId}/nobody`, {}))).message).toBe(
      `import "${workspaceId}/nobody": workspace ${workspaceId} has no association of a run task with the id or name "nobody"`,
    );
    expect((await failure(wsTasks.read("ws-nowhere000000/policy", {}))).message).toContain("workspace ws-nowhere000000 answers 404");
  });

  test.each<[string, string]>([
    [
      "emulator-org/network/policy",
      "the run task API has no lookup of a workspace by name, so the form <organization>/<workspace-name>/<task-name> cannot be resolved: give the workspace's id instead (network's id, ws-..., is in its settings), e.g. ws-.../policy",
    ],
    ["wstask-abc", "an association is reached only through its workspace"],
    ["network/policy", '"network" is not a workspace id (ws-...), and the run task API has no lookup of a workspace by name'],
    ["ws-1/a/b/c", "its shape is none of these"],
  ])("%j is refused before any request, saying why and naming the forms", async (id, why) => {
    emulator.requests.reset();
    const err = await failure(wsTasks.read(id, {}));
    expect(err.code).toBe("invalid");
    expect(err.message).toBe(
      `"${id}" is not an import id of a WorkspaceRunTask: ${why}; use <workspace-id>/<wstask-id>, <workspace-id>/<task-id>, <workspace-id>/<task-name>`,
    );
    expect(emulator.requests.total()).toBe(0);
  });

  test("a refresh (the state's id and outputs) reads as before", async () => {
    const read = await wsTasks.read(associationId, { workspaceId, taskId });
    expect(read.id).toBe(associationId);
  });
});
