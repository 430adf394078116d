import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../migrate/cli";

/**
 * The refusals `migrate terraform` makes before it runs any `pulumi` command or reads any service: each names the
 * Terraform address and the fix, the run exits 2, and nothing is made or written (the --out folder is not even made).
 * Those that need the CLI or a service (a stack holding the objects already, an object deleted outside Terraform)
 * are in terraformMigration.test.ts, through the engine.
 */
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "migrate-refusals-"));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

const TFE = 'provider["registry.terraform.io/hashicorp/tfe"]';
const VAULT = 'provider["registry.terraform.io/hashicorp/vault"]';

const task = (id = "task-aaaaaaaaaaaaaaa1", extra: Record<string, unknown> = {}) => ({
  mode: "managed",
  type: "tfe_organization_run_task",
  name: "scanner",
  provider: TFE,
  instances: [
    {
      schema_version: 0,
      attributes: {
        category: "task",
        description: "",
        enabled: true,
        hmac_key: "",
        id,
        name: "scanner",
        organization: "acme",
        url: "https://hooks.example.com/scan",
      },
      sensitive_attributes: [],
      ...extra,
    },
  ],
});

const config = (attributes: Record<string, unknown>) => ({
  mode: "managed",
  type: "vault_raft_snapshot_agent_config",
  name: "nightly",
  provider: VAULT,
  instances: [
    {
      schema_version: 0,
      attributes: {
        id: "nightly",
        name: "nightly",
        namespace: null,
        interval_seconds: 3600,
        retain: 1,
        path_prefix: "/var/snapshots",
        file_prefix: "vault-snapshot",
        storage_type: "local",
        local_max_space: 1000000,
        autoload_enabled: null,
        ...attributes,
      },
      sensitive_attributes: [],
    },
  ],
});

const state = (...resources: unknown[]) =>
  JSON.stringify({ version: 4, terraform_version: "1.9.8", serial: 1, lineage: "l", outputs: {}, resources });

let n = 0;

/** Runs the command in this process on `text`; what it printed and its exit status, and whether --out was made. */
async function refusedWith(text: string, args: string[] = [], out = join(work, `out-${++n}`)) {
  const file = join(work, `state-${n}.json`);
  writeFileSync(file, text);
  let stdout = "";
  let stderr = "";
  const code = await main(
    ["migrate", "terraform", file, "--stack", "dev", "--out", out, ...args],
    (t) => (stdout += t),
    (t) => (stderr += t),
  );
  return { code, stdout, stderr, outMade: existsSync(out) && readdirSync(out).length > 0 };
}

const REFUSED = "the migration was refused; nothing was made or written:\n";

test.each([
  ["not JSON", 'provider "tfe" {}', "  - the input is not JSON"],
  ["empty", "", "  - the input is empty; pull it with `terraform state pull > state.json`"],
  [
    "encrypted",
    JSON.stringify({ serial: 3, lineage: "l", meta: {}, encrypted_data: "AAAA", encryption_version: "v0" }),
    "  - the state is encrypted (Terraform state encryption)",
  ],
  [
    "of format version 3",
    JSON.stringify({ version: 3, modules: [] }),
    "  - the state file is of format version 3; this command reads version 4; upgrade it with Terraform 0.12 or later",
  ],
  [
    "a plan's show -json",
    JSON.stringify({ format_version: "1.2", planned_values: {}, resource_changes: [] }),
    "  - this is `terraform show -json` of a plan, not of a state",
  ],
  [
    "show -json of format 2",
    JSON.stringify({ format_version: "2.0", values: {} }),
    "  - `terraform show -json` output of format version 2.0; this command reads 1.x",
  ],
  [
    "nothing to migrate",
    state({ mode: "data", type: "tfe_workspace", name: "app", provider: TFE, instances: [{ schema_version: 0, attributes: { id: "ws-1" } }] }),
    "  - the state holds no object of the types this command migrates",
  ],
])("a state that is %s", async (_what, text, message) => {
  const run = await refusedWith(text);
  expect([run.code, run.outMade, run.stdout]).toEqual([2, false, ""]);
  expect(run.stderr.startsWith(REFUSED)).toBe(true);
  expect(run.stderr).toContain(message);
});

test.each([
  [
    "a type this command does not migrate",
    state(task(), {
      mode: "managed",
      type: "tfe_workspace",
      name: "app",
      provider: TFE,
      instances: [{ schema_version: 1, attributes: { id: "ws-1" } }],
    }),
    "tfe_workspace.app: type tfe_workspace is not one this command migrates (tfe_organization_run_task, tfe_organization_run_task_global_settings, tfe_workspace_run_task, vault_raft_snapshot_agent_config); pass --leave-others",
  ],
  ["a deposed object", state(task(undefined, { deposed: "0a1b2c3d" })), "tfe_organization_run_task.scanner: it is a deposed object (0a1b2c3d)"],
  [
    "a tainted object",
    state(task(undefined, { status: "tainted" })),
    "tfe_organization_run_task.scanner: it is tainted: Terraform would replace it at its next apply; run `terraform untaint 'tfe_organization_run_task.scanner'`",
  ],
  [
    "a schema version newer than the known ones",
    state(task(), {
      mode: "managed",
      type: "tfe_workspace_run_task",
      name: "on_app",
      provider: TFE,
      instances: [
        { schema_version: 2, attributes: { id: "wstask-1", workspace_id: "ws-1", task_id: "task-aaaaaaaaaaaaaaa1", enforcement_level: "advisory" } },
      ],
    }),
    "tfe_workspace_run_task.on_app: its schema version 2 is newer than the ones this command knows for tfe_workspace_run_task (0, 1)",
  ],
  [
    "an association without its workspace",
    state(task(), {
      mode: "managed",
      type: "tfe_workspace_run_task",
      name: "on_app",
      provider: TFE,
      instances: [
        { schema_version: 1, attributes: { id: "wstask-1", workspace_id: null, task_id: "task-aaaaaaaaaaaaaaa1", enforcement_level: "advisory" } },
      ],
    }),
    "tfe_workspace_run_task.on_app: it has no `workspace_id` (the workspace's ws-... id), which the import needs; run `terraform apply -refresh-only`",
  ],
  ["a task without its id", state(task("")), "tfe_organization_run_task.scanner: it has no `id` (the task's task-... id)"],
  [
    "two Terraform resources on one task",
    state(task(), { ...task(), name: "scanner_again" }),
    "tfe_organization_run_task.scanner: tfe_organization_run_task.scanner_again manages the same object (task-aaaaaaaaaaaaaaa1)",
  ],
  [
    "global settings whose task is not in the state",
    state({
      mode: "managed",
      type: "tfe_organization_run_task_global_settings",
      name: "scanner",
      provider: TFE,
      instances: [
        {
          schema_version: 0,
          attributes: {
            id: "task-bbbbbbbbbbbbbbb2",
            task_id: "task-bbbbbbbbbbbbbbb2",
            enabled: true,
            enforcement_level: "advisory",
            stages: ["post_plan"],
          },
        },
      ],
    }),
    "tfe_organization_run_task_global_settings.scanner: its task task-bbbbbbbbbbbbbbb2 is not in this migration",
  ],
  [
    "a snapshot configuration in another namespace",
    state(config({ namespace: "team-a" })),
    'vault_raft_snapshot_agent_config.nightly: it is in namespace "team-a", and the automated snapshot endpoints are served from the root namespace only',
  ],
  [
    "autoload, which the spec has no field for",
    state(config({ autoload_enabled: true })),
    "vault_raft_snapshot_agent_config.nightly: autoload_enabled is true, and the spec has no field for it",
  ],
  [
    "an authentication mode the spec does not have",
    state(
      config({ storage_type: "azure-blob", path_prefix: "eu/", azure_container_name: "raft", azure_auth_mode: "environment", local_max_space: null }),
    ),
    'vault_raft_snapshot_agent_config.nightly: azure_auth_mode is "environment", and the spec\'s cloudB_auth_mode is "shared" or "managed" only',
  ],
  [
    "attributes of Terraform before 0.12",
    state({ ...task(), instances: [{ schema_version: 0, attributes_flat: { id: "task-aaaaaaaaaaaaaaa1" } }] }),
    "tfe_organization_run_task.scanner: its attributes are stored only in the flat form of Terraform before 0.12",
  ],
])("an object that is %s", async (_what, text, message) => {
  const run = await refusedWith(text);
  expect([run.code, run.outMade, run.stdout]).toEqual([2, false, ""]);
  expect(run.stderr.startsWith(REFUSED)).toBe(true);
  expect(run.stderr).toContain(`  - ${message}`);
});

test("every refusal of a state is told at once", async () => {
  const run = await refusedWith(state(task(undefined, { status: "tainted" }), config({ namespace: "team-a", autoload_enabled: true })));
  expect(run.stderr.split("\n").filter((l) => l.startsWith("  - "))).toHaveLength(3);
});

test("--leave-others leaves other types to Terraform; --out holding a program is refused", async () => {
  const out = join(work, "with-program");
  mkdirSync(out);
  writeFileSync(join(out, "Pulumi.yaml"), "name: mine\nruntime: yaml\nresources:\n  bucket:\n    type: aws:s3:Bucket\n");
  const run = await refusedWith(
    state(task(), {
      mode: "managed",
      type: "tfe_workspace",
      name: "app",
      provider: TFE,
      instances: [{ schema_version: 1, attributes: { id: "ws-1" } }],
    }),
    ["--leave-others"],
    out,
  );
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`  - --out ${out} holds a program already; the migration writes the program of the stack; give a new folder`);
  expect(readdirSync(out)).toEqual(["Pulumi.yaml"]);
});

test("a project of another runtime is refused", async () => {
  const out = join(work, "nodejs-project");
  mkdirSync(out);
  writeFileSync(join(out, "Pulumi.yaml"), "name: mine\nruntime: nodejs\n");
  const run = await refusedWith(state(task()), [], out);
  expect(run.stderr).toContain(`is a project of runtime nodejs, not yaml; give --language to match it`);
});

test("--version prints the package's version", async () => {
  let stdout = "";
  const code = await main(
    ["--version"],
    (t) => (stdout += t),
    () => undefined,
  );
  expect([code, stdout]).toEqual([0, `pulumi-snapshot-runtask ${JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")).version}\n`]);
});

test.each([
  [["migrate", "terraform", "state.json"], "give the stack to import into: --stack <name>"],
  [["migrate", "terraform"], "give the state: a file, or - for standard input"],
  [["migrate", "terraform", "s.json", "--stack", "dev", "--language", "python"], "--language is yaml or typescript, not python"],
  [["import", "terraform", "s.json", "--stack", "dev"], "the command is `migrate terraform`"],
  [["migrate", "terraform", "/no/such/state.json", "--stack", "dev"], "ENOENT: no such file or directory"],
])("usage: %j", async (argv, message) => {
  let stderr = "";
  const code = await main(
    argv,
    () => undefined,
    (t) => (stderr += t),
  );
  expect([code, stderr]).toEqual([2, expect.stringContaining(message)]);
});
