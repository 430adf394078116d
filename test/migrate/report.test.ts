import { planMigration, type MigrationPlan } from "../../migrate/plan";
import { describeReport, terraformKeepsThem, terraformSide, type MigrationReport } from "../../migrate/report";
import { readTerraformState, type TerraformState } from "../../migrate/terraformState";

/**
 * What the report tells of the Terraform side: the steps that make Terraform forget the objects, given only once the
 * stack holds them (`removed` blocks where they apply, else `terraform state rm`), and none after a dry run or a
 * failed run, which say that Terraform still manages every object.
 */
const TFE = 'provider["registry.terraform.io/hashicorp/tfe"]';

const task = (name: string, id: string, module?: string) => ({
  ...(module ? { module } : {}),
  mode: "managed",
  type: "tfe_organization_run_task",
  name,
  provider: TFE,
  instances: [{ schema_version: 0, attributes: { id, name, organization: "acme", url: "https://hooks.example.com/scan", hmac_key: "" } }],
});

function planned(...resources: unknown[]): { state: TerraformState; plan: MigrationPlan } {
  const read = readTerraformState(JSON.stringify({ version: 4, serial: 1, lineage: "l", resources }));
  if ("refusals" in read) throw new Error(JSON.stringify(read.refusals));
  const result = planMigration(read.state, { leaveOthers: false });
  if ("refusals" in result) throw new Error(JSON.stringify(result.refusals));
  return { state: read.state, plan: result.plan };
}

function report(outcome: MigrationReport["outcome"], side: MigrationReport["terraformSide"]): MigrationReport {
  return {
    version: 1,
    outcome,
    dryRun: outcome === "dry run",
    stack: "dev",
    project: "p",
    language: "yaml",
    terraform: { form: "state" },
    resources: [],
    leftToTerraform: [],
    terraformSide: side,
    files: [],
    preview: { ran: outcome !== "dry run", note: "" },
  };
}

test("resources of modules alone: the state rm commands, and no word of removed blocks to add", () => {
  const { state, plan } = planned(task("scanner", "task-aaaaaaaaaaaaaaa1", "module.ci"));
  const side = terraformSide(state, plan);
  expect(side.removedBlocks).toBe("");
  expect(side.note).toContain("run the `terraform state rm` commands (no resource qualifies for a `removed` block");
  expect(side.note).not.toContain("add the removed blocks");
  const text = describeReport(report("migrated", side));
  expect(text).toContain("The `terraform state rm` commands:\n  terraform state rm 'module.ci.tfe_organization_run_task.scanner'\n");
  expect(text).not.toMatch(/The removed blocks|^or:$/m);
});

test("root and module resources: the blocks for the root's, the commands of the others", () => {
  const { state, plan } = planned(task("scanner", "task-aaaaaaaaaaaaaaa1"), task("other", "task-aaaaaaaaaaaaaaa2", "module.ci"));
  const side = terraformSide(state, plan);
  expect(side.removedBlocks).toBe("removed {\n  from = tfe_organization_run_task.scanner\n\n  lifecycle {\n    destroy = false\n  }\n}\n");
  expect(side.note).toContain("run the `terraform state rm` commands of the other addresses");
  const text = describeReport(report("migrated", side));
  expect(text).toContain("The removed blocks:\n\nremoved {\n  from = tfe_organization_run_task.scanner\n");
});

test.each([
  ["a dry run", "dry run"],
  ["a failed run", "failed"],
] as const)("%s gives no step that would make Terraform forget an object", (_what, outcome) => {
  const text = describeReport(report(outcome, terraformKeepsThem(outcome)));
  expect(text).toContain(outcome === "dry run" ? "Would migrate" : "Did not migrate");
  expect(text).toContain("Terraform side:\nnothing to do: Terraform");
  expect(text).not.toMatch(/terraform state rm '|removed \{/);
});
