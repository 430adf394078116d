import { startEmulator, type Emulator } from "../../emulator";
import { createConsumerProject, NativeEngine, type ConsumerProject, type NativeResource } from "../../engine";
import { ResourceInitFailed } from "../support/plugin/initFailure";
import { Switchboard } from "../support/switchboard";

/**
 * The partial-failure answer through the provider plugins, as the engine takes it (engine/nativeEngine.ts): an
 * object made, or lost, by a call that failed is recorded with its init errors, secrets marked, and the next `up`
 * converges without an "already exists".
 */
type Props = Record<string, unknown>;

const SNAPSHOT_TOKEN = "snapshot-token";
const SECRET_KEY = "canary-partial-secret-key-61d0";

let project: ConsumerProject;
let emulator: Emulator;
const calls = new Switchboard();

beforeAll(async () => {
  project = createConsumerProject({ project: "partial-failure" });
  emulator = await startEmulator({
    snapshot: { tokens: { [SNAPSHOT_TOKEN]: { sudo: true } }, takeSnapshots: false },
    runTask: { organizations: [{ name: "acme", workspaces: [{ name: "app" }] }] },
    interceptors: [calls.interceptor],
  });
});
afterEach(() => calls.reset());
afterAll(async () => {
  await emulator?.close();
  project?.remove();
});

const engineFor = () =>
  new NativeEngine({
    programDir: project.dir,
    config: {
      "runtask:address": emulator.url,
      "runtask:token": "emulator-runtask-token",
      "runtask:organization": "acme",
      "runtask:maxRetries": "1",
      "snapshot:address": emulator.url,
      "snapshot:token": SNAPSHOT_TOKEN,
      "snapshot:maxRetries": "1",
    },
  });
const urn = (token: string, name: string) => `urn:pulumi:dev::partial-failure::${token}::${name}`;
const resource = (token: string, name: string, inputs: Props, dependencies: string[] = []): NativeResource => ({
  urn: urn(token, name),
  token,
  name,
  inputs,
  dependencies,
});
const ops = (steps: { name: string; op: string }[]) => Object.fromEntries(steps.map((s) => [s.name, s.op]));

test("a storage-type switch whose POST and write-back fail: recorded with the failure, secrets marked; the next up writes it", async () => {
  const engine = engineFor();
  const s3 = resource("snapshot:index:SnapshotAutoConfig", "nightly", {
    interval: 3600,
    pathPrefix: "backups",
    storageType: "cloudA-s3",
    cloudAS3Bucket: "b",
    cloudAS3Region: "r",
    cloudASecretAccessKey: SECRET_KEY,
  });
  const local = resource("snapshot:index:SnapshotAutoConfig", "nightly", {
    interval: 3600,
    pathPrefix: "/tmp/p",
    storageType: "local",
    localMaxSpace: 10,
  });
  await engine.up([s3]);
  calls.answers.push((req) => (req.method === "POST" ? { status: 400, body: { errors: ["storage backend refused it"] } } : undefined));
  const err = await engine.up([local]).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ResourceInitFailed);
  expect((err as Error).message).toContain("writing it back failed too");
  expect(emulator.snapshot.configs.has("nightly")).toBe(false);
  const held = engine.held(s3.urn)!;
  expect(held.initErrors?.[0]).toContain("the next `pulumi up` writes it again");
  // Recorded as it was, the credential still a secret.
  expect(held.outputs).toMatchObject({ storageType: "cloudA-s3", cloudASecretAccessKey: { value: SECRET_KEY } });

  calls.reset();
  expect(ops(await engine.up([s3]))).toEqual({ nightly: "update" });
  expect(emulator.snapshot.configs.get("nightly")?.config).toMatchObject({ storage_type: "cloudA-s3", cloudA_secret_access_key: SECRET_KEY });
  expect(engine.held(s3.urn)!.initErrors).toBeUndefined();
  expect(ops(await engine.up([s3]))).toEqual({ nightly: "same" });
  await engine.destroy();
});

test("an association made (204) whose id the list cannot give: recorded by its task; the next up and a refresh find it", async () => {
  const engine = engineFor();
  const workspaceId = emulator.runTask.workspace("app", "acme").id;
  const task = resource("runtask:index:RunTask", "scanner", { url: "https://hooks.example.com/scan" });
  const attach = (enforcementLevel: string) =>
    resource("runtask:index:WorkspaceRunTask", "attach", { workspaceId, taskId: "@id:scanner", enforcementLevel }, [task.urn]);
  await engine.up([task]);
  const taskId = engine.held(task.urn)!.id;
  calls.answers.push((req, route) =>
    req.method === "GET" && route === "/api/v2/workspaces/:ws/tasks" ? { status: 503, body: { errors: [{ status: "503" }] } } : undefined,
  );
  const err = await engine.up([task, attach("mandatory")]).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ResourceInitFailed);
  expect(engine.held(attach("mandatory").urn)).toMatchObject({
    id: `${workspaceId}/${taskId}`,
    initErrors: [expect.stringContaining("It is recorded by its task")],
  });
  expect(emulator.runTask.workspaceTasks()).toHaveLength(1);

  calls.reset();
  // Not refused "already attached": the next up updates the association it recorded.
  expect(ops(await engine.up([task, attach("advisory")]))).toEqual({ scanner: "same", attach: "update" });
  expect(emulator.runTask.workspaceTasks()).toMatchObject([{ taskId, enforcementLevel: "advisory" }]);
  await engine.refresh();
  expect(engine.held(attach("advisory").urn)!.id).toBe(`${workspaceId}/${emulator.runTask.workspaceTasks()[0].id}`);
  await engine.destroy();
  expect(emulator.runTask.workspaceTasks()).toEqual([]);
});
