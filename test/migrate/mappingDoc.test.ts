import { readFileSync } from "node:fs";
import { join } from "node:path";
import { KNOWN_TYPES } from "../../migrate/terraformTypes/known";
import type { Mapped } from "../../migrate/terraformTypes/mapping";
import { STORAGE_FIELDS } from "../../migrate/terraformTypes/vault_raft_snapshot_agent_config";
import type { TerraformInstance } from "../../migrate/terraformState";

/**
 * docs/migrating-from-terraform.md's attribute table says what the mappings do: each attribute an object of each
 * type carries, with every attribute set, is in the table beside the argument it becomes (in the row of its type).
 */
const DOC = readFileSync(join(__dirname, "../../docs/migrating-from-terraform.md"), "utf8");

/** The table's rows by type: each row's attributes and arguments (backticked names of its first two cells). */
function rowsByType(): Map<string, { attributes: string[]; args: string[] }[]> {
  const table = DOC.slice(DOC.indexOf("| Terraform attribute | argument | note |"));
  const rows = table.split("\n").slice(2);
  const byType = new Map<string, { attributes: string[]; args: string[] }[]>();
  let type = "";
  for (const row of rows) {
    if (!row.startsWith("|")) break;
    const cells = row.split("|").slice(1, -1);
    const names = (cell: string) => [...cell.matchAll(/`([a-zA-Z0-9_.]+)`/g)].map((m) => m[1]);
    const heading = /^\s*\*\*`(\w+)`\*\*/.exec(cells[0]);
    if (heading) {
      type = heading[1];
      byType.set(type, []);
      continue;
    }
    byType.get(type)!.push({ attributes: names(cells[0]), args: names(cells[1]) });
  }
  return byType;
}

function instance(type: string, schemaVersion: number, attributes: Record<string, unknown>): TerraformInstance {
  return {
    address: `${type}.x`,
    resourceAddress: `${type}.x`,
    modules: [],
    mode: "managed",
    type,
    name: "x",
    provider: "",
    schemaVersion,
    attributes,
    sensitiveAttributes: [],
    tainted: false,
  };
}

function carried(mapped: Mapped): Record<string, string> {
  if (mapped.kind === "refused") throw new Error(JSON.stringify(mapped.refusals));
  return mapped.carried;
}

const everything: [string, number, Record<string, unknown>][] = [
  [
    "tfe_organization_run_task",
    0,
    { id: "task-1", organization: "o", name: "n", url: "https://u", description: "d", category: "other", enabled: false, hmac_key: "k" },
  ],
  [
    "tfe_organization_run_task_global_settings",
    0,
    { id: "task-1", task_id: "task-1", enabled: true, stages: ["pre_plan"], enforcement_level: "advisory" },
  ],
  [
    "tfe_workspace_run_task",
    1,
    { id: "wstask-1", workspace_id: "ws-1", task_id: "task-1", enforcement_level: "advisory", stages: ["pre_plan"], stage: "pre_plan" },
  ],
  ["tfe_workspace_run_task", 0, { id: "wstask-1", workspace_id: "ws-1", task_id: "task-1", enforcement_level: "advisory", stage: "pre_plan" }],
  ...(["local", "aws-s3", "azure-blob", "google-gcs"] as const).map((storage): [string, number, Record<string, unknown>] => {
    const group = { local: "local", "aws-s3": "cloudA-s3", "azure-blob": "cloudB-blob", "google-gcs": "cloudC-gcs" }[storage];
    const settings = Object.fromEntries(
      STORAGE_FIELDS.filter(([, , g]) => g === group).map(([attribute, , , read]) => [
        attribute,
        read === "switch" ? true : read === "number" ? 7 : attribute === "azure_auth_mode" ? "shared" : "v",
      ]),
    );
    return [
      "vault_raft_snapshot_agent_config",
      0,
      { id: "c", name: "c", interval_seconds: 60, retain: 3, path_prefix: "p/", file_prefix: "f", storage_type: storage, ...settings },
    ];
  }),
];

test.each(everything)("what a %s (schema %i) carries is in the table", (type, schemaVersion, attributes) => {
  const rows = rowsByType().get(type) ?? [];
  const mapped = carried(KNOWN_TYPES.get(type)!.map(instance(type, schemaVersion, attributes)));
  for (const [attribute, arg] of Object.entries(mapped)) {
    const row = rows.find((r) => r.attributes.includes(attribute));
    const documented = row && (row.args.length === 1 ? row.args[0] : row.args[row.attributes.indexOf(attribute)]);
    expect([attribute, documented]).toEqual([attribute, arg]);
  }
});

test("every type the command migrates is in the table, and no other", () => {
  expect([...rowsByType().keys()].sort()).toEqual([...KNOWN_TYPES.keys()].sort());
});
