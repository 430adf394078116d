import { heldByOtherStacks } from "../../migrate/objectHolders";
import { planMigration, type PlannedResource } from "../../migrate/plan";
import { readTerraformState } from "../../migrate/terraformState";

/**
 * Which other stack of the backend manages an object the migration would import: by the id its resource records
 * (either route, dynamic or plugins), or by a pending create of the same kind and identity, which that stack's next
 * `up` takes over. Each is refused, naming the stack.
 */
const TFE = 'provider["registry.terraform.io/hashicorp/tfe"]';

function planOf(): PlannedResource[] {
  const read = readTerraformState(
    JSON.stringify({
      version: 4,
      serial: 1,
      lineage: "l",
      resources: [
        {
          mode: "managed",
          type: "tfe_organization_run_task",
          name: "scanner",
          provider: TFE,
          instances: [
            {
              schema_version: 0,
              attributes: { id: "task-aaaaaaaaaaaaaaa1", name: "scanner", organization: "acme", url: "https://hooks.example.com/scan", hmac_key: "" },
            },
          ],
        },
        {
          mode: "managed",
          type: "tfe_workspace_run_task",
          name: "on_app",
          provider: TFE,
          instances: [
            {
              schema_version: 1,
              attributes: {
                id: "wstask-bbbbbbbbbbbbbbb1",
                workspace_id: "ws-ccccccccccccccc1",
                task_id: "task-aaaaaaaaaaaaaaa1",
                enforcement_level: "advisory",
              },
            },
          ],
        },
      ],
    }),
  );
  if ("refusals" in read) throw new Error(JSON.stringify(read.refusals));
  const planned = planMigration(read.state, { leaveOthers: false });
  if ("refusals" in planned) throw new Error(JSON.stringify(planned.refusals));
  return planned.plan.resources;
}

const stackState = (stack: string, deployment: unknown) => ({ stack, deployment });

test("a resource of another stack that records the object, on either route: refused, naming the stack and its URN", () => {
  const refusals = heldByOtherStacks(planOf(), [
    stackState("organization/platform/prod", {
      resources: [
        { urn: "urn:pulumi:prod::platform::pulumi:pulumi:Stack::platform-prod", type: "pulumi:pulumi:Stack" },
        {
          urn: "urn:pulumi:prod::platform::pulumi-nodejs:dynamic/runtask:RunTask::scan",
          type: "pulumi-nodejs:dynamic/runtask:RunTask",
          id: "task-aaaaaaaaaaaaaaa1",
        },
      ],
    }),
    stackState("organization/tf/dev", {
      resources: [
        {
          urn: "urn:pulumi:dev::tf::runtask:index:WorkspaceRunTask::on",
          type: "runtask:index:WorkspaceRunTask",
          id: "ws-ccccccccccccccc1/wstask-bbbbbbbbbbbbbbb1",
        },
      ],
    }),
    stackState("organization/other/dev", {
      resources: [{ urn: "urn:pulumi:dev::other::runtask:index:RunTask::x", type: "runtask:index:RunTask", id: "task-zzzzzzzzzzzzzzz9" }],
    }),
  ]);
  expect(refusals.map((r) => [r.address, r.problem])).toEqual([
    [
      "tfe_organization_run_task.scanner",
      "stack organization/platform/prod of the backend holds its object already (urn:pulumi:prod::platform::pulumi-nodejs:dynamic/runtask:RunTask::scan)",
    ],
    [
      "tfe_workspace_run_task.on_app",
      "stack organization/tf/dev of the backend holds its object already (urn:pulumi:dev::tf::runtask:index:WorkspaceRunTask::on)",
    ],
  ]);
  expect(refusals[0].fix).toContain(
    "pulumi state delete --force --stack organization/platform/prod 'urn:pulumi:prod::platform::pulumi-nodejs:dynamic/runtask:RunTask::scan'",
  );
});

test("a pending create of the same kind and identity in another stack: refused, since its next up takes the object over; another name is not", () => {
  const pending = (name: string, organization = "acme") => ({
    type: "creating",
    resource: {
      urn: `urn:pulumi:dev::p::runtask:index:RunTask::${name}`,
      type: "runtask:index:RunTask",
      inputs: { organization, name, url: "https://x" },
    },
  });
  const [task] = planOf();
  expect(heldByOtherStacks([task], [stackState("organization/p/dev", { pending_operations: [pending("scanner")] })])).toEqual([
    expect.objectContaining({
      address: "tfe_organization_run_task.scanner",
      problem: expect.stringContaining(
        "stack organization/p/dev of the backend is creating an object of its identity (a pending create of urn:pulumi:dev::p::runtask:index:RunTask::scanner)",
      ),
    }),
  ]);
  expect(
    heldByOtherStacks([task], [stackState("organization/p/dev", { pending_operations: [pending("other"), pending("scanner", "beta")] })]),
  ).toEqual([]);
});
