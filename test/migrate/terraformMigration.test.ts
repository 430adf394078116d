import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { DEFAULT_SNAPSHOT_TOKEN, startEmulator, type Emulator } from "../../emulator";
import { RUNTASK_TOKEN } from "../support/emulatorStack";
import { engineSuite, scenarioEmulator } from "../support/engine/engineSuite";
import { opsByName, type EngineStack } from "../support/engine/engineStack";
import { AsTerraform, installPluginSdks, runCommand, type CommandRun } from "./support/asTerraform";
import { nodejsLanguageHostOnPath } from "../../toolchain/pulumiEngine";
import { Switchboard } from "../support/switchboard";

/**
 * `pulumi-snapshot-runtask migrate terraform` through the real Pulumi engine, against the emulator, from states shaped
 * as each provider era writes them, with ids of objects first made at the emulator as Terraform made them. Each
 * scenario is one stack: the command (which ends with its own `pulumi preview --expect-no-changes`), then `pulumi
 * preview` shows every resource `same`, an `up` sends no write, the service holds the same objects with the same keys,
 * and no secret is in plain text in the state, a file written or anything printed. The emulator answers credentials
 * echoed, hidden and masked, one scenario each.
 */
jest.setTimeout(900_000);

const calls = new Switchboard();
const suite = engineSuite({ calls });
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
    const forms = [value.trim(), Buffer.from(value).toString("base64")];
    for (const [where, text] of places) expect([name, where, forms.some((f) => text.includes(f))]).toEqual([name, where, false]);
  }
}

describe("a tfe v0.53 and vault v5.9 state (plugin SDK era), a service that echoes credentials, YAML", () => {
  const SECRETS = {
    // Read by Terraform from a file (`file("hmac.key")`): its trailing newline is part of the key.
    scannerHmacKey: "hmac-canary-7Qz1\n",
    offsiteCloudAAccessKeyId: "AKIACANARY7QZ1",
    offsiteCloudASecretAccessKey: "secret-canary-7Qz1/abc+def",
  };
  let stack: EngineStack;
  let tf: AsTerraform;
  let stateFile: string;

  beforeAll(async () => {
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
      // Set once, then KMS turned off: the spec allows it, the service ignores it.
      cloudA_s3_kms_key: "alias/left-over",
    });
    await tf.config("nightly", {
      interval: 3600,
      retain: 1,
      path_prefix: "/var/snapshots",
      file_prefix: "vault-snapshot",
      storage_type: "local",
      local_max_space: 1073741824,
    });
    stateFile = join(work, "sdk-era.tfstate");
    writeFileSync(stateFile, tf.state("tfe-0.53-vault-5.9.tfstate.json", SECRETS));

    // The user's project: the stack and its settings (the services' addresses and tokens), no program yet.
    stack = suite.stack("yaml", "tf-sdk-era");
    stack.yamlProgram("");
    expect((await stack.preview()).ok).toBe(true);
  });

  test("an object the import cannot read (taken from the token between the command's read and the import): the run fails, puts the stack, its config and the project back as they were, and says that Terraform still manages every object", async () => {
    const scanner = `/api/v2/tasks/${tf.ids["task:scanner"]}`;
    let reads = 0;
    calls.answers.push((req) =>
      req.method === "GET" && req.path === scanner && ++reads > 1
        ? { status: 404, contentType: "application/vnd.api+json", body: { errors: [{ status: "404", title: "not found" }] } }
        : undefined,
    );
    const files = filesUnder(stack.programDir);
    const resources = stack.state().resources;
    suite.emulator.requests.reset();

    const run = await migrate(stack, [stateFile, "--stack", "dev", "--out", stack.programDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("the migration failed: `pulumi import --file` failed:");
    expect(run.stderr).toContain("Nothing was migrated: stack dev, its config and the project's files are as they were before the run.");
    expect(run.stderr).toContain(
      "Terraform still manages every object of the state: run no `terraform state rm` and add no `removed` block for them.",
    );
    expect(run.stdout).toContain("Did not migrate 6 Terraform object(s) to stack dev");
    expect(run.stdout + run.stderr).not.toMatch(/terraform state rm '|removed \{|^Migrated/m);
    const report = JSON.parse(readFileSync(join(stack.programDir, "migration-report.json"), "utf8"));
    expect([report.outcome, report.takenBack, report.terraformSide.stateRm, report.terraformSide.removedBlocks]).toEqual([
      "failed",
      { done: true, problems: [] },
      [],
      "",
    ]);
    // As before the run: its files (the stack's settings among them), the stack's state, the services.
    expect(filesUnder(stack.programDir).filter(([f]) => !f.endsWith("migration-report.json"))).toEqual(files);
    expect(stack.state().resources).toEqual(resources);
    expect(suite.emulator.requests.writes()).toBe(0);
    expectNoPlainSecret(SECRETS, stack, run);
  });

  test("the command imports every object, writes the program, and its preview shows no change", async () => {
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
    // An empty key: none, or a task Terraform imported without it. The report says so.
    expect(report.resources.find((r: any) => r.name === "legacy").notCarried).toEqual([
      { attribute: "hmac_key", why: expect.stringContaining("the task has no key, or Terraform imported it") },
    ]);
    expect(report.outcome).toBe("migrated");
    expect(run.stdout).toContain("Migrated 6 Terraform object(s) to stack dev");
    expect(run.stdout).toContain("The `terraform state rm` commands:\n  terraform state rm 'tfe_organization_run_task.scanner'\n");
    expect(report.terraformSide.stateRm).toContain("terraform state rm 'tfe_workspace_run_task.scanner_on[1]'");
    expect(report.terraformSide.removedBlocks).toContain(
      "removed {\n  from = tfe_workspace_run_task.scanner_on\n\n  lifecycle {\n    destroy = false\n  }\n}",
    );

    const program = readFileSync(join(stack.programDir, "Pulumi.yaml"), "utf8");
    expect(program).toContain("      hmacKey: ${scannerHmacKey}\n");
    expect(program).toContain("      taskId: ${scanner.id}\n");
    expect(program).toContain("      filePrefix: vault-snapshot\n");
    expect(program).toContain("      stages:\n        - pre_plan\n");
    // A KMS key the service ignores, held so: carried as it is, and the provider takes it.
    expect(program).toContain("      cloudAS3KmsKey: alias/left-over\n");
    expectNoPlainSecret(SECRETS, stack, run);
  });

  test("then the program is same, an up sends nothing, the service holds what it held; a second run is refused, into this stack or another of the backend", async () => {
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
    // Into another stack of the backend (another project's): refused too, naming the stack that manages the objects.
    const second = join(work, "second-stack");
    const other = await migrate(stack, [join(work, "sdk-era.tfstate"), "--stack", "prod", "--out", second, "--project", "tf-second"]);
    expect([other.code, other.stdout]).toEqual([2, ""]);
    expect(other.stderr).toContain(
      "tfe_organization_run_task.scanner: stack organization/tf-sdk-era/dev of the backend holds its object already (urn:pulumi:dev::tf-sdk-era::runtask:index:RunTask::scanner)",
    );
    expect(other.stderr.split("\n").filter((l) => l.includes("stack organization/tf-sdk-era/dev of the backend holds"))).toHaveLength(6);
    expect(existsSync(second)).toBe(false);
    const stacks = JSON.parse((await stack.cli(["stack", "ls", "--all", "--json", "-Q"], { stack: false })).stdout).map((s: any) => s.name);
    expect(stacks).toEqual(["organization/tf-sdk-era/dev"]);
    expect(filesUnder(stack.programDir)).toEqual(files);
    expect(stack.state().text).toBe(state);
  });
});

/** An emulator of its own for a scenario, credentials answered as `echo` says; the stack reaches it through the environment. */
async function emulatorAnswering(echo: false | "masked"): Promise<Emulator> {
  const base = scenarioEmulator();
  return startEmulator({ ...base, snapshot: { ...base.snapshot, echoCredentials: echo } });
}

/** The settings in the environment, as a pipeline gives them: the stack's config holds none. */
function settingsEnv(emulator: Emulator): NodeJS.ProcessEnv {
  return { RUNTASK_ADDR: emulator.url, RUNTASK_TOKEN, SERVICE_ADDR: emulator.url, SERVICE_TOKEN: DEFAULT_SNAPSHOT_TOKEN };
}

describe("a tfe v0.75 and vault v5.10 state (plugin framework era: write-only keys, modules, for_each), a service that hides credentials", () => {
  const SECRETS = {
    policyWriteOnlyKey: "hmac-canary-wo-3Kp9",
    ciScannerHmacKey: "hmac-canary-3Kp9",
    offsiteCloudAAccessKeyId: "AKIACANARY3KP9",
    offsiteWriteOnlySecret: "secret-canary-wo-3Kp9",
    gcsCloudCServiceAccountKey:
      JSON.stringify({
        type: "service_account",
        project_id: "raft",
        private_key_id: "key-canary-3Kp9",
        private_key: "-----BEGIN PRIVATE KEY-----\nMIIEcanary3Kp9\n-----END PRIVATE KEY-----\n",
        client_email: "snapshots@raft.iam.example.com",
      }) + "\n",
  };
  let emulator: Emulator;
  let stack: EngineStack;
  let tf: AsTerraform;

  beforeAll(async () => {
    emulator = await emulatorAnswering(false);
    tf = new AsTerraform(emulator);
    await tf.task("policy", { name: "policy", url: "https://policy.example.com/check", hmacKey: SECRETS.policyWriteOnlyKey });
    await tf.task("ci-scanner", {
      name: "ci-scanner",
      url: "https://hooks.example.com/ci-scan",
      description: "CI scanner",
      hmacKey: SECRETS.ciScannerHmacKey,
    });
    await tf.globalSettings("ci-scanner", { enabled: true, stages: ["pre_plan", "post_plan"], enforcementLevel: "mandatory" });
    await tf.attach("ci-scanner-app", "ci-scanner", "app", { enforcementLevel: "advisory", stages: ["post_plan"] });
    await tf.attach("ci-scanner-web", "ci-scanner", "web", { enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] });
    await tf.attach("policy-app", "policy", "app", { enforcementLevel: "mandatory", stages: ["post_plan"] });
    await tf.config("offsite", {
      interval: 21600,
      retain: 4,
      path_prefix: "raft",
      file_prefix: "raft",
      storage_type: "cloudA-s3",
      cloudA_s3_bucket: "snapshots",
      cloudA_s3_region: "eu-west-1",
      cloudA_access_key_id: SECRETS.offsiteCloudAAccessKeyId,
      cloudA_secret_access_key: SECRETS.offsiteWriteOnlySecret,
      cloudA_s3_enable_kms: true,
      cloudA_s3_kms_key: "alias/raft-snapshots",
    });
    await tf.config("gcs", {
      interval: 43200,
      retain: 1,
      path_prefix: "daily/",
      file_prefix: "vault-snapshot",
      storage_type: "cloudC-gcs",
      cloudC_gcs_bucket: "raft-snapshots",
      cloudC_service_account_key: SECRETS.gcsCloudCServiceAccountKey,
    });
    stack = suite.stack("yaml", "tf-framework-era", { config: {}, env: settingsEnv(emulator) });
  });

  afterAll(() => emulator?.close());

  test("an object deleted outside Terraform is refused, and nothing is made", async () => {
    const state = JSON.parse(tf.state("tfe-0.75-vault-5.10.tfstate.json", SECRETS));
    const policy = state.resources.find((r: any) => r.name === "policy");
    state.resources.push({
      ...policy,
      name: "gone",
      instances: [{ ...policy.instances[0], attributes: { ...policy.instances[0].attributes, id: "task-goneGONEgone0001", name: "gone" } }],
    });
    const file = join(work, "framework-era-gone.tfstate");
    writeFileSync(file, JSON.stringify(state));
    emulator.requests.reset();
    const run = await migrate(stack, [file, "--stack", "dev", "--out", stack.programDir]);
    expect(run.code).toBe(2);
    // Looked for in the organization the state names (the settings name none): gone, told from hidden.
    expect(run.stderr).toContain(
      "tfe_organization_run_task.gone: the service no longer holds it (task-goneGONEgone0001): it was deleted outside Terraform; run `terraform state rm 'tfe_organization_run_task.gone'`",
    );
    expect(run.stderr).not.toMatch(/RUNTASK_ORGANIZATION|pulumi state delete/);
    expect(emulator.requests.writes()).toBe(0);
    expect(readdirSync(stack.programDir)).toEqual([]);
    expect(stack.state().text).toBe("");
  });

  test("the command carries what Terraform holds, reports the write-only keys it cannot, and the preview shows no change", async () => {
    const file = join(work, "framework-era.tfstate");
    writeFileSync(file, tf.state("tfe-0.75-vault-5.10.tfstate.json", SECRETS));
    emulator.requests.reset();
    const run = await migrate(stack, [file, "--stack", "dev", "--out", stack.programDir]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(emulator.requests.writes()).toBe(0);
    const report = JSON.parse(readFileSync(join(stack.programDir, "migration-report.json"), "utf8"));
    expect(report.preview.noChanges).toBe(true);
    const entry = (address: string) => report.resources.find((r: any) => r.address === address);
    expect(entry("tfe_organization_run_task.policy").toSet).toEqual([
      expect.objectContaining({
        argument: "hmacKey",
        configKey: "policyHmacKey",
        command: expect.stringContaining("pulumi config set --secret --stack dev policyHmacKey"),
      }),
    ]);
    expect(entry("vault_raft_snapshot_agent_config.offsite").toSet).toEqual([expect.objectContaining({ argument: "cloudASecretAccessKey" })]);
    // A hiding service gives no credential: Terraform's are carried.
    // A JSON document would reach the plugin as an object from a YAML program: it is kept base64-encoded.
    expect(entry("vault_raft_snapshot_agent_config.gcs").secrets).toEqual([
      { argument: "cloudCServiceAccountKey", configKey: "gcsCloudCServiceAccountKeyBase64", from: "terraform state", encoding: "base64" },
    ]);
    expect(entry("module.ci.tfe_organization_run_task_global_settings.scanner")).toMatchObject({
      pulumiType: "runtask:index:RunTask",
      name: "ci-scanner",
      carried: { enabled: "global.enabled", stages: "global.stages", enforcement_level: "global.enforcementLevel" },
    });
    expect(entry('module.ci.tfe_workspace_run_task.scanner_on["web"]').name).toBe("ci-scanner_on-web");
    // Root-module resources get removed blocks; the module's, state rm commands.
    expect(report.terraformSide.removedBlocks).not.toContain("module.ci");
    expect(report.terraformSide.stateRm).toContain(`terraform state rm 'module.ci.tfe_workspace_run_task.scanner_on["app"]'`);

    const program = readFileSync(join(stack.programDir, "Pulumi.yaml"), "utf8");
    expect(program).toContain(
      "      global:\n        enabled: true\n        stages:\n          - pre_plan\n          - post_plan\n        enforcementLevel: mandatory\n",
    );
    expect(program).toContain("      taskId: ${ci-scanner.id}\n");
    expect(program).not.toContain("policyHmacKey");
    expect(program).toContain("      cloudCServiceAccountKey:\n        fn::fromBase64: ${gcsCloudCServiceAccountKeyBase64}\n");
    expectNoPlainSecret(SECRETS, stack, run);
  });

  test("then preview, up and refresh change nothing and write nothing; the service keeps the write-only keys", async () => {
    const before = JSON.stringify([emulator.runTask.tasks(), emulator.runTask.workspaceTasks(), [...emulator.snapshot.configs]]);
    emulator.requests.reset();
    const preview = await stack.preview();
    expect(opsByName(preview)).toEqual(
      Object.fromEntries(
        ["policy", "ci-scanner", "ci-scanner_on-app", "ci-scanner_on-web", "policy_on_app", "offsite", "gcs"].map((n) => [n, "same"]),
      ),
    );
    expect((await stack.up()).changes).toEqual({ same: 8 });
    expect((await stack.refresh()).ok).toBe(true);
    expect(Object.values(opsByName(await stack.preview())).every((op) => op === "same")).toBe(true);
    expect(emulator.requests.writes()).toBe(0);
    expect(JSON.stringify([emulator.runTask.tasks(), emulator.runTask.workspaceTasks(), [...emulator.snapshot.configs]])).toBe(before);
    expect(emulator.runTask.tasks().find((t) => t.name === "policy")?.hmacKey).toBe(SECRETS.policyWriteOnlyKey);
    for (const value of Object.values(SECRETS)) expect(stack.state().text).not.toContain(value);
  });
});

describe("a tfe v0.65 and vault v5.10 `terraform show -json` on standard input, a service that masks credentials, TypeScript", () => {
  const SECRETS = { scannerHmacKey: "hmac-canary-9Vb2", regional0BlobCloudBAccountKey: "account-key-canary-9Vb2==" };
  let emulator: Emulator;
  let stack: EngineStack;
  let tf: AsTerraform;
  let state: string;
  let host: string;

  beforeAll(async () => {
    emulator = await emulatorAnswering("masked");
    tf = new AsTerraform(emulator);
    await tf.task("scanner", {
      name: "scanner",
      url: "https://hooks.example.com/scan",
      description: "Scans every plan",
      hmacKey: SECRETS.scannerHmacKey,
    });
    await tf.attach("scanner-app", "scanner", "app", { enforcementLevel: "mandatory", stages: ["pre_apply"] });
    await tf.config("regional-blob", {
      interval: 7200,
      retain: 3,
      path_prefix: "eu/",
      file_prefix: "vault-snapshot",
      storage_type: "cloudB-blob",
      cloudB_container_name: "raft",
      cloudB_account_name: "raftsnapshots",
      cloudB_auth_mode: "shared",
      cloudB_account_key: SECRETS.regional0BlobCloudBAccountKey,
    });
    state = tf.state("tfe-0.65-vault-5.10.show.json", SECRETS);
    // A TypeScript project as its user has it: the plugins' SDKs installed, and the CLI with its Node.js language host.
    installPluginSdks(suite.project.dir, join(__dirname, "../.."));
    host = nodejsLanguageHostOnPath(join(work, "language-host"));
    stack = suite.stack("yaml", "tf-show-ts", {
      config: {},
      env: { ...settingsEnv(emulator), PATH: `${host}${delimiter}${process.env.PATH ?? ""}` },
    });
  });

  afterAll(() => emulator?.close());

  test("on a PATH without the Node.js language host, and the SDKs not where the program goes, the command is refused before anything is made", async () => {
    const out = join(work, "no-language-host");
    const path = stack.env.PATH!.split(delimiter).filter((dir) => dir !== host);
    emulator.requests.reset();
    const run = await runCommand(
      join(suite.project.binDir, "pulumi-snapshot-runtask"),
      ["migrate", "terraform", "-", "--stack", "dev", "--out", out, "--language", "typescript", "--leave-others"],
      { cwd: work, env: { ...stack.env, PATH: path.join(delimiter) }, input: state },
    );
    expect([run.code, run.stdout]).toEqual([2, ""]);
    expect(run.stderr).toContain("the migration was refused; nothing was made or written:\n");
    expect(run.stderr).toContain("has no Node.js language host: no `pulumi-language-nodejs` on PATH, beside the CLI or in its plugin cache");
    expect(run.stderr).toContain(
      `the TypeScript program needs pulumi-snapshot-runtask-runtask and pulumi-snapshot-runtask-snapshot, which do not resolve from ${out}`,
    );
    expect(existsSync(out)).toBe(false);
    expect(stack.state().text).toBe("");
    expect(emulator.requests.writes()).toBe(0);
  });

  test("a dry run reads, writes the program with import options and the report, and makes no stack", async () => {
    const dry = join(work, "dry-run");
    emulator.requests.reset();
    const run = await migrate(stack, ["-", "--stack", "dev", "--out", dry, "--language", "typescript", "--leave-others", "--dry-run"], state);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(emulator.requests.writes()).toBe(0);
    const report = JSON.parse(readFileSync(join(dry, "migration-report.json"), "utf8"));
    expect([report.dryRun, report.outcome, report.preview.ran, report.terraformSide.stateRm]).toEqual([true, "dry run", false, []]);
    // The SDKs do not resolve from that folder: a run there would be refused, and the dry run says so.
    expect(report.wouldRefuse).toEqual([expect.objectContaining({ problem: expect.stringContaining("the TypeScript program needs") })]);
    expect(run.stdout).toContain("A run without --dry-run would be refused, as things stand:\n  - the TypeScript program needs");
    expect(run.stdout).not.toContain("terraform state rm '");
    expect(report.leftToTerraform).toEqual([{ address: "tfe_workspace.app", why: "type tfe_workspace is not one this command migrates" }]);
    expect(readFileSync(join(dry, "index.ts"), "utf8")).toContain(`}, { protect: true, import: "${tf.ids["task:scanner"]}" });`);
    expect(stack.state().text).toBe("");
    expect(existsSync(join(dry, "Pulumi.dev.yaml"))).toBe(false);
  });

  test("the command writes a TypeScript program on the plugins' SDK, whose preview shows no change; an up writes nothing", async () => {
    emulator.requests.reset();
    const run = await migrate(
      stack,
      ["-", "--stack", "dev", "--out", stack.programDir, "--project", "tf-show-ts", "--language", "typescript", "--leave-others"],
      state,
    );
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(emulator.requests.writes()).toBe(0);
    const report = JSON.parse(readFileSync(join(stack.programDir, "migration-report.json"), "utf8"));
    expect(report.preview).toEqual({ ran: true, noChanges: true, note: "no changes" });
    // A masking service shows a placeholder: Terraform's key is carried.
    expect(report.resources.find((r: any) => r.name === "regional-0-blob").secrets).toEqual([
      { argument: "cloudBAccountKey", configKey: "regional0BlobCloudBAccountKey", from: "terraform state" },
    ]);
    const index = readFileSync(join(stack.programDir, "index.ts"), "utf8");
    expect(index).toContain(`import * as runtask from "pulumi-snapshot-runtask-runtask";`);
    expect(index).toContain(`  hmacKey: config.requireSecret("scannerHmacKey"),`);
    expect(index).toContain(`  taskId: scanner.id,`);

    expect(opsByName(await stack.preview())).toEqual({ scanner: "same", scanner_on_app: "same", "regional-0-blob": "same" });
    const up = await stack.up();
    expect(up.changes).toEqual({ same: 4 });
    expect(emulator.requests.writes()).toBe(0);
    expectNoPlainSecret(SECRETS, stack, run);
  });
});
