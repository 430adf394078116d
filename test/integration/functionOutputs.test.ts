import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import {
  getRunTask,
  getRunTaskOutput,
  getSnapshotStatusOutput,
  getWorkspaceRunTaskOutput,
  listRunTasksOutput,
  listSnapshotAutoConfigsOutput,
  listWorkspaceRunTasksOutput,
} from "../../sdk";
import { valueOf } from "../support/recordingMocks";

/**
 * The functions' Output forms, as every Pulumi SDK has them: arguments that may be Outputs, a result that is an
 * Output, unknown while an argument is (nothing is asked then), and secret when an argument is.
 */
let emulator: Emulator;
const saved = { ...process.env };
let workspaceId: string;
let taskId: string;

beforeAll(async () => {
  emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  Object.assign(process.env, {
    RUNTASK_ADDR: emulator.url,
    RUNTASK_TOKEN: DEFAULT_RUNTASK_TOKEN,
    RUNTASK_ORGANIZATION: "emulator-org",
    SERVICE_ADDR: emulator.url,
    SERVICE_TOKEN: DEFAULT_SNAPSHOT_TOKEN,
  });
  const task = emulator.runTask.store.addTask({
    organization: "emulator-org",
    name: "scanner",
    url: "https://h.example/scan",
    category: "task",
    description: null,
    hmacKey: null,
    enabled: true,
    global: { enabled: false, stages: [], enforcementLevel: null },
  });
  taskId = task.id;
  workspaceId = emulator.runTask.workspace("network").id;
  emulator.runTask.store.addWorkspaceTask({ workspaceId, taskId, enforcementLevel: "advisory", stages: ["post_plan"] });
  const res = await fetch(`${emulator.url}/v1/sys/storage/raft/snapshot-auto/config/nightly`, {
    method: "POST",
    headers: { "x-service-token": DEFAULT_SNAPSHOT_TOKEN },
    body: JSON.stringify({ interval: 3600, path_prefix: "p", storage_type: "cloudA-s3", cloudA_s3_bucket: "b", cloudA_s3_region: "r" }),
  });
  expect(res.status).toBe(204);
});

afterAll(async () => {
  process.env = saved;
  await emulator.close();
  await closeSharedDispatchers();
});

test("arguments that are Outputs: the result is an Output of what the plain form returns", async () => {
  const byName = await valueOf(getRunTaskOutput({ name: pulumi.output("scanner") }));
  expect(byName).toEqual(await getRunTask({ name: "scanner" }));
  expect(await valueOf(getRunTaskOutput(pulumi.output({ id: taskId })))).toEqual(byName);
  expect((await valueOf(listRunTasksOutput())).map((t) => t.name)).toEqual(["scanner"]);
  const association = await valueOf(getWorkspaceRunTaskOutput({ workspaceId, taskId: pulumi.output(taskId) }));
  expect(association).toMatchObject({ workspaceId, taskId, enforcementLevel: "advisory", stages: ["post_plan"] });
  expect(await valueOf(listWorkspaceRunTasksOutput({ workspaceId: Promise.resolve(workspaceId) }))).toEqual([association]);
  expect(await valueOf(listSnapshotAutoConfigsOutput())).toEqual(["nightly"]);
  expect(await valueOf(getSnapshotStatusOutput({ name: pulumi.output("nightly") }))).toHaveProperty("lastSnapshotError");
});

test("an unknown argument (a resource not made yet, in a preview): an unknown result, and no request", async () => {
  emulator.requests.reset();
  const result = getRunTaskOutput({ name: pulumi.output(pulumi.unknown) as pulumi.Output<string> });
  expect(await (result as unknown as { isKnown: Promise<boolean> }).isKnown).toBe(false);
  expect(emulator.requests.entries).toEqual([]);
});

test("a secret argument: a secret result", async () => {
  const result = getWorkspaceRunTaskOutput({ workspaceId: pulumi.secret(workspaceId), taskId });
  expect(await pulumi.isSecret(result)).toBe(true);
  expect((await valueOf(result)).taskId).toBe(taskId);
});

test("a failure is the plain form's: its code kept", async () => {
  // An Output's failure fails the program; here its promises are read as the runtime reads them.
  const result = getRunTaskOutput({ name: pulumi.output("nope") }) as unknown as { promise(): Promise<unknown>; isKnown: Promise<boolean> };
  const isSecret = pulumi.isSecret(result as unknown as pulumi.Output<unknown>);
  await expect(Promise.all([result.promise(), result.isKnown, isSecret])).rejects.toMatchObject({ code: "not_found" });
  await Promise.allSettled([result.isKnown, isSecret]);
});
