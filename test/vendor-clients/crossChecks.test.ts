import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { RUNTASK_TOKEN } from "../support/emulatorStack";
import { engineSuite, scenarioEmulator } from "../support/engine/engineSuite";
import { opsByName, type EngineStack, type ResourceSpec } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { runCommand } from "../migrate/support/asTerraform";
import { runVendorClients, type Target } from "./support/vendorClients";

/**
 * The package and the services' vendors' own clients on one service (the emulator, its snapshot service speaking the
 * vendor's names to the vendor's client as well), through the Pulumi CLI, one stack per scenario:
 * - objects go-tfe and Vault's client made, taken in by the provider with no diff and no write: `pulumi import` by
 *   every id form, `adopt` (which asserts what the service holds after, every field as set, the keys too), and
 *   `migrate terraform` from the state Terraform would have written for them;
 * - objects the provider made (and those it adopted) read back by the vendors' clients with every field as set, the
 *   HMAC keys, which no answer shows, checked in what the emulator holds.
 */
jest.setTimeout(900_000);

const base = scenarioEmulator(["app", "web", "network"]);
const suite = engineSuite({ emulator: { ...base, snapshot: { ...base.snapshot, vendorNames: true } } });

const ws = (name: string) => suite.emulator.runTask.workspace(name).id;
const target = (): Target => ({
  emulator: suite.emulator,
  organization: "acme",
  workspaces: [ws("app"), ws("web"), ws("network")],
  runTaskToken: RUNTASK_TOKEN,
  snapshotToken: DEFAULT_SNAPSHOT_TOKEN,
});

/** What `make` makes, in the clients' terms (Vault's in the vendor's names). */
interface Plan {
  tasks?: { key: string; name: string; url: string; description?: string; hmacKey?: string; enabled?: boolean; global?: Global }[];
  associations?: { key: string; task: string; workspace: string; enforcementLevel: string; stage?: string; stages?: string[] }[];
  configs?: { name: string; data: Record<string, unknown> }[];
}
interface Global {
  enabled: boolean;
  stages: string[];
  enforcementLevel: string;
}
const make = (plan: Plan) => runVendorClients<Record<string, string>>("make", target(), plan);

/** What the vendors' clients see of objects, by id (tasks, associations) and by name (configurations). */
interface Seen {
  tasks: Record<string, unknown>;
  associations: Record<string, unknown>;
  configs: Record<string, Record<string, unknown>>;
}
const read = (names: { tasks?: string[]; associations?: { workspace: string; id: string }[]; configs?: string[] }) =>
  runVendorClients<Seen>("read", target(), { tasks: [], associations: [], configs: [], ...names });

/** A task as go-tfe reads it (the key always null). */
const taskSeen = (t: { name: string; url: string; description?: string; enabled?: boolean; global?: Global }) => ({
  name: t.name,
  url: t.url,
  description: t.description ?? "",
  category: "task",
  enabled: t.enabled ?? true,
  hmacKey: null,
  global: t.global ?? { enabled: false, stages: [], enforcementLevel: "" },
  organization: "acme",
});

const keyOf = (id: string) => suite.emulator.runTask.tasks().find((t) => t.id === id)?.hmacKey;
const held = () => JSON.stringify([suite.emulator.runTask.tasks(), suite.emulator.runTask.workspaceTasks(), [...suite.emulator.snapshot.configs]]);

/** Every resource of the run `same`, as many as `count`. */
function expectAllSame(run: { steps: { urn: string; op: string }[] }, count: number): void {
  const ops = opsByName(run as never);
  expect(ops).toEqual(Object.fromEntries(Object.keys(ops).map((name) => [name, "same"])));
  expect(Object.keys(ops)).toHaveLength(count);
}

test("made by the vendors' clients, imported by every id form: the program that declares them changes nothing and writes nothing", async () => {
  const global = { enabled: true, stages: ["pre_plan", "post_plan"], enforcementLevel: "mandatory" };
  const ids = await make({
    tasks: [
      {
        key: "scanner",
        name: "vendor-scanner",
        url: "https://hooks.example.com/scan",
        description: "Made by go-tfe",
        hmacKey: "vendor-key-1",
        global,
      },
      { key: "audit", name: "vendor-audit", url: "https://hooks.example.com/audit", enabled: false },
    ],
    associations: [
      { key: "scanner-app", task: "scanner", workspace: ws("app"), enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] },
      { key: "scanner-web", task: "scanner", workspace: ws("web"), enforcementLevel: "advisory", stage: "pre_apply" },
      { key: "audit-app", task: "audit", workspace: ws("app"), enforcementLevel: "advisory" },
    ],
    configs: [
      { name: "vendor-local", data: { interval: "24h", path_prefix: "/var/snapshots", storage_type: "local", local_max_space: 1000000 } },
      {
        name: "vendor-s3",
        data: {
          interval: 3600,
          retain: 7,
          path_prefix: "raft/",
          storage_type: "aws-s3",
          aws_s3_bucket: "snapshots",
          aws_s3_region: "eu-west-1",
          aws_access_key_id: "AKIAVENDOR1",
          aws_secret_access_key: "vendor-secret-1",
          aws_s3_force_path_style: true,
        },
      },
    ],
  });

  const stack = suite.stack("yaml", "vendor-import");
  stack.yamlProgram("");
  expect((await stack.preview()).ok).toBe(true);
  const file = join(stack.work, "import.json");
  const imports = [
    ["runtask:index:RunTask", "scanner", ids["task:scanner"]],
    ["runtask:index:RunTask", "audit", "acme/vendor-audit"],
    ["runtask:index:WorkspaceRunTask", "scanner-app", `${ws("app")}/${ids["wstask:scanner-app"]}`],
    ["runtask:index:WorkspaceRunTask", "scanner-web", `${ws("web")}/vendor-scanner`],
    ["runtask:index:WorkspaceRunTask", "audit-app", `${ws("app")}/${ids["task:audit"]}`],
    ["snapshot:index:SnapshotAutoConfig", "vendor-local", "vendor-local"],
    ["snapshot:index:SnapshotAutoConfig", "vendor-s3", "vendor-s3"],
  ];
  writeFileSync(file, JSON.stringify({ resources: imports.map(([type, name, id]) => ({ type, name, id })) }));
  suite.emulator.requests.reset();
  const imported = await stack.cli(["import", "--file", file, "--yes", "--generate-code=false", "--protect=false"]);
  expect([imported.code, imported.stderr]).toEqual([0, ""]);
  expect(suite.emulator.requests.writes()).toBe(0);

  stack.yamlProgram(`resources:
  scanner:
    type: runtask:index:RunTask
    properties:
      name: vendor-scanner
      url: https://hooks.example.com/scan
      description: Made by go-tfe
      global:
        enabled: true
        stages: [pre_plan, post_plan]
        enforcementLevel: mandatory
  audit:
    type: runtask:index:RunTask
    properties:
      name: vendor-audit
      url: https://hooks.example.com/audit
      enabled: false
  scanner-app:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${ws("app")}
      taskId: \${scanner.id}
      enforcementLevel: mandatory
      stages: [pre_plan, post_plan]
  scanner-web:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${ws("web")}
      taskId: \${scanner.id}
      enforcementLevel: advisory
      stages: [pre_apply]
  audit-app:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${ws("app")}
      taskId: \${audit.id}
      enforcementLevel: advisory
  vendor-local:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      name: vendor-local
      interval: 24h
      pathPrefix: /var/snapshots
      filePrefix: vault-snapshot
      storageType: local
      localMaxSpace: 1000000
  vendor-s3:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      name: vendor-s3
      interval: 3600
      retain: 7
      pathPrefix: raft/
      filePrefix: vault-snapshot
      storageType: cloudA-s3
      cloudAS3Bucket: snapshots
      cloudAS3Region: eu-west-1
      cloudAAccessKeyId: AKIAVENDOR1
      cloudASecretAccessKey: vendor-secret-1
      cloudAS3ForcePathStyle: true
`);
  const before = held();
  expectAllSame(await stack.preview(), 7);
  suite.emulator.requests.reset();
  const up = await stack.up();
  expect(up.changes).toEqual({ same: 8 });
  expect(suite.emulator.requests.writes()).toBe(0);
  expect(held()).toBe(before);
  expect(keyOf(ids["task:scanner"])).toBe("vendor-key-1");
  expectServiceMatchesState(suite.emulator, stack);
  expect((await stack.destroy()).ok).toBe(true);
});

test("made by the vendors' clients and adopted, made by the provider beside them: the service holds every field as set, and the vendors' clients read it back so", async () => {
  const adoptedGlobal = { enabled: true, stages: ["post_plan"], enforcementLevel: "advisory" };
  const ids = await make({
    tasks: [
      {
        key: "scanner",
        name: "adopt-scanner",
        url: "https://hooks.example.com/scan",
        description: "Made by go-tfe",
        hmacKey: "vendor-key-2",
        global: adoptedGlobal,
      },
    ],
    associations: [{ key: "scanner-network", task: "scanner", workspace: ws("network"), enforcementLevel: "advisory", stages: ["post_plan"] }],
    configs: [
      {
        name: "adopt-gcs",
        data: {
          interval: "12h",
          path_prefix: "raft/",
          storage_type: "google-gcs",
          google_gcs_bucket: "snapshots",
          google_service_account_key: '{"type":"vendor"}',
        },
      },
    ],
  });

  const oursGlobal = { enabled: true, stages: ["pre_plan", "post_apply"], enforcementLevel: "mandatory" };
  const resources: ResourceSpec[] = [
    {
      type: "RunTask",
      name: "adopted",
      args: {
        name: "adopt-scanner",
        url: "https://hooks.example.com/scan",
        description: "Made by go-tfe",
        hmacKey: "vendor-key-2",
        global: adoptedGlobal,
        adopt: true,
      },
      secretArgs: ["hmacKey"],
    },
    {
      type: "WorkspaceRunTask",
      name: "adopted-on-network",
      args: { workspaceId: ws("network"), taskId: { $ref: "adopted" }, enforcementLevel: "advisory", stages: ["post_plan"], adopt: true },
    },
    {
      type: "SnapshotAutoConfig",
      name: "adopted-gcs",
      args: {
        name: "adopt-gcs",
        interval: "12h",
        pathPrefix: "raft/",
        filePrefix: "vault-snapshot",
        storageType: "cloudC-gcs",
        cloudCGcsBucket: "snapshots",
        cloudCServiceAccountKey: '{"type":"vendor"}',
        adopt: true,
      },
      secretArgs: ["cloudCServiceAccountKey"],
    },
    {
      type: "RunTask",
      name: "ours",
      args: {
        name: "ours-scanner",
        url: "https://hooks.example.com/ours",
        description: "Made by the provider",
        hmacKey: "our-key-1",
        enabled: false,
        global: oursGlobal,
      },
      secretArgs: ["hmacKey"],
    },
    {
      type: "WorkspaceRunTask",
      name: "ours-on-web",
      args: { workspaceId: ws("web"), taskId: { $ref: "ours" }, enforcementLevel: "mandatory", stages: ["pre_plan", "post_apply"] },
    },
    {
      type: "SnapshotAutoConfig",
      name: "ours-s3",
      args: {
        interval: "6h",
        retain: 3,
        pathPrefix: "raft/",
        filePrefix: "ours",
        storageType: "cloudA-s3",
        cloudAS3Bucket: "snapshots",
        cloudAS3Region: "us-east-1",
        cloudAAccessKeyId: "AKIAOURS1",
        cloudASecretAccessKey: "our-secret-1",
        cloudASessionToken: "our-session-1",
        cloudAS3Endpoint: "https://s3.example.com",
        cloudAS3ForcePathStyle: true,
      },
      secretArgs: ["cloudAAccessKeyId", "cloudASecretAccessKey", "cloudASessionToken"],
    },
    {
      type: "SnapshotAutoConfig",
      name: "ours-blob",
      args: {
        interval: 600,
        pathPrefix: "raft/",
        storageType: "cloudB-blob",
        cloudBContainerName: "snapshots",
        cloudBAccountName: "account",
        cloudBAuthMode: "shared",
        cloudBAccountKey: "our-account-key-1",
      },
      secretArgs: ["cloudBAccountKey"],
    },
    {
      type: "SnapshotAutoConfig",
      name: "ours-local",
      args: { interval: 3600, pathPrefix: "/var/snapshots", storageType: "local", localMaxSpace: 1000000 },
    },
  ];
  const stack: EngineStack = suite.stack("inline", "vendor-adopt");
  stack.program({ resources });
  const up = await stack.up();
  expect(up.error).toBeUndefined();
  expectServiceMatchesState(suite.emulator, stack);

  // What the service holds: the adopted objects as the program gives them (the key too), ours as made.
  const tasks = Object.fromEntries(suite.emulator.runTask.tasks().map((t) => [t.name, t]));
  const oursId = tasks["ours-scanner"].id;
  expect(tasks["adopt-scanner"].id).toBe(ids["task:scanner"]);
  expect(tasks["adopt-scanner"]).toMatchObject({
    url: "https://hooks.example.com/scan",
    description: "Made by go-tfe",
    enabled: true,
    hmacKey: "vendor-key-2",
  });
  expect(tasks["adopt-scanner"].global).toEqual({ enabled: true, stages: ["post_plan"], enforcementLevel: "advisory" });
  expect(tasks["ours-scanner"]).toMatchObject({
    url: "https://hooks.example.com/ours",
    description: "Made by the provider",
    enabled: false,
    hmacKey: "our-key-1",
  });
  const associations = suite.emulator.runTask.workspaceTasks();
  expect(associations.find((a) => a.id === ids["wstask:scanner-network"])).toMatchObject({ enforcementLevel: "advisory", stages: ["post_plan"] });
  const oursOnWeb = associations.find((a) => a.taskId === oursId)!;
  expect(oursOnWeb).toMatchObject({ workspaceId: ws("web"), enforcementLevel: "mandatory", stages: ["pre_plan", "post_apply"] });

  // Read back by the vendors' clients, every field as set.
  const seen = await read({
    tasks: [ids["task:scanner"], oursId],
    associations: [
      { workspace: ws("network"), id: ids["wstask:scanner-network"] },
      { workspace: ws("web"), id: oursOnWeb.id },
    ],
    configs: ["adopt-gcs", "ours-s3", "ours-blob", "ours-local"],
  });
  expect(seen.tasks).toEqual({
    [ids["task:scanner"]]: taskSeen({
      name: "adopt-scanner",
      url: "https://hooks.example.com/scan",
      description: "Made by go-tfe",
      global: adoptedGlobal,
    }),
    [oursId]: taskSeen({
      name: "ours-scanner",
      url: "https://hooks.example.com/ours",
      description: "Made by the provider",
      enabled: false,
      global: oursGlobal,
    }),
  });
  expect(seen.associations).toEqual({
    [ids["wstask:scanner-network"]]: {
      enforcementLevel: "advisory",
      stage: "post_plan",
      stages: ["post_plan"],
      task: ids["task:scanner"],
      workspace: ws("network"),
    },
    [oursOnWeb.id]: { enforcementLevel: "mandatory", stage: "pre_plan", stages: ["pre_plan", "post_apply"], task: oursId, workspace: ws("web") },
  });
  expect(seen.configs).toEqual({
    "adopt-gcs": {
      interval: 43200,
      retain: 1,
      path_prefix: "raft/",
      file_prefix: "vault-snapshot",
      storage_type: "google-gcs",
      google_gcs_bucket: "snapshots",
      google_service_account_key: '{"type":"vendor"}',
    },
    "ours-s3": {
      interval: 21600,
      retain: 3,
      path_prefix: "raft/",
      file_prefix: "ours",
      storage_type: "aws-s3",
      aws_s3_bucket: "snapshots",
      aws_s3_region: "us-east-1",
      aws_access_key_id: "AKIAOURS1",
      aws_secret_access_key: "our-secret-1",
      aws_session_token: "our-session-1",
      aws_s3_endpoint: "https://s3.example.com",
      aws_s3_force_path_style: true,
    },
    "ours-blob": {
      interval: 600,
      retain: 1,
      path_prefix: "raft/",
      file_prefix: "service-snapshot",
      storage_type: "azure-blob",
      azure_container_name: "snapshots",
      azure_account_name: "account",
      azure_auth_mode: "shared",
      azure_account_key: "our-account-key-1",
    },
    "ours-local": {
      interval: 3600,
      retain: 1,
      path_prefix: "/var/snapshots",
      file_prefix: "service-snapshot",
      storage_type: "local",
      local_max_space: 1000000,
    },
  });

  // The next up: nothing to do, nothing sent.
  suite.emulator.requests.reset();
  expect((await stack.up()).changes).toEqual({ same: 9 });
  expect(suite.emulator.requests.writes()).toBe(0);
  expect((await stack.destroy()).ok).toBe(true);
  expect(suite.emulator.runTask.tasks()).toEqual([]);
});

test("a stack on the vendors' settings alone (VAULT_ADDR, VAULT_TOKEN, terraform login's credentials file): up, and --debug names each source, never a token", async () => {
  const home = mkdtempSync(join(tmpdir(), "vendor-settings-home-"));
  try {
    const host = new URL(suite.emulator.url).host;
    mkdirSync(join(home, ".terraform.d"));
    writeFileSync(join(home, ".terraform.d/credentials.tfrc.json"), JSON.stringify({ credentials: { [host]: { token: RUNTASK_TOKEN } } }));
    const stack = suite.stack("yaml", "vendor-settings", {
      config: { "runtask:address": suite.emulator.url, "runtask:organization": "acme" },
      secretKeys: [],
      env: {
        HOME: home,
        VAULT_ADDR: suite.emulator.url,
        VAULT_TOKEN: DEFAULT_SNAPSHOT_TOKEN,
        SERVICE_ADDR: "",
        SERVICE_TOKEN: "",
        RUNTASK_TOKEN: "",
      },
    });
    stack.yamlProgram(`resources:
  scanner:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/settings
  nightly:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      interval: 24h
      storageType: local
      pathPrefix: /var/snapshots
      localMaxSpace: 1000000
`);
    const up = await stack.up({ debug: true });
    expect(up.error).toBeUndefined();
    expect(up.changes).toEqual({ create: 3 });
    expect(up.output).toContain(
      `run task service: ${suite.emulator.url}; address from runtask:address, token from ~/.terraform.d/credentials.tfrc.json (credentials "${host}")`,
    );
    expect(up.output).toContain(`snapshot service: ${suite.emulator.url}; address from VAULT_ADDR, token from VAULT_TOKEN`);
    for (const token of [RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN]) expect(up.output).not.toContain(token);
    expectServiceMatchesState(suite.emulator, stack);
    expect((await stack.destroy()).ok).toBe(true);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

// Last: its stack keeps what it imported (protected, as `pulumi import` leaves it).
test("made by the vendors' clients, moved from the state Terraform would have written for them: migrate terraform, then no change and no write", async () => {
  const global = { enabled: true, stages: ["pre_plan"], enforcementLevel: "mandatory" };
  const ids = await make({
    tasks: [
      { key: "scanner", name: "tf-scanner", url: "https://hooks.example.com/tf", description: "Made by go-tfe", hmacKey: "vendor-key-3", global },
    ],
    associations: [{ key: "scanner-web", task: "scanner", workspace: ws("web"), enforcementLevel: "advisory", stages: ["pre_plan", "post_plan"] }],
    configs: [
      {
        name: "tf-offsite",
        data: {
          interval: 21600,
          retain: 4,
          path_prefix: "raft/",
          storage_type: "aws-s3",
          aws_s3_bucket: "snapshots",
          aws_s3_region: "eu-west-1",
          aws_access_key_id: "AKIAVENDOR3",
          aws_secret_access_key: "vendor-secret-3",
        },
      },
    ],
  });
  const state = terraformState(ids, ws("web"));
  const stack = suite.stack("yaml", "vendor-migrate");
  stack.yamlProgram("");
  expect((await stack.preview()).ok).toBe(true);
  const stateFile = join(stack.work, "terraform.tfstate");
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  const before = held();
  suite.emulator.requests.reset();
  const run = await runCommand(
    join(suite.project.binDir, "pulumi-snapshot-runtask"),
    ["migrate", "terraform", stateFile, "--stack", "dev", "--out", stack.programDir],
    {
      cwd: stack.work,
      env: stack.env,
    },
  );
  expect([run.code, run.stderr]).toEqual([0, ""]);
  for (const secret of ["vendor-key-3", "vendor-secret-3"]) expect(run.stdout).not.toContain(secret);
  expect(suite.emulator.requests.writes()).toBe(0);

  expectAllSame(await stack.preview(), 3);
  suite.emulator.requests.reset();
  expect((await stack.up()).changes).toEqual({ same: 4 });
  expect(suite.emulator.requests.writes()).toBe(0);
  expect(held()).toBe(before);
  expect(keyOf(ids["task:scanner"])).toBe("vendor-key-3");
  expectServiceMatchesState(suite.emulator, stack);
});

/**
 * The state terraform-provider-tfe (v0.75) and terraform-provider-vault (v5.10) write for the objects above, as
 * `terraform state pull` gives it: their ids, the key and the credentials as Terraform last sent them.
 */
function terraformState(ids: Record<string, string>, webId: string): unknown {
  const task = ids["task:scanner"];
  const instance = (attributes: Record<string, unknown>, sensitive: string[] = [], schemaVersion = 0) => ({
    schema_version: schemaVersion,
    attributes,
    sensitive_attributes: sensitive.map((value) => [{ type: "get_attr", value }]),
  });
  const resource = (type: string, name: string, provider: string, ...instances: unknown[]) => ({
    mode: "managed",
    type,
    name,
    provider: `provider["registry.terraform.io/hashicorp/${provider}"]`,
    instances,
  });
  const unset = (names: string[]) => Object.fromEntries(names.map((n) => [n, null]));
  return {
    version: 4,
    terraform_version: "1.12.2",
    serial: 7,
    lineage: "0c2b9d4e-5f61-4a7b-8c9d-0e1f2a3b4c5d",
    outputs: {},
    resources: [
      resource(
        "tfe_organization_run_task",
        "scanner",
        "tfe",
        instance(
          {
            category: "task",
            description: "Made by go-tfe",
            enabled: true,
            hmac_key: "vendor-key-3",
            hmac_key_wo: null,
            hmac_key_wo_version: null,
            id: task,
            name: "tf-scanner",
            organization: "acme",
            url: "https://hooks.example.com/tf",
          },
          ["hmac_key", "hmac_key_wo"],
        ),
      ),
      resource(
        "tfe_organization_run_task_global_settings",
        "scanner",
        "tfe",
        instance({ enabled: true, enforcement_level: "mandatory", id: task, stages: ["pre_plan"], task_id: task }),
      ),
      resource(
        "tfe_workspace_run_task",
        "scanner_web",
        "tfe",
        instance(
          {
            enforcement_level: "advisory",
            id: ids["wstask:scanner-web"],
            stage: "pre_plan",
            stages: ["pre_plan", "post_plan"],
            task_id: task,
            workspace_id: webId,
          },
          [],
          1,
        ),
      ),
      resource(
        "vault_raft_snapshot_agent_config",
        "offsite",
        "vault",
        instance(
          {
            ...unset([
              "autoload_enabled",
              "aws_s3_disable_tls",
              "aws_s3_enable_kms",
              "aws_s3_endpoint",
              "aws_s3_force_path_style",
              "aws_s3_kms_key",
              "aws_s3_server_side_encryption",
              "aws_secret_access_key_wo",
              "aws_session_token",
              "azure_account_key",
              "azure_account_name",
              "azure_auth_mode",
              "azure_blob_environment",
              "azure_client_id",
              "azure_container_name",
              "azure_endpoint",
              "google_disable_tls",
              "google_endpoint",
              "google_gcs_bucket",
              "google_service_account_key",
              "local_max_space",
              "namespace",
              "secrets_wo_version",
            ]),
            aws_access_key_id: "AKIAVENDOR3",
            aws_s3_bucket: "snapshots",
            aws_s3_region: "eu-west-1",
            aws_secret_access_key: "vendor-secret-3",
            file_prefix: "vault-snapshot",
            id: "tf-offsite",
            interval_seconds: 21600,
            name: "tf-offsite",
            path_prefix: "raft/",
            retain: 4,
            storage_type: "aws-s3",
          },
          ["aws_secret_access_key", "aws_secret_access_key_wo"],
        ),
      ),
    ],
  };
}
