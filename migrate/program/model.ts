import { jsonEqual } from "../../provider/common/jsonEqual";
import type { ValueType } from "../../provider/table/field";
import { isSecretValue } from "../importFile";
import type { PlannedResource } from "../plan";
import { RESOURCE_TYPES } from "../serviceReads";
import type { PulumiType } from "../terraformTypes/mapping";

type Props = Record<string, unknown>;

/** A property's value in the program: a literal, a secret from the stack config, or another resource's id. */
export type ProgramValue = { literal: unknown } | { config: string; base64?: true } | { idOf: string };

export interface ProgramResource {
  name: string;
  type: PulumiType;
  properties: [string, ProgramValue][];
  /** The `import` resource option (a dry run's program, which imports on its first `up`). */
  importId?: string;
}

/** The program the migration writes, in either language. */
export interface Program {
  resources: ProgramResource[];
  /** Config keys the program reads as secrets. */
  secretConfig: string[];
}

const RANK: Record<PulumiType, number> = { "runtask:index:RunTask": 0, "runtask:index:WorkspaceRunTask": 1, "snapshot:index:SnapshotAutoConfig": 2 };

/**
 * The program for what the stack holds: each resource's inputs as the import stored them (`stored`), without the
 * package's defaults and `adopt`, each secret read from its stack config key, and a task's id taken from its
 * resource where the task migrates too. Properties come in the order of the resource's field table.
 */
export function programOf(resources: PlannedResource[], stored: (r: PlannedResource) => Props, options: { importIds?: boolean } = {}): Program {
  const taskNames = new Map(resources.filter((r) => r.mapped.pulumiType === "runtask:index:RunTask").map((r) => [r.mapped.object, r.name]));
  const secretConfig = new Set<string>();
  const program: Program = { resources: [], secretConfig: [] };
  // Tasks first: a TypeScript program names a task before the associations that take its id.
  const ordered = [...resources].sort((a, b) => RANK[a.mapped.pulumiType] - RANK[b.mapped.pulumiType]);
  for (const resource of ordered) {
    const { fields } = RESOURCE_TYPES[resource.mapped.pulumiType].table;
    const inputs = stored(resource);
    const properties: [string, ProgramValue][] = [];
    for (const [key, field] of Object.entries(fields)) {
      const value = inputs[key];
      if (value === undefined || value === null || key === "adopt" || field.output) continue;
      if (field.default && "value" in field.default && jsonEqual(value, field.default.value)) continue;
      if (key === "global" && !(typeof value === "object" && (value as Props).enabled === true)) continue;
      if (isSecretValue(value) || field.secret) {
        const configKey = resource.configKeys[key];
        if (!configKey) throw new Error(`no config key for the secret ${key} of ${resource.name}`);
        secretConfig.add(configKey);
        properties.push([key, resource.base64Config.includes(key) ? { config: configKey, base64: true } : { config: configKey }]);
        continue;
      }
      const task =
        key === "taskId" && resource.mapped.pulumiType === "runtask:index:WorkspaceRunTask" ? taskNames.get(`task:${String(value)}`) : undefined;
      properties.push([key, task ? { idOf: task } : { literal: inTableOrder(field.value, value) }]);
    }
    program.resources.push({
      name: resource.name,
      type: resource.mapped.pulumiType,
      properties,
      ...(options.importIds ? { importId: resource.mapped.importId } : {}),
    });
  }
  program.secretConfig = [...secretConfig];
  return program;
}

/** An object's keys in the order of its nested table (`global`: enabled, stages, enforcementLevel), as the docs show it. */
function inTableOrder(type: ValueType, value: unknown): unknown {
  if (type.type !== "object" || typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const given = value as Props;
  const keys = [...Object.keys(type.fields).filter((k) => k in given), ...Object.keys(given).filter((k) => !(k in type.fields))];
  return Object.fromEntries(keys.map((k) => [k, given[k]]));
}
