import { startEmulator, DEFAULT_RUNTASK_TOKEN, type Emulator } from "../../emulator";
import { createConsumerProject, type ConsumerProject } from "../../toolchain/consumerProject";
import { secret } from "../support/plugin/pluginClient";
import { startNativeProviderPlugin, type NativeProviderPlugin } from "../support/plugin/pluginProcess";

/**
 * `pulumi import` with the ids users already have (those of the Terraform tfe provider among them), through the
 * `runtask` provider plugin as the engine drives an import: Read with the id alone (the engine keeps the id Read
 * answers), then Check and Diff of the inputs read, which must be DIFF_NONE.
 */
let project: ConsumerProject;
let emulator: Emulator;
let plugin: NativeProviderPlugin;

beforeAll(async () => {
  project = createConsumerProject({ name: "import-ids" });
  emulator = await startEmulator({ runTask: { organizations: [{ name: "acme", workspaces: [{ name: "app-production" }] }] } });
  plugin = await startNativeProviderPlugin(project.dir, "runtask", { RUNTASK_TOKEN: undefined, RUNTASK_ORGANIZATION: undefined });
  await plugin.client.configure({ address: emulator.url, token: secret(DEFAULT_RUNTASK_TOKEN) });
});

afterAll(async () => {
  await plugin?.stop();
  await emulator?.close();
  project?.remove();
});

const urn = (type: string, name: string) => `urn:pulumi:dev::import-ids::${type}::${name}`;
const TASK = urn("runtask:index:RunTask", "scanner");
const ASSOC = urn("runtask:index:WorkspaceRunTask", "scanner-on-production");

/** The engine's import: Read by id alone, then Check and Diff of what it read. */
async function imported(target: string, importId: string) {
  const read = await plugin.client.read(target, importId);
  const { inputs, failures } = await plugin.client.check(target, read.inputs!, read.inputs!);
  expect(failures).toEqual([]);
  const diff = await plugin.client.diff(target, read.id, read.outputs, inputs, read.inputs);
  return { id: read.id, inputs, diff: diff.changes };
}

test("acme/scanner and ws-.../scanner: DIFF_NONE, with the service's ids as the resources' ids", async () => {
  const task = emulator.runTask.addTask("acme", { name: "scanner", url: "https://hooks.example.com/scan" });
  const workspaceId = emulator.runTask.workspace("app-production", "acme").id;
  const association = emulator.runTask.addWorkspaceTask(workspaceId, task.id, { enforcementLevel: "mandatory", stages: ["pre_plan"] });

  expect(await imported(TASK, "acme/scanner")).toMatchObject({ id: task.id, diff: "none" });
  expect(await imported(ASSOC, `${workspaceId}/scanner`)).toMatchObject({ id: `${workspaceId}/${association.id}`, diff: "none" });
  expect(await imported(ASSOC, `${workspaceId}/${task.id}`)).toMatchObject({ id: `${workspaceId}/${association.id}`, diff: "none" });
});

test.each([
  [
    ASSOC,
    "wstask-abc",
    /"wstask-abc" is not an import id of a WorkspaceRunTask: .*; use <workspace-id>\/<wstask-id>, <workspace-id>\/<task-id>, <workspace-id>\/<task-name>/,
  ],
  [
    ASSOC,
    "acme/app-production/scanner",
    /no lookup of a workspace by name.*e\.g\. ws-\.\.\.\/scanner; use <workspace-id>\/<wstask-id>, <workspace-id>\/<task-id>, <workspace-id>\/<task-name>/,
  ],
  [TASK, "acme/app-production/scanner", /use task-<id> \(the service's id\), or <organization>\/<task-name>/],
])("%s: %j is refused, naming the accepted forms", async (target, importId, message) => {
  emulator.requests.reset();
  await expect(plugin.client.read(target, importId)).rejects.toThrow(message);
  expect(emulator.requests.total()).toBe(0);
});
