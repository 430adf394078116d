import { DEFAULT_SNAPSHOT_TOKEN, startEmulator, type Emulator } from "../../emulator";
import { suppliedInputs } from "../../migrate/importFile";
import { planMigration, type PlannedResource } from "../../migrate/plan";
import { readAtServices } from "../../migrate/serviceReads";
import { readTerraformState } from "../../migrate/terraformState";
import { emulatorStackConfig, RUNTASK_TOKEN } from "../support/emulatorStack";
import { scenarioEmulator } from "../support/engine/engineSuite";
import { AsTerraform } from "./support/asTerraform";

/**
 * The reads `migrate terraform` makes before anything is made, against the emulator over HTTP, through the provider
 * core: Terraform's values checked as a program's, each object read as the import will read it, and drift (the
 * service's value against Terraform's) reported, the service's value kept.
 */
let emulator: Emulator;
let tf: AsTerraform;

beforeAll(async () => {
  emulator = await startEmulator(scenarioEmulator());
  tf = new AsTerraform(emulator);
});

afterAll(() => emulator.close());

function planOf(resources: unknown[]): PlannedResource[] {
  const read = readTerraformState(JSON.stringify({ version: 4, serial: 1, lineage: "l", resources }));
  if ("refusals" in read) throw new Error(JSON.stringify(read.refusals));
  const planned = planMigration(read.state, { leaveOthers: false });
  if ("refusals" in planned) throw new Error(JSON.stringify(planned.refusals));
  return planned.plan.resources;
}

const taskResource = (id: string, attributes: Record<string, unknown>) => ({
  mode: "managed",
  type: "tfe_organization_run_task",
  name: "scanner",
  provider: 'provider["registry.terraform.io/hashicorp/tfe"]',
  instances: [
    { schema_version: 0, attributes: { category: "task", description: "", enabled: true, hmac_key: "", id, organization: "acme", ...attributes } },
  ],
});

const configResource = (attributes: Record<string, unknown>) => ({
  mode: "managed",
  type: "vault_raft_snapshot_agent_config",
  name: "offsite",
  provider: 'provider["registry.terraform.io/hashicorp/vault"]',
  instances: [{ schema_version: 0, attributes: { id: "offsite", name: "offsite", retain: 1, file_prefix: "vault-snapshot", ...attributes } }],
});

const lookup = (config: Record<string, string>) => (key: string) => config[key];

test("drift: where the service differs from Terraform, the service's value is reported and left to the read", async () => {
  await tf.task("drifted", { name: "drifted", url: "https://hooks.example.com/changed-outside", hmacKey: "hmac-1" });
  await tf.config("offsite", {
    interval: 3600,
    path_prefix: "raft/",
    file_prefix: "vault-snapshot",
    storage_type: "cloudA-s3",
    cloudA_s3_bucket: "snapshots",
    cloudA_s3_region: "eu-west-1",
    cloudA_secret_access_key: "rotated-outside",
  });
  const [task, config] = planOf([
    taskResource(tf.ids["task:drifted"], { name: "drifted", url: "https://hooks.example.com/scan", hmac_key: "hmac-1" }),
    configResource({
      interval_seconds: 3600,
      path_prefix: "raft/",
      storage_type: "aws-s3",
      aws_s3_bucket: "snapshots",
      aws_s3_region: "eu-west-1",
      aws_secret_access_key: "as-terraform-sent-it",
    }),
  ]);
  emulator.requests.reset();
  const { reads, refusals } = await readAtServices([task, config], lookup(emulatorStackConfig(emulator)));
  expect(refusals).toEqual([]);
  expect(emulator.requests.writes()).toBe(0);
  // The key the service never returns cannot be compared; a credential it returns can, and is never shown.
  expect(reads.get(task)!.drift).toEqual([
    { argument: "url", terraform: "https://hooks.example.com/scan", service: "https://hooks.example.com/changed-outside" },
  ]);
  expect(reads.get(config)!.drift).toEqual([{ argument: "cloudASecretAccessKey", terraform: "(secret)", service: "(secret, differs)" }]);
  expect(reads.get(config)!.returnedSecrets).toEqual(new Set(["cloudASecretAccessKey"]));
  expect(suppliedInputs(task, reads.get(task)!, {}).url).toBeUndefined();
  expect(reads.get(task)!.id).toBe(tf.ids["task:drifted"]);
});

test("Terraform values the package refuses, settings not set, and objects not there are refused", async () => {
  const [badUrl] = planOf([taskResource("task-notthere0000000", { name: "bad", url: "ftp://hooks.example.com/scan" })]);
  const [gone] = planOf([taskResource("task-notthere0000001", { name: "gone", url: "https://hooks.example.com/scan" })]);
  const config = { ...emulatorStackConfig(emulator) };
  const checked = await readAtServices([badUrl, gone], lookup(config));
  expect(checked.refusals.map((r) => [r.address, r.problem])).toEqual([
    [
      "tfe_organization_run_task.scanner",
      'the package refuses Terraform\'s values: url must be an http or https URL, got "ftp://hooks.example.com/scan"',
    ],
    ["tfe_organization_run_task.scanner", "the service no longer holds it (task-notthere0000001): it was deleted outside Terraform"],
  ]);
  expect(checked.refusals[1].fix).toContain("terraform state rm 'tfe_organization_run_task.scanner'");

  const unset = await readAtServices([gone], lookup({ "runtask:token": RUNTASK_TOKEN, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN }));
  expect(unset.refusals).toEqual([
    expect.objectContaining({
      problem: expect.stringContaining("run task service address is not set"),
      fix: expect.stringContaining("or the environment variable"),
    }),
  ]);
});

test("a task is looked for in the organization Terraform's state names: deleted there, it is told from one the token cannot see, with Terraform's advice", async () => {
  const { "runtask:organization": _, ...withoutOrganization } = emulatorStackConfig(emulator);
  const [deleted] = planOf([taskResource("task-notthere0000002", { name: "deleted", url: "https://hooks.example.com/scan" })]);
  const [elsewhere] = planOf([
    taskResource("task-notthere0000003", { name: "elsewhere", url: "https://hooks.example.com/scan", organization: "no-such-org" }),
  ]);
  const { refusals } = await readAtServices([deleted, elsewhere], lookup(withoutOrganization));
  expect(refusals[0].problem).toBe("the service no longer holds it (task-notthere0000002): it was deleted outside Terraform");
  // The organization answers 404 too: gone, or hidden from the token. No stack holds it: no advice about one.
  expect(refusals[1].problem).toContain('so does the task list of organization "no-such-org"');
  expect(refusals[1].problem).toContain(
    "If the organization is gone for certain, remove it from Terraform's state (`terraform state rm 'tfe_organization_run_task.scanner'`)",
  );
  expect(refusals.map((r) => `${r.problem} ${r.fix}`).join("\n")).not.toMatch(/pulumi state|RUNTASK_ORGANIZATION|runtask:organization/);
});

test("settings the spec allows though the service ignores them (a KMS key with KMS off, an account key with managed authentication) are read, not refused", async () => {
  await tf.config("kms-off", {
    interval: 3600,
    file_prefix: "vault-snapshot",
    path_prefix: "raft/",
    storage_type: "cloudA-s3",
    cloudA_s3_bucket: "snapshots",
    cloudA_s3_region: "eu-west-1",
    cloudA_s3_kms_key: "alias/left-over",
  });
  await tf.config("managed-blob", {
    interval: 3600,
    file_prefix: "vault-snapshot",
    path_prefix: "eu/",
    storage_type: "cloudB-blob",
    cloudB_container_name: "raft",
    cloudB_auth_mode: "managed",
    cloudB_account_key: "left-over-account-key",
  });
  const [kmsOff, managed] = planOf([
    {
      ...configResource({
        id: "kms-off",
        name: "kms-off",
        interval_seconds: 3600,
        path_prefix: "raft/",
        storage_type: "aws-s3",
        aws_s3_bucket: "snapshots",
        aws_s3_region: "eu-west-1",
        aws_s3_enable_kms: false,
        aws_s3_kms_key: "alias/left-over",
      }),
      name: "kms_off",
    },
    {
      ...configResource({
        id: "managed-blob",
        name: "managed-blob",
        interval_seconds: 3600,
        path_prefix: "eu/",
        storage_type: "azure-blob",
        azure_container_name: "raft",
        azure_auth_mode: "managed",
        azure_account_key: "left-over-account-key",
      }),
      name: "managed_blob",
    },
  ]);
  const { reads, refusals } = await readAtServices([kmsOff, managed], lookup(emulatorStackConfig(emulator)));
  expect(refusals).toEqual([]);
  expect([reads.get(kmsOff)!.drift, reads.get(managed)!.drift]).toEqual([[], []]);
});
