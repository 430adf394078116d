import type { Refusal } from "./refusal";

type Json = Record<string, unknown>;

/**
 * One object of a Terraform state: a resource instance (or a data source's), with what Terraform recorded of it.
 * Read from either form a user can produce from any backend: `terraform state pull` (state format 4) or
 * `terraform show -json` (JSON output format 1).
 */
export interface TerraformInstance {
  /** Its full address: `module.ci.tfe_workspace_run_task.on_app["web"]`. */
  address: string;
  /** The resource's address, without the instance key (`module.ci.tfe_workspace_run_task.on_app`). */
  resourceAddress: string;
  /** The module path's names, outermost first, each with its key (`ci`, `regions["eu"]`); empty at the root. */
  modules: string[];
  mode: "managed" | "data";
  type: string;
  name: string;
  /** The `count` index or `for_each` key. */
  indexKey?: string | number;
  /** The provider configuration it belongs to: `provider["registry.terraform.io/hashicorp/tfe"]`, with `.alias`. */
  provider: string;
  schemaVersion: number;
  /** The attributes as Terraform stored them (sensitive ones in plain text). */
  attributes: Json;
  /** The top-level attributes Terraform marked sensitive. */
  sensitiveAttributes: string[];
  tainted: boolean;
  /** The key of a deposed object (left by a create-before-destroy replacement), when this is one. */
  deposedKey?: string;
}

export interface TerraformState {
  /** Which form it came in. */
  form: "state" | "show-json";
  terraformVersion?: string;
  serial?: number;
  lineage?: string;
  instances: TerraformInstance[];
}

const PULL = "pull it with `terraform state pull > state.json` (any backend, HCP Terraform included), or give `terraform show -json`";

/** The state in `text`, or the refusals that say why it cannot be read. */
export function readTerraformState(text: string): { state: TerraformState } | { refusals: Refusal[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    const what = text.trim() === "" ? "the input is empty" : `the input is not JSON (${(err as Error).message})`;
    return { refusals: [{ problem: what, fix: PULL }] };
  }
  if (!isObject(doc)) return { refusals: [{ problem: "the input is JSON, but not a Terraform state (not an object)", fix: PULL }] };
  if ("encrypted_data" in doc || "encryption_version" in doc) {
    return {
      refusals: [
        {
          problem: "the state is encrypted (Terraform state encryption)",
          fix: "run `terraform state pull > state.json` where the configuration holds its encryption key: Terraform writes it decrypted",
        },
      ],
    };
  }
  if ("format_version" in doc) return readShowJson(doc);
  if ("version" in doc) return readStateFile(doc);
  return { refusals: [{ problem: "the input is JSON, but neither a state file (no `version`) nor `terraform show -json` output", fix: PULL }] };
}

/** `terraform state pull`: state format 4 (hashicorp/terraform, internal/states/statefile/version4.go). */
function readStateFile(doc: Json): { state: TerraformState } | { refusals: Refusal[] } {
  const version = doc.version;
  if (version !== 4) {
    const older = typeof version === "number" && version < 4;
    return {
      refusals: [
        {
          problem: `the state file is of format version ${JSON.stringify(version)}; this command reads version 4`,
          fix: older
            ? "upgrade it with Terraform 0.12 or later (`terraform init`, then `terraform state pull > state.json` writes version 4)"
            : "pull it with the Terraform version that wrote it, or a `terraform show -json` of it",
        },
      ],
    };
  }
  const instances: TerraformInstance[] = [];
  const refusals: Refusal[] = [];
  for (const resource of arrayOf(doc.resources)) {
    if (!isObject(resource)) continue;
    const mode = resource.mode === "data" ? "data" : "managed";
    const type = String(resource.type ?? "");
    const name = String(resource.name ?? "");
    const module = typeof resource.module === "string" ? resource.module : "";
    const resourceAddress = `${module ? `${module}.` : ""}${mode === "data" ? "data." : ""}${type}.${name}`;
    for (const instance of arrayOf(resource.instances)) {
      if (!isObject(instance)) continue;
      const indexKey = typeof instance.index_key === "string" || typeof instance.index_key === "number" ? instance.index_key : undefined;
      const address = `${resourceAddress}${keySuffix(indexKey)}`;
      if (!isObject(instance.attributes)) {
        refusals.push({
          address,
          problem: "its attributes are stored only in the flat form of Terraform before 0.12",
          fix: "run `terraform apply -refresh-only` with Terraform 0.12 or later, then pull the state again",
        });
        continue;
      }
      instances.push({
        address,
        resourceAddress,
        modules: modulesOf(module),
        mode,
        type,
        name,
        indexKey,
        provider: String(resource.provider ?? ""),
        schemaVersion: typeof instance.schema_version === "number" ? instance.schema_version : 0,
        attributes: instance.attributes,
        sensitiveAttributes: sensitivePaths(instance.sensitive_attributes),
        tainted: instance.status === "tainted",
        deposedKey: typeof instance.deposed === "string" && instance.deposed !== "" ? instance.deposed : undefined,
      });
    }
  }
  const state: TerraformState = {
    form: "state",
    terraformVersion: stringOr(doc.terraform_version),
    serial: typeof doc.serial === "number" ? doc.serial : undefined,
    lineage: stringOr(doc.lineage),
    instances,
  };
  return refusals.length > 0 ? { refusals } : { state };
}

/** `terraform show -json` of a state (hashicorp/terraform, internal/command/jsonstate): format version 1.x. */
function readShowJson(doc: Json): { state: TerraformState } | { refusals: Refusal[] } {
  const major = String(doc.format_version).split(".")[0];
  if (major !== "1") {
    return {
      refusals: [{ problem: `\`terraform show -json\` output of format version ${String(doc.format_version)}; this command reads 1.x`, fix: PULL }],
    };
  }
  if ("planned_values" in doc || "resource_changes" in doc) {
    return {
      refusals: [
        {
          problem: "this is `terraform show -json` of a plan, not of a state",
          fix: "run `terraform show -json` without a plan file (it shows the state), or `terraform state pull`",
        },
      ],
    };
  }
  const instances: TerraformInstance[] = [];
  const values = isObject(doc.values) ? doc.values : {};
  const visit = (module: unknown, modulePath: string) => {
    if (!isObject(module)) return;
    for (const resource of arrayOf(module.resources)) {
      if (!isObject(resource) || !isObject(resource.values)) continue;
      const mode = resource.mode === "data" ? "data" : "managed";
      const type = String(resource.type ?? "");
      const name = String(resource.name ?? "");
      const indexKey = typeof resource.index === "string" || typeof resource.index === "number" ? resource.index : undefined;
      const resourceAddress = `${modulePath ? `${modulePath}.` : ""}${mode === "data" ? "data." : ""}${type}.${name}`;
      instances.push({
        address: typeof resource.address === "string" ? resource.address : `${resourceAddress}${keySuffix(indexKey)}`,
        resourceAddress,
        modules: modulesOf(modulePath),
        mode,
        type,
        name,
        indexKey,
        provider: `provider["${String(resource.provider_name ?? "")}"]`,
        schemaVersion: typeof resource.schema_version === "number" ? resource.schema_version : 0,
        attributes: resource.values,
        sensitiveAttributes: isObject(resource.sensitive_values)
          ? Object.entries(resource.sensitive_values)
              .filter(([, v]) => v === true)
              .map(([k]) => k)
          : [],
        tainted: resource.tainted === true,
        deposedKey: typeof resource.deposed_key === "string" ? resource.deposed_key : undefined,
      });
    }
    for (const child of arrayOf(module.child_modules)) {
      if (isObject(child)) visit(child, String(child.address ?? ""));
    }
  };
  visit(values.root_module, "");
  return { state: { form: "show-json", terraformVersion: stringOr(doc.terraform_version), instances } };
}

/** `[0]` or `["web"]`, as Terraform writes an instance key in an address. */
export function keySuffix(key: string | number | undefined): string {
  if (key === undefined) return "";
  return typeof key === "number" ? `[${key}]` : `[${JSON.stringify(key)}]`;
}

/** `module.ci.module.regions["eu"]` as its names with their keys: `ci`, `regions["eu"]`. */
function modulesOf(module: string): string[] {
  if (!module) return [];
  const names: string[] = [];
  const pattern = /module\.([A-Za-z0-9_-]+)((?:\[(?:\d+|"(?:[^"\\]|\\.)*")\])?)/g;
  for (const match of module.matchAll(pattern)) names.push(`${match[1]}${match[2]}`);
  return names;
}

/** The top-level attribute names of `sensitive_attributes` (each path a list of `{type: "get_attr", value}` steps). */
function sensitivePaths(paths: unknown): string[] {
  const names = new Set<string>();
  for (const path of arrayOf(paths)) {
    const first = Array.isArray(path) ? path[0] : undefined;
    if (isObject(first) && first.type === "get_attr" && typeof first.value === "string") names.add(first.value);
  }
  return [...names];
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
