import { DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN, startEmulator, type Emulator } from "../../emulator";
import { providers } from "../../provider";
import { RESOURCE_URN } from "../../provider/dynamicResources";
import { startDeployment } from "../../provider/takeover/heldObjects";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { ADOPT_PENDING_CREATES, pendingCreateRecovery, pendingCreatesToAdopt } from "../../provider/takeover/pendingCreates";
import { forgetObjects } from "../support/emulatorStack";
import { configureProvider } from "../support/providerConfig";

/**
 * The dynamic resources' provider as the SDK's dynamic provider plugin calls it (provider/index.ts), with the URN
 * the resource classes send: the name a program leaves out, and the recovery of an up stopped while creating
 * (provider/takeover/pendingCreates.ts), which the refusal prints and the variable carries out. Through the engine:
 * test/engine/interruptions.test.ts and test/docs/renames.test.ts.
 */
type Props = Record<string, unknown>;

let emulator: Emulator;
const urnOf = (type: string, name: string) => `urn:pulumi:dev::app::pulumi-nodejs:dynamic/${type}::${name}`;
const CONFIG_URN = urnOf("snapshot:SnapshotAutoConfig", "nightly");
const TASK_URN = urnOf("runtask:RunTask", "scanner");
const local = { interval: "24h", storageType: "local", pathPrefix: "/var/snapshots", localMaxSpace: 1000 };

beforeAll(async () => {
  emulator = await startEmulator({ runTask: { organizations: [{ name: "acme", workspaces: [{ name: "app" }] }] } });
  configureProvider({
    "snapshot:address": emulator.url,
    "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
    "runtask:address": emulator.url,
    "runtask:token": DEFAULT_RUNTASK_TOKEN,
    "runtask:organization": "acme",
  });
});
afterAll(async () => {
  await emulator.close();
  await closeSharedDispatchers();
});
beforeEach(() => startDeployment());
afterEach(() => {
  delete process.env[ADOPT_PENDING_CREATES];
  forgetObjects(emulator);
});

async function checked(kind: keyof typeof providers, news: Props, olds: Props = {}): Promise<Props> {
  const result = await providers[kind].check(olds, news);
  expect(result.failures).toEqual([]);
  return result.inputs;
}

describe("a name the program leaves out", () => {
  test("is the resource's name on create, and the URN never enters the inputs", async () => {
    const inputs = await checked("snapshotAutoConfig", { ...local, [RESOURCE_URN]: CONFIG_URN });
    expect(inputs.name).toBe("nightly");
    expect(inputs).not.toHaveProperty(RESOURCE_URN);
  });

  test("stays the object's name after a rename with aliases (old inputs), and in the check before a replacement's create", async () => {
    const renamed = urnOf("runtask:RunTask", "policy-scanner");
    const olds = { organization: "acme", name: "scanner", url: "https://hooks.example.com/a", category: "task", enabled: true };
    const news = { url: "https://hooks.example.com/a", organization: "other", [RESOURCE_URN]: renamed };
    expect((await checked("runTask", news, olds)).name).toBe("scanner");
    // The engine checks again without olds before a replacement's create: the name the first check kept.
    expect((await checked("runTask", news)).name).toBe("scanner");
    // A program that gives a name renames the object.
    expect((await checked("runTask", { ...news, name: "policy-scanner" }, olds)).name).toBe("policy-scanner");
  });
});

describe("the recovery of an up stopped while creating", () => {
  test("the refusal prints it with the URN and the object's id; run as printed, the create of that resource takes the object over", async () => {
    const inputs = await checked("snapshotAutoConfig", { ...local, [RESOURCE_URN]: CONFIG_URN });
    await providers.snapshotAutoConfig.create(inputs);
    startDeployment(); // the next up: nothing holds the configuration
    const refusal = await providers.snapshotAutoConfig.create(inputs).then(
      () => undefined,
      (err: Error) => err.message,
    );
    const recovery = pendingCreateRecovery(CONFIG_URN, "nightly");
    expect(recovery).toBe(
      `pulumi stack export --stack dev | grep -qF '"${CONFIG_URN}"' && ${ADOPT_PENDING_CREATES}='${CONFIG_URN} nightly' pulumi up --yes --stack dev && ` +
        `pulumi refresh --clear-pending-creates --yes --stack dev --target ${CONFIG_URN}`,
    );
    expect(refusal).toContain(`an up of this stack was stopped while creating it (record it with no program change: \`${recovery}\`)`);

    process.env[ADOPT_PENDING_CREATES] = `${CONFIG_URN} nightly`;
    const { id } = await providers.snapshotAutoConfig.create(
      await checked("snapshotAutoConfig", { ...local, retain: 3, [RESOURCE_URN]: CONFIG_URN }),
    );
    expect(id).toBe("nightly");
    expect(emulator.snapshot.configs.get("nightly")?.config.retain).toBe(3);
  });

  test("a task and an association: the object of the resource's identity, pinned by its id, or by the URN alone", async () => {
    const task = await checked("runTask", { url: "https://hooks.example.com/scan", [RESOURCE_URN]: TASK_URN });
    const made = await providers.runTask.create(task);
    const assocUrn = urnOf("runtask:WorkspaceRunTask", "on-app");
    const assoc = await checked("workspaceRunTask", {
      workspaceId: emulator.runTask.workspace("app", "acme").id,
      taskId: made.id,
      enforcementLevel: "advisory",
      [RESOURCE_URN]: assocUrn,
    });
    const attached = await providers.workspaceRunTask.create(assoc);
    startDeployment();
    process.env[ADOPT_PENDING_CREATES] = `${TASK_URN} ${made.id} ${assocUrn}`;
    expect((await providers.runTask.create(task)).id).toBe(made.id);
    expect((await providers.workspaceRunTask.create(assoc)).id).toBe(attached.id);
    expect([emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length]).toEqual([1, 1]);
  });

  test("never another object, another resource's create, nor an object another resource of the deployment holds", async () => {
    const task = await checked("runTask", { url: "https://hooks.example.com/scan", [RESOURCE_URN]: TASK_URN });
    const made = await providers.runTask.create(task);
    startDeployment();
    process.env[ADOPT_PENDING_CREATES] = `${TASK_URN} task-someoneElses`;
    await expect(providers.runTask.create(task)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining(
        `names run task task-someoneElses for ${TASK_URN}, but the run task of its identity is ${made.id}: nothing is adopted`,
      ),
    });
    // Another stack's URN (another stack name) is not this resource's: the refusal stands.
    process.env[ADOPT_PENDING_CREATES] = `${TASK_URN.replace("urn:pulumi:dev::", "urn:pulumi:prod::")} ${made.id}`;
    await expect(providers.runTask.create(task)).rejects.toMatchObject({ message: expect.stringContaining("already exists") });
    // Held by another resource of this deployment (its Diff kept it): refused.
    providers.runTask.claim(made.id, {});
    process.env[ADOPT_PENDING_CREATES] = `${TASK_URN} ${made.id}`;
    await expect(providers.runTask.create(task)).rejects.toMatchObject({
      message: expect.stringContaining(`another resource of this stack holds run task ${made.id}: nothing is adopted`),
    });
    expect(emulator.runTask.tasks()).toHaveLength(1);
  });

  test("the variable's form: pairs of a URN and an id, or a URN alone; anything else is refused, saying what it takes", () => {
    expect([...pendingCreatesToAdopt(`${TASK_URN} task-1\n  ${CONFIG_URN}`)]).toEqual([
      [TASK_URN, "task-1"],
      [CONFIG_URN, undefined],
    ]);
    expect(() => pendingCreatesToAdopt("task-1")).toThrow(`${ADOPT_PENDING_CREATES}: "task-1" is not a resource's URN`);
    expect(pendingCreateRecovery("urn:pulumi:dev::app::a:b:C$pulumi-nodejs:dynamic/runtask:RunTask::it's", "task-1")).toContain(
      `${ADOPT_PENDING_CREATES}='urn:pulumi:dev::app::a:b:C$pulumi-nodejs:dynamic/runtask:RunTask::it'\\''s task-1'`,
    );
  });
});
