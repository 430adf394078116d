import { hasCode, messageOf } from "../provider/common/errors";
import type { ConfigLookup } from "../provider/config/lookup";
import { resolveServiceSettings, settingProblems, type ServiceDescription } from "../provider/config/serviceSettings";
import { setProviderContext } from "../provider/context";
import type { ResourceProvider } from "../provider/resource";
import { runTaskTable } from "../provider/runTask/fields";
import { runTaskProvider } from "../provider/runTask/provider";
import { RUNTASK_SERVICE, RUNTASK_SETTING_KEYS } from "../provider/services/runtask/settings";
import { SNAPSHOT_SERVICE } from "../provider/services/snapshot/settings";
import { newClientStats } from "../provider/services/tuning";
import { snapshotAutoConfigTable } from "../provider/snapshotAutoConfig/fields";
import { snapshotAutoConfigProvider } from "../provider/snapshotAutoConfig/provider";
import type { ResourceTable } from "../provider/table/field";
import { workspaceRunTaskTable } from "../provider/workspaceRunTask/fields";
import { workspaceRunTaskProvider } from "../provider/workspaceRunTask/provider";
import type { PlannedResource } from "./plan";
import type { Refusal } from "./refusal";
import type { PulumiType } from "./terraformTypes/mapping";

type Props = Record<string, unknown>;

/** The stack config key of the run task service's organization (`runtask:organization`). */
const ORGANIZATION_KEY = RUNTASK_SETTING_KEYS.organization[0];

/** The provider core of each type, as the provider plugins serve it, with its field table. */
export const RESOURCE_TYPES: Record<PulumiType, { provider: ResourceProvider; table: ResourceTable; service: ServiceDescription<string> }> = {
  "runtask:index:RunTask": { provider: runTaskProvider, table: runTaskTable, service: RUNTASK_SERVICE },
  "runtask:index:WorkspaceRunTask": { provider: workspaceRunTaskProvider, table: workspaceRunTaskTable, service: RUNTASK_SERVICE },
  "snapshot:index:SnapshotAutoConfig": { provider: snapshotAutoConfigProvider, table: snapshotAutoConfigTable, service: SNAPSHOT_SERVICE },
};

/** An argument where the service and Terraform's state differ: the service's value is what the stack gets. */
export interface Drift {
  argument: string;
  terraform: unknown;
  service: unknown;
}

/** What the service holds of one object, read as the engine's import will read it. */
export interface ServiceRead {
  /** The resource id the import records (`task-...`, `<workspace-id>/<wstask-id>`, the configuration's name). */
  id: string;
  props: Props;
  inputs: Props;
  drift: Drift[];
  /** Secret arguments the service returned (credentials it echoes): their values are the service's. */
  returnedSecrets: Set<string>;
}

/**
 * Reads every object of the plan at its service through the provider core, with the settings the provider plugins
 * would have (`config`: the target stack's config, then the environment), exactly as the import's Read will: an
 * object the service no longer holds, or one that cannot be read, is refused before anything is made. A task is
 * looked for in the organization Terraform's state names (its list tells a task deleted from one the token cannot
 * see), whatever the settings' organization. Terraform's values are checked as a program's would be, the object
 * holding them so, and compared with the service's: each argument that differs is drift, and the service's value is
 * the one the stack gets, as `terraform plan` would show it.
 */
export async function readAtServices(
  resources: PlannedResource[],
  config: ConfigLookup,
): Promise<{ reads: Map<PlannedResource, ServiceRead>; refusals: Refusal[] }> {
  const tuning = { stats: newClientStats() };
  setProviderContext({ config, tuning });
  const refusals: Refusal[] = [];
  const reads = new Map<PlannedResource, ServiceRead>();
  const services = new Set(resources.map((r) => RESOURCE_TYPES[r.mapped.pulumiType].service));
  for (const service of services) {
    const problems = settingProblems(service, config);
    for (const problem of problems) refusals.push({ problem: `${service.service}: ${problem.reason}`, fix: settingsFix(service) });
    if (problems.length > 0) continue;
    // Unset ones (the address, the token) are told once per service, not once per object.
    try {
      resolveServiceSettings(service, config);
    } catch (err) {
      refusals.push({ problem: messageOf(err), fix: settingsFix(service) });
    }
  }
  if (refusals.length > 0) return { reads, refusals };

  for (const resource of resources) {
    const { provider } = RESOURCE_TYPES[resource.mapped.pulumiType];
    const { address } = resource;
    const organization = resource.mapped.inputs.organization;
    setProviderContext({
      config: typeof organization === "string" ? (key) => (key === ORGANIZATION_KEY ? organization : config(key)) : config,
      tuning,
      forgetAdvice: `remove it from Terraform's state (\`terraform state rm '${address}'\`) and pull the state again`,
    });
    // As Terraform's state has them, and as the object holds them: a setting the service ignores passes, held so.
    const terraform = { ...resource.mapped.inputs, ...resource.mapped.secrets };
    const checked = await provider.check(terraform, terraform, { resourceName: resource.name });
    if (checked.failures.length > 0) {
      refusals.push({
        address,
        problem: `the package refuses Terraform's values: ${checked.failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`,
        fix: "correct them in Terraform and `terraform apply`, then pull the state again",
      });
      continue;
    }
    let read: Awaited<ReturnType<ResourceProvider["read"]>>;
    try {
      read = await provider.read(resource.mapped.importId, {});
    } catch (err) {
      refusals.push({ address, problem: `reading it at the service failed: ${messageOf(err)}`, fix: readFix(err, resource) });
      continue;
    }
    if (!read.id) {
      refusals.push({
        address,
        problem: `the service no longer holds it (${resource.mapped.importId}): it was deleted outside Terraform`,
        fix: `run \`terraform state rm '${address}'\` (or \`terraform apply\` to make it again), then pull the state again`,
      });
      continue;
    }
    reads.set(resource, driftOf(resource, checked.inputs, read.id, read.props, read.inputs ?? read.props));
  }
  setProviderContext({ config, tuning });
  return { reads, refusals };
}

/** Terraform's checked values against what the read found, argument by argument, as the provider's diff compares them. */
function driftOf(resource: PlannedResource, terraform: Props, id: string, props: Props, inputs: Props): ServiceRead {
  const { provider, table } = RESOURCE_TYPES[resource.mapped.pulumiType];
  const returnedSecrets = new Set(Object.keys(resource.mapped.secrets).filter((k) => props[k] !== undefined));
  const detail = provider.diffDetail(props, terraform);
  const drift = detail.changed
    // A value the service never returns (a write-only key, a hidden credential) cannot be compared.
    .filter((arg) => !(table.fields[arg]?.writeOnly || (table.fields[arg]?.secret && props[arg] === undefined)))
    .map((argument) => {
      const secret = table.fields[argument]?.secret === true;
      return { argument, terraform: secret ? "(secret)" : terraform[argument], service: secret ? "(secret, differs)" : props[argument] };
    });
  return { id, props, inputs, drift, returnedSecrets };
}

function settingsFix(service: ServiceDescription<string>): string {
  return `set it in the target stack's config (\`pulumi config set ${service.namespace}:<key>\`) or the environment variable named, and run again`;
}

function readFix(err: unknown, resource: PlannedResource): string {
  if (hasCode(err, "missing_setting", "invalid_setting")) return "set the stack config key or environment variable the message names, and run again";
  if (hasCode(err, "unauthorized", "forbidden"))
    return "give a token that may read it (the stack config's token, or the environment's), and run again";
  if (hasCode(err, "not_found")) {
    return `if it was deleted outside Terraform, run \`terraform state rm '${resource.address}'\` and pull the state again; else give settings that reach it`;
  }
  return "check the service's address and health, and run again";
}
