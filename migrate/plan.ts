import type { Refusal } from "./refusal";
import { KNOWN_TYPES } from "./terraformTypes/known";
import type { MappedGlobalSettings, MappedResource, PulumiType } from "./terraformTypes/mapping";
import type { TerraformInstance, TerraformState } from "./terraformState";

/** One resource of the stack to be: a Terraform object, and what it becomes. */
export interface PlannedResource {
  /** The Terraform address of the object. */
  address: string;
  instance: TerraformInstance;
  mapped: MappedResource;
  /** A task's global settings, from a second Terraform resource on the same object. */
  globalSettings?: { address: string; mapped: MappedGlobalSettings };
  /** The Pulumi resource's name (part of its URN, and its name in the program). */
  name: string;
  /** The stack config key of each secret argument, set or to be set (`scannerHmacKey`). */
  configKeys: Record<string, string>;
  /** Secret arguments whose config value is the base64 of the secret (`YAML_READS_AS_STRING` says why). */
  base64Config: string[];
}

/** What the state holds that stays with Terraform, and why. */
export interface LeftToTerraform {
  address: string;
  why: string;
}

export interface MigrationPlan {
  resources: PlannedResource[];
  left: LeftToTerraform[];
}

export interface PlanOptions {
  /** Leave types this command does not migrate to Terraform rather than refuse the state. */
  leaveOthers: boolean;
}

const TYPE_NAMES = [...KNOWN_TYPES.keys()].join(", ");

/**
 * The migration of `state`: each object of the four known types mapped, a task's global settings joined to its
 * task, names and config keys given; or every refusal found, before anything is made or written.
 */
export function planMigration(state: TerraformState, options: PlanOptions): { plan: MigrationPlan } | { refusals: Refusal[] } {
  const refusals: Refusal[] = [];
  const left: LeftToTerraform[] = [];
  const resources: { instance: TerraformInstance; mapped: MappedResource }[] = [];
  const settings: { instance: TerraformInstance; mapped: MappedGlobalSettings }[] = [];

  for (const instance of state.instances) {
    const { address } = instance;
    if (instance.mode === "data") {
      left.push({ address, why: "a data source: it reads, and holds no object to move" });
      continue;
    }
    const mapping = KNOWN_TYPES.get(instance.type);
    if (!mapping) {
      if (options.leaveOthers) left.push({ address, why: `type ${instance.type} is not one this command migrates` });
      else
        refusals.push({
          address,
          problem: `type ${instance.type} is not one this command migrates (${TYPE_NAMES})`,
          fix: "pass --leave-others to leave it to Terraform (the report lists it)",
        });
      continue;
    }
    if (instance.deposedKey) {
      refusals.push({
        address,
        problem: `it is a deposed object (${instance.deposedKey}), left by a replacement Terraform did not finish`,
        fix: "run `terraform apply` to finish the replacement (it deletes the deposed object), then pull the state again",
      });
      continue;
    }
    if (instance.tainted) {
      refusals.push({
        address,
        problem: "it is tainted: Terraform would replace it at its next apply",
        fix: `run \`terraform untaint '${address}'\` if the object is sound, or \`terraform apply\` to replace it; then pull the state again`,
      });
      continue;
    }
    const newest = Math.max(...mapping.schemaVersions);
    if (instance.schemaVersion > newest) {
      refusals.push({
        address,
        problem: `its schema version ${instance.schemaVersion} is newer than the ones this command knows for ${instance.type} (${mapping.schemaVersions.join(", ")})`,
        fix: "use a release of this package that knows it, or keep the object in Terraform for now",
      });
      continue;
    }
    const mapped = mapping.map(instance);
    if (mapped.kind === "refused") refusals.push(...mapped.refusals);
    else if (mapped.kind === "resource") resources.push({ instance, mapped });
    else settings.push({ instance, mapped });
  }

  // Two Terraform resources on one object would import it twice.
  const byObject = new Map<string, TerraformInstance[]>();
  for (const r of resources) byObject.set(r.mapped.object, [...(byObject.get(r.mapped.object) ?? []), r.instance]);
  for (const s of settings) byObject.set(`global:${s.mapped.task}`, [...(byObject.get(`global:${s.mapped.task}`) ?? []), s.instance]);
  for (const [object, instances] of byObject) {
    if (instances.length < 2) continue;
    const addresses = instances.map((i) => i.address);
    for (const instance of instances) {
      refusals.push({
        address: instance.address,
        problem: `${addresses.filter((a) => a !== instance.address).join(", ")} manage${addresses.length > 2 ? "" : "s"} the same object (${object.replace(/^[a-z]+:/, "")})`,
        fix: "keep one of them: remove the others from Terraform's state (`terraform state rm`), then pull the state again",
      });
    }
  }

  const planned: PlannedResource[] = resources.map(({ instance, mapped }) => ({
    address: instance.address,
    instance,
    mapped,
    name: "",
    configKeys: {},
    base64Config: [],
  }));
  for (const s of settings) {
    const task = planned.find((p) => p.mapped.object === s.mapped.task);
    if (!task) {
      refusals.push({
        address: s.instance.address,
        problem: `its task ${s.mapped.task.replace(/^task:/, "")} is not in this migration: the settings become the task's \`global\` argument`,
        fix: "migrate the task's tfe_organization_run_task in the same run (from the same state)",
      });
      continue;
    }
    task.globalSettings = { address: s.instance.address, mapped: s.mapped };
    task.mapped.inputs.global = s.mapped.global;
    for (const [attribute, input] of Object.entries(s.mapped.carried)) task.mapped.carried[`${s.instance.address}.${attribute}`] = input;
  }
  if (refusals.length > 0) return { refusals };
  if (planned.length === 0) {
    return {
      refusals: [
        {
          problem: `the state holds no object of the types this command migrates (${TYPE_NAMES})`,
          fix: "give the state of the Terraform workspace that manages them",
        },
      ],
    };
  }
  nameResources(planned);
  return { plan: { resources: planned, left } };
}

/** Short words for a type, to tell apart two objects that would get one name. */
const TYPE_WORDS: Record<PulumiType, string> = {
  "runtask:index:RunTask": "task",
  "runtask:index:WorkspaceRunTask": "workspace-task",
  "snapshot:index:SnapshotAutoConfig": "config",
};

/**
 * Names from the Terraform addresses: the resource's name, with its module path before it and its index after it
 * (`module.ci.tfe_workspace_run_task.on_app["web"]` is `ci-on_app-web`); where two would be the same, the type's
 * word is added. Config keys are the name in camel case with the argument: `ciOnAppWebHmacKey`.
 */
function nameResources(planned: PlannedResource[]): void {
  const base = (p: PlannedResource) =>
    [...p.instance.modules.map(moduleWord), p.instance.name, ...(p.instance.indexKey === undefined ? [] : [String(p.instance.indexKey)])]
      .map(sanitise)
      .join("-");
  const counts = new Map<string, number>();
  for (const p of planned) counts.set(base(p), (counts.get(base(p)) ?? 0) + 1);
  const taken = new Set<string>();
  for (const p of planned) {
    let name = base(p);
    if ((counts.get(name) ?? 0) > 1) name = `${name}-${TYPE_WORDS[p.mapped.pulumiType]}`;
    for (let n = 2; taken.has(name); n++) name = `${base(p)}-${TYPE_WORDS[p.mapped.pulumiType]}-${n}`;
    taken.add(name);
    p.name = name;
  }
  const keys = new Set<string>();
  for (const p of planned) {
    for (const input of [...Object.keys(p.mapped.secrets), ...p.mapped.unknownSecrets.map((u) => u.input)]) {
      let key = `${camel(p.name)}${input[0].toUpperCase()}${input.slice(1)}`;
      for (let n = 2; keys.has(key); n++) key = `${camel(p.name)}${n}${input[0].toUpperCase()}${input.slice(1)}`;
      keys.add(key);
      p.configKeys[input] = key;
    }
  }
}

/** `ci`, `regions["eu"]` -> `ci`, `regions-eu`. */
function moduleWord(module: string): string {
  const bracket = module.indexOf("[");
  if (bracket < 0) return module;
  const key = JSON.parse(module.slice(bracket + 1, -1)) as string | number;
  return `${module.slice(0, bracket)}-${key}`;
}

/** Letters, digits, `_` and `-`; anything else (in a for_each key) becomes `-`. */
function sanitise(word: string): string {
  return word.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "x";
}

/** `ci-on_app-web` -> `ciOnAppWeb`: a config key (and a TypeScript identifier) made of the name's words. */
export function camel(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w, i) => (i === 0 ? w[0].toLowerCase() + w.slice(1) : w[0].toUpperCase() + w.slice(1))).join("");
  return /^[0-9]/.test(joined) ? `r${joined}` : joined;
}
