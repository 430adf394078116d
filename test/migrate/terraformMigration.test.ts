import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engineSuite } from "../support/engine/engineSuite";
import { opsByName, type EngineStack } from "../support/engine/engineStack";
import { AsTerraform, runCommand, type CommandRun } from "./support/asTerraform";

/**
 * `pulumi-snapshot-runtask migrate terraform` through the real Pulumi engine, against the emulator, from states shaped
 * as each provider era writes them, with ids of objects first made at the emulator as Terraform made them. Each
 * scenario is one stack: the command (which ends with its own `pulumi preview --expect-no-changes`), then `pulumi
 * preview` shows every resource `same`, an `up` sends no write, the service holds the same objects with the same keys,
 * and no secret is in plain text in the state, a file written or anything printed. The emulator answers credentials
 * echoed, hidden and masked, one scenario each.
 */
jest.setTimeout(900_000);

const suite = engineSuite();
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "terraform-migration-"));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The command as the consumer project links it. */
function migrate(stack: EngineStack, args: string[], input?: string): Promise<CommandRun> {
  return runCommand(join(suite.project.binDir, "pulumi-snapshot-runtask"), ["migrate", "terraform", ...args], { cwd: work, env: stack.env, input });
}

/** Every file under `dir` (node_modules aside), with its text. */
function filesUnder(dir: string): [string, string][] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : filesUnder(path);
    return [[path, readFileSync(path, "utf8")] as [string, string]];
  });
}

/** No secret value in the state, in any file of the project, or in what the command printed. */
function expectNoPlainSecret(secrets: Record<string, string>, stack: EngineStack, run: CommandRun): void {
  const places: [string, string][] = [
    ["the state", stack.state().text],
    ["stdout", run.stdout],
    ["stderr", run.stderr],
    ...filesUnder(stack.programDir),
  ];
  for (const [name, value] of Object.entries(secrets)) {
    for (const [where, text] of places) expect([name, where, text.includes(value)]).toEqual([name, where, false]);
  }
}

describe("a tfe v0.53 and vault v5.9 state (plugin SDK era), a service that echoes credentials, YAML", () => {
  const SECRETS = {
    scannerHmacKey: "hmac-canary-7Qz1",
    offsiteCloudAAccessKeyId: "AKIACANARY7QZ1",
    offsiteCloudASecretAccessKey: "secret-canary-7Qz1/abc+def",
  };
  let stack: EngineStack;
  let tf: AsTerraform;

  test("the command imports every object, writes the program, and its preview shows no change", async () => {
    tf = new AsTerraform(suite.emulator);
    await tf.task("scanner", { name: "scanner", url: "https://hooks.example.com/scan", hmacKey: SECRETS.scannerHmacKey });
    await tf.task("legacy", {
      name: "legacy-scanner",
      url: "https://legacy.example.com/hook",
      description: "Old scanner, kept switched off",
      enabled: false,
    });
    await tf.attach("scanner-app", "scanner", "app", { enforcementLevel: "mandatory", stage: "pre_plan" });
    await tf.attach("scanner-web", "scanner", "web", { enforcementLevel: "advisory", stage: "post_plan" });
    await tf.config("offsite", {
      interval: 86400,
      retain: 7,
      path_prefix: "raft/",
      file_prefix: "vault-snapshot",
      storage_type: "cloudA-s3",
      cloudA_s3_bucket: "snapshots",
      cloudA_s3_region: "eu-west-1",
      cloudA_access_key_id: SECRETS.offsiteCloudAAccessKeyId,
      cloudA_secret_access_key: SECRETS.offsiteCloudASecretAccessKey,
    });
    await tf.config("nightly", {
      interval: 3600,
      retain: 1,
      path_prefix: "/var/snapshots",
      file_prefix: "vault-snapshot",
      storage_type: "local",
      local_max_space: 1073741824,
    });
    const stateFile = join(work, "sdk-era.tfstate");
    writeFileSync(stateFile, tf.state("tfe-0.53-vault-5.9.tfstate.json", SECRETS));

    // The user's project: the stack and its settings (the services' addresses and tokens), no program yet.
    stack = suite.stack("yaml", "tf-sdk-era");
    stack.yamlProgram("");
    expect((await stack.preview()).ok).toBe(true);
    suite.emulator.requests.reset();

    const run = await migrate(stack, [stateFile, "--stack", "dev", "--out", stack.programDir]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    // Reads, and no write at the services.
    expect(suite.emulator.requests.writes()).toBe(0);
    const report = JSON.parse(readFileSync(join(stack.programDir, "migration-report.json"), "utf8"));
    expect(report.preview).toEqual({ ran: true, noChanges: true, note: "no changes" });
    expect(Object.fromEntries(report.resources.map((r: any) => [r.address, [r.pulumiType, r.name, r.id]]))).toEqual({
      "tfe_organization_run_task.scanner": ["runtask:index:RunTask", "scanner", tf.ids["task:scanner"]],
      "tfe_organization_run_task.legacy": ["runtask:index:RunTask", "legacy", tf.ids["task:legacy"]],
      "tfe_workspace_run_task.scanner_on[0]": [
        "runtask:index:WorkspaceRunTask",
        "scanner_on-0",
        `${tf.ids["ws:app"]}/${tf.ids["wstask:scanner-app"]}`,
      ],
      "tfe_workspace_run_task.scanner_on[1]": [
        "runtask:index:WorkspaceRunTask",
        "scanner_on-1",
        `${tf.ids["ws:web"]}/${tf.ids["wstask:scanner-web"]}`,
      ],
      "vault_raft_snapshot_agent_config.offsite": ["snapshot:index:SnapshotAutoConfig", "offsite", "offsite"],
      "vault_raft_snapshot_agent_config.nightly": ["snapshot:index:SnapshotAutoConfig", "nightly", "nightly"],
    });
    expect(report.leftToTerraform).toEqual([{ address: "data.tfe_workspace.app", why: "a data source: it reads, and holds no object to move" }]);
    const offsite = report.resources.find((r: any) => r.name === "offsite");
    // An echoing service gives the credentials; they are the service's.
    expect(offsite.secrets).toEqual([
      { argument: "cloudAAccessKeyId", configKey: "offsiteCloudAAccessKeyId", from: "service" },
      { argument: "cloudASecretAccessKey", configKey: "offsiteCloudASecretAccessKey", from: "service" },
    ]);
    expect(report.resources.find((r: any) => r.name === "scanner").secrets).toEqual([
      { argument: "hmacKey", configKey: "scannerHmacKey", from: "terraform state" },
    ]);
    expect(report.terraformSide.stateRm).toContain("terraform state rm 'tfe_workspace_run_task.scanner_on[1]'");
    expect(report.terraformSide.removedBlocks).toContain(
      "removed {\n  from = tfe_workspace_run_task.scanner_on\n\n  lifecycle {\n    destroy = false\n  }\n}",
    );

    const program = readFileSync(join(stack.programDir, "Pulumi.yaml"), "utf8");
    expect(program).toContain("      hmacKey: ${scannerHmacKey}\n");
    expect(program).toContain("      taskId: ${scanner.id}\n");
    expect(program).toContain("      filePrefix: vault-snapshot\n");
    expect(program).toContain("      stages:\n        - pre_plan\n");
    expectNoPlainSecret(SECRETS, stack, run);
  });

  test("then the program is same, an up sends nothing, the service holds what it held; a second run is refused", async () => {
    const before = JSON.stringify([suite.emulator.runTask.tasks(), suite.emulator.runTask.workspaceTasks(), [...suite.emulator.snapshot.configs]]);
    const preview = await stack.preview();
    expect(Object.values(opsByName(preview)).every((op) => op === "same")).toBe(true);
    expect(Object.keys(opsByName(preview))).toHaveLength(6);
    suite.emulator.requests.reset();
    expect((await stack.up()).changes).toEqual({ same: 7 });
    expect(suite.emulator.requests.writes()).toBe(0);
    expect(JSON.stringify([suite.emulator.runTask.tasks(), suite.emulator.runTask.workspaceTasks(), [...suite.emulator.snapshot.configs]])).toBe(
      before,
    );
    expect(suite.emulator.runTask.tasks().find((t) => t.name === "scanner")?.hmacKey).toBe(SECRETS.scannerHmacKey);

    // The same state again, into the same stack: refused, whether the folder holds the program or is a new one.
    const files = filesUnder(stack.programDir);
    const state = stack.state().text;
    const again = await migrate(stack, [join(work, "sdk-era.tfstate"), "--stack", "dev", "--out", stack.programDir]);
    expect([again.code, again.stderr]).toEqual([2, expect.stringContaining("holds a program already")]);
    const elsewhere = join(work, "elsewhere");
    const held = await migrate(stack, [join(work, "sdk-era.tfstate"), "--stack", "dev", "--out", elsewhere, "--project", "tf-sdk-era"]);
    expect([held.code, held.stderr]).toEqual([
      2,
      expect.stringContaining(
        `tfe_organization_run_task.scanner: stack dev holds its object already (urn:pulumi:dev::tf-sdk-era::runtask:index:RunTask::scanner)`,
      ),
    ]);
    expect(existsSync(elsewhere)).toBe(false);
    expect(filesUnder(stack.programDir)).toEqual(files);
    expect(stack.state().text).toBe(state);
  });
});
