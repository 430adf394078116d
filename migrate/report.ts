import type { LeftToTerraform, MigrationPlan, PlannedResource } from "./plan";
import type { Language } from "./project";
import { describeRefusals, type Refusal } from "./refusal";
import type { Drift, ServiceRead } from "./serviceReads";
import type { NotCarried } from "./terraformTypes/mapping";
import type { TerraformState } from "./terraformState";

/** What happened to one Terraform address. */
export interface ReportEntry {
  address: string;
  terraformType: string;
  schemaVersion: number;
  pulumiType: string;
  /** The Pulumi resource's name and URN (a task's global settings share their task's). */
  name: string;
  urn: string;
  importId: string;
  /** The resource id the stack records. */
  id: string;
  /** Terraform attribute -> the argument it became. */
  carried: Record<string, string>;
  /** Secrets set in the stack config (key names only), and whose value they hold. */
  secrets: { argument: string; configKey: string; from: "terraform state" | "service"; encoding?: "base64" }[];
  /** Secrets Terraform does not hold: the command that sets each. */
  toSet: { argument: string; configKey: string; command: string; whileUnset: string }[];
  notCarried: NotCarried[];
  /** Where the service differs from Terraform's state: the service's value is the stack's. */
  drift: Drift[];
}

export interface MigrationReport {
  version: 1;
  /**
   * `migrated` once the preview showed no change, and then only; `failed` for a run that failed after it began to
   * make things (and took them back: `takenBack`).
   */
  outcome: "migrated" | "dry run" | "failed";
  dryRun: boolean;
  stack: string;
  project: string;
  language: Language;
  terraform: { form: TerraformState["form"]; terraformVersion?: string; serial?: number; lineage?: string };
  resources: ReportEntry[];
  leftToTerraform: LeftToTerraform[];
  /** What to run on the Terraform side once the stack holds the objects, so that Terraform forgets them without deleting them. */
  terraformSide: { removedBlocks: string; stateRm: string[]; note: string };
  files: string[];
  /** `output`: what the CLI printed, where the preview did not pass. */
  preview: { ran: boolean; noChanges?: boolean; note: string; output?: string };
  /** A dry run: what a run without --dry-run would be refused for, as it would say it. */
  wouldRefuse?: Refusal[];
  /** A failed run: whether what it made was taken back, and what could not be. */
  takenBack?: { done: boolean; problems: string[] };
}

/** The report's entries: one per Terraform address, a task's global settings one of their own. */
export function reportEntries(
  plan: MigrationPlan,
  reads: Map<PlannedResource, ServiceRead>,
  urnOf: (r: PlannedResource) => string,
  secretSources: (r: PlannedResource) => Record<string, "terraform state" | "service">,
  stack: string,
): ReportEntry[] {
  const entries: ReportEntry[] = [];
  for (const r of plan.resources) {
    const read = reads.get(r);
    const sources = secretSources(r);
    const own = Object.fromEntries(Object.entries(r.mapped.carried).filter(([a]) => !a.includes(".")));
    entries.push({
      address: r.address,
      terraformType: r.instance.type,
      schemaVersion: r.instance.schemaVersion,
      pulumiType: r.mapped.pulumiType,
      name: r.name,
      urn: urnOf(r),
      importId: r.mapped.importId,
      id: read?.id ?? r.mapped.importId,
      carried: own,
      secrets: Object.entries(sources).map(([argument, from]) => ({
        argument,
        configKey: r.configKeys[argument],
        from,
        ...(r.base64Config.includes(argument) ? { encoding: "base64" as const } : {}),
      })),
      toSet: r.mapped.unknownSecrets.map((u) => ({
        argument: u.input,
        configKey: r.configKeys[u.input],
        command: `pulumi config set --secret --stack ${stack} ${r.configKeys[u.input]} (it asks for the value), then give ${r.name} its ${u.input} from that key in the program, and \`pulumi up\` sends it once`,
        whileUnset: u.whileUnset,
      })),
      notCarried: r.mapped.notCarried,
      drift: (read?.drift ?? []).filter((d) => d.argument !== "global" || !r.globalSettings),
    });
    if (r.globalSettings) {
      const g = r.globalSettings;
      entries.push({
        address: g.address,
        terraformType: "tfe_organization_run_task_global_settings",
        schemaVersion: 0,
        pulumiType: r.mapped.pulumiType,
        name: r.name,
        urn: urnOf(r),
        importId: r.mapped.importId,
        id: read?.id ?? r.mapped.importId,
        carried: g.mapped.carried,
        secrets: [],
        toSet: [],
        notCarried: g.mapped.notCarried,
        drift: (read?.drift ?? []).filter((d) => d.argument === "global"),
      });
    }
  }
  return entries;
}

/** The Terraform side of a run that did not migrate the objects: nothing, and no step that would forget them. */
export function terraformKeepsThem(outcome: "dry run" | "failed"): MigrationReport["terraformSide"] {
  return {
    removedBlocks: "",
    stateRm: [],
    note:
      outcome === "dry run"
        ? "nothing to do: Terraform manages every object. A run without --dry-run gives the steps once the stack's preview shows no change."
        : "nothing to do: Terraform still manages every object. Run no `terraform state rm` and add no `removed` block for them.",
  };
}

/**
 * The Terraform side, once the stack holds the objects: Terraform must forget them without destroying them.
 * `removed` blocks (Terraform 1.7 and later; one per resource, every instance of which migrated, in the root module)
 * or `terraform state rm` of each address.
 */
export function terraformSide(state: TerraformState, plan: MigrationPlan): MigrationReport["terraformSide"] {
  const migrated = new Set(plan.resources.flatMap((r) => [r.address, ...(r.globalSettings ? [r.globalSettings.address] : [])]));
  const byResource = new Map<string, { all: boolean; root: boolean }>();
  for (const i of state.instances.filter((i) => i.mode === "managed")) {
    const entry = byResource.get(i.resourceAddress) ?? { all: true, root: i.modules.length === 0 };
    entry.all &&= migrated.has(i.address);
    byResource.set(i.resourceAddress, entry);
  }
  const blocks = [...byResource]
    .filter(([, e]) => e.all && e.root)
    .map(([address]) => `removed {\n  from = ${address}\n\n  lifecycle {\n    destroy = false\n  }\n}\n`);
  const stateRm = [...migrated].map((a) => `terraform state rm '${a}'`);
  const forget =
    blocks.length === 0
      ? "run the `terraform state rm` commands (no resource qualifies for a `removed` block: those are for root-module resources whose every instance migrated)"
      : blocks.length === byResource.size
        ? "either add the removed blocks (Terraform 1.7 and later) and run `terraform apply`, or run the `terraform state rm` commands"
        : "either add the removed blocks (Terraform 1.7 and later; they cover the root-module resources whose every instance migrated) " +
          "and run the `terraform state rm` commands of the other addresses, then `terraform apply`; or run every `terraform state rm` command";
  return {
    removedBlocks: blocks.join("\n"),
    stateRm,
    note:
      `Remove the resources from the Terraform configuration, then ${forget}: Terraform forgets the objects without destroying them. ` +
      "Until then, do not run `terraform apply` or `terraform destroy` on them.",
  };
}

/** The report as a person reads it. */
export function describeReport(report: MigrationReport, reportFile?: string): string {
  const lines: string[] = [];
  const headline = {
    migrated: "Migrated",
    "dry run": "Would migrate",
    failed: "Did not migrate",
  }[report.outcome];
  lines.push(`${headline} ${report.resources.length} Terraform object(s) to stack ${report.stack} (project ${report.project}, ${report.language}):`);
  for (const e of report.resources) {
    lines.push(`  ${e.address} -> ${e.pulumiType} ${e.name} (${e.id})`);
    const carried = Object.entries(e.carried).map(([a, i]) => (a.split(".").pop() === i ? i : `${a.split(".").pop()} as ${i}`));
    if (carried.length > 0) lines.push(`      carried: ${carried.join(", ")}`);
    for (const s of e.secrets) {
      const encoded = s.encoding ? ", base64-encoded: Pulumi YAML would read its text as JSON or a number" : "";
      lines.push(`      secret: ${s.argument} in stack config ${s.configKey} (from the ${s.from}${encoded})`);
    }
    for (const t of e.toSet) lines.push(`      to set: ${t.argument}: ${t.command}; until then ${t.whileUnset}`);
    for (const n of e.notCarried) lines.push(`      not carried: ${n.attribute}: ${n.why}`);
    for (const d of e.drift) {
      lines.push(
        `      drift: ${d.argument}: Terraform ${JSON.stringify(d.terraform) ?? "(unset)"}, service ${JSON.stringify(d.service) ?? "(unset)"}; the service's is kept`,
      );
    }
  }
  if (report.leftToTerraform.length > 0) {
    lines.push("Left to Terraform:");
    for (const l of report.leftToTerraform) lines.push(`  ${l.address}: ${l.why}`);
  }
  lines.push(`Preview: ${report.preview.note}`);
  if (report.wouldRefuse) lines.push("A run without --dry-run would be refused, as things stand:", describeRefusals(report.wouldRefuse));
  if (report.files.length > 0) lines.push(`Written: ${report.files.join(", ")}`);
  lines.push("", "Terraform side:", report.terraformSide.note);
  const { removedBlocks, stateRm } = report.terraformSide;
  if (removedBlocks) lines.push("", "The removed blocks:", "", removedBlocks.trimEnd());
  if (stateRm.length > 0) lines.push("", "The `terraform state rm` commands:", ...stateRm.map((c) => `  ${c}`));
  if (reportFile) lines.push("", `Report: ${reportFile}`);
  return `${lines.join("\n")}\n`;
}
