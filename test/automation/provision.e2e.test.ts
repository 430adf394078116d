import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { createConsumerProject, type ConsumerProject } from "../../demo/consumerProject";
import { describeIfCli } from "../support/pulumiCli";

type Automation = typeof import("../../automation");

/**
 * The Automation API helper against the real engine: the `pulumi` CLI with a file backend, the helper loaded
 * from the packed package installed in a consumer project (as users get it), the emulator as the services.
 * Needs the Pulumi CLI on PATH; skipped, with a message, where there is none.
 */
describeIfCli("provision() through the Automation API and the real engine", () => {
  const HMAC = "canary-e2e-hmac-key-6a1d";
  let fixture: ConsumerProject;
  let emulator: Emulator;
  let automation: Automation;
  let work: string;
  let options: import("../../automation").ProvisioningStackOptions;
  let tmp: string;
  let savedTmpdir: string | undefined;

  beforeAll(async () => {
    fixture = createConsumerProject();
    // Resolved from the consumer project, so that the installed copy answers, not this repository.
    automation = createRequire(join(fixture.dir, "index.js"))("pulumi-snapshot-runtask/automation");
    emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
    work = mkdtempSync(join(tmpdir(), "provision-e2e-"));
    const production = emulator.runTask.workspace("app-production").id;
    options = {
      stackName: "e2e",
      backendUrl: `file://${join(work, "state")}`,
      passphrase: "e2e-passphrase",
      pulumiHome: join(work, "home"),
      programDir: fixture.dir,
      credentials: {
        snapshot: { address: emulator.url, token: "emulator-snapshot-token" },
        runTask: { address: emulator.url, token: "emulator-runtask-token", organization: "emulator-org" },
      },
      description: {
        snapshots: { nightly: { interval: "24h", storageType: "local", pathPrefix: join(work, "snapshots"), localMaxSpace: 1_000_000 } },
        runTasks: { scanner: { url: "https://hooks.example.com/scan", hmacKey: HMAC } },
        attachments: [{ task: "scanner", workspaceIds: [production], enforcementLevel: "advisory" }],
      },
    };
    mkdirSync(join(work, "state"), { recursive: true });
    // The helper's work directories and the Automation API's event logs go here, to be found if left behind.
    tmp = join(work, "tmp");
    mkdirSync(tmp);
    savedTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
  });

  afterAll(async () => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    await emulator?.close();
    fixture?.remove();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test("preview of a stack that does not exist yet says so, and creates nothing", async () => {
    await expect(automation.previewProvisioning(options)).rejects.toMatchObject({ kind: "stack-not-found" });
    await expect(automation.withProvisioningStack(options, async () => undefined)).rejects.toMatchObject({ kind: "stack-not-found" });
  });

  test("provision creates everything and reports it, streaming progress", async () => {
    const lines: string[] = [];
    const result = await automation.provision({ ...options, onEvent: (e) => void lines.push(automation.describeEngineEvent(e) ?? "") });
    expect(result.changes.create).toBe(3);
    expect(result.outputs.runTasks.scanner.id).toMatch(/^task-/);
    expect(emulator.snapshot.configs.has("nightly")).toBe(true);
    expect(emulator.runTask.store.workspaceTasks.size).toBe(1);
    expect(lines).toContain(`  created RunTask scanner (${result.outputs.runTasks.scanner.id})`);
  });

  test("a second provision changes nothing and writes nothing", async () => {
    emulator.requests.reset();
    const result = await automation.provision(options);
    expect(result.changes).toEqual({ same: 4 });
    expect(emulator.requests.writes()).toBe(0);
  });

  test("a preview of the provisioned stack plans no change", async () => {
    emulator.requests.reset();
    const { changes } = await automation.previewProvisioning(options);
    expect(changes).toEqual({ same: 4 });
    expect(emulator.requests.writes()).toBe(0);
  });

  test("the state and the stack's history hold no token or HMAC key in plain text", async () => {
    const [state, history] = await automation.withProvisioningStack(options, async (stack) => [
      JSON.stringify(await stack.exportStack()),
      JSON.stringify(await stack.history()),
    ]);
    for (const secret of [HMAC, "emulator-snapshot-token", "emulator-runtask-token"]) {
      expect(state).not.toContain(secret);
      expect(history).not.toContain(secret);
    }
  });

  test("destroy removes everything, then the stack", async () => {
    const { changes } = await automation.destroyProvisioning({ ...options, removeStack: true });
    expect(changes.delete).toBe(3);
    expect(emulator.snapshot.configs.size).toBe(0);
    expect(emulator.runTask.store.tasks.size).toBe(0);
    await expect(automation.withProvisioningStack(options, async () => undefined)).rejects.toMatchObject({ kind: "stack-not-found" });
  });

  test("no work directory or event log is left behind", () => {
    expect(readdirSync(tmp).filter((name) => name.startsWith("pulumi-snapshot-runtask-") || name.startsWith("automation-"))).toEqual([]);
  });
});
