import * as z from "zod";
import { messageOf, SnapshotRunTaskError } from "../common/errors";
import { jsonEqual } from "../common/jsonEqual";
import { PartialFailure, withProviderText } from "../common/partialFailure";
import { toPlainJson } from "../common/plainJson";
import { bool, orUnknown } from "../common/validate";
import type { RunTaskEndpoints } from "../services/runtask/endpoints";
import type { ResourceObject } from "../services/runtask/jsonApi";
import { ENFORCEMENT_LEVELS, sameStages, STAGES, type EnforcementLevel, type Stage } from "../services/runtask/vocabulary";
import { enforcementLevelSchema, stageListSchema } from "../services/runtask/vocabularySchemas";
import { withDefaults } from "../table/check";
import { t, value, type ArgSchema } from "../table/field";
import { assertType, type RecordOf, type SameRecord } from "../table/types";
import { fromWire } from "../table/wire";

/**
 * A run task's global settings (the spec's `global-configuration`: the task on every workspace of the
 * organization), all in one place: the table's line for `global`, what a program's `global` means, what is sent
 * and read back, and what happens where the organization lacks the feature. The declarations of this module name
 * no zod type: programs compile them (`RunTaskGlobal`), so the schemas are typed by shape (`ArgSchema`).
 */

/** A run task's global settings as the service reports them, in a resource's outputs and in the functions' results alike. */
export interface RunTaskGlobal {
  /** Whether the task is associated with every workspace of the organization. */
  enabled: boolean;
  /** The stages it runs at there. */
  stages?: Stage[];
  /** `advisory` or `mandatory`. */
  enforcementLevel?: EnforcementLevel;
}

const schemas = { enabled: bool(), stages: stageListSchema(), enforcementLevel: enforcementLevelSchema() };
const shapes: Record<keyof typeof schemas, ArgSchema> = schemas;

/** The settings of `global`, one table line each. */
export const globalFields = {
  enabled: { value: t.boolean, schema: shapes.enabled, wire: "enabled", default: value(false), onChange: "update" },
  stages: { value: t.list(t.oneOfStrings(STAGES)), schema: shapes.stages, wire: "stages", same: sameStages, onChange: "update" },
  enforcementLevel: { value: t.oneOfStrings(ENFORCEMENT_LEVELS), schema: shapes.enforcementLevel, wire: "enforcement-level", onChange: "update" },
} as const;

assertType<SameRecord<RunTaskGlobal, RecordOf<typeof globalFields>>>(true);

const globalSchema: ArgSchema = z
  .object(
    {
      enabled: orUnknown(schemas.enabled).optional(),
      stages: orUnknown(schemas.stages).optional(),
      enforcementLevel: orUnknown(schemas.enforcementLevel).optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `has no setting ${issue.keys.map((k) => `"${k}"`).join(", ")}: the settings are enabled, stages and enforcementLevel`
          : "must be an object with enabled, stages and enforcementLevel",
    },
  )
  .strict();

/**
 * `global` is declarative: a program without it, or without `enabled`, means "not global" (the service's
 * default). `stages` and `enforcementLevel` have no default in the spec; left out, the service's values stand.
 * A state without `global` is an organization without the feature (or a server that never reported it): there
 * only a program that asks for global settings differs.
 */
export function sameGlobal(old: unknown, next: unknown): boolean {
  if (old === undefined && (next === undefined || isSettings(next))) return !asksForGlobal(next);
  if (next === undefined && isSettings(old)) return old.enabled !== true;
  if (!isSettings(old) || !isSettings(next)) return jsonEqual(old, next);
  return (
    (old.enabled ?? false) === (next.enabled ?? false) &&
    (next.stages === undefined || sameStages(old.stages, next.stages)) &&
    (next.enforcementLevel === undefined || jsonEqual(old.enforcementLevel, next.enforcementLevel))
  );
}

/** The run task table's line for `global` (`runTask/fields.ts`). */
export const globalField = {
  value: t.object("RunTaskGlobal", globalFields),
  schema: globalSchema,
  wire: "global-configuration",
  same: sameGlobal,
  onChange: "update",
} as const;

/** Whether the program's `global` asks for anything but the service's default (global off). */
export function asksForGlobal(global: unknown): boolean {
  return isSettings(global) && global.enabled === true;
}

type GlobalSettings = { enabled?: unknown; stages?: unknown; enforcementLevel?: unknown };

function isSettings(v: unknown): v is GlobalSettings {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The global settings to send for the program's `global`: absent means off, the service's default. */
export function globalToSend(global: Partial<RunTaskGlobal> | undefined): RunTaskGlobal {
  return { ...global, enabled: global?.enabled ?? false };
}

/**
 * The global settings a task document reports; undefined where the organization lacks the feature. An empty
 * stage list is "no stages" (an argument must list one or more), so that what is read back can be written.
 */
export function reportedGlobal(task: ResourceObject): RunTaskGlobal | undefined {
  const reported = fromWire({ global: globalField }, { "global-configuration": task.attributes["global-configuration"] }, {});
  if (reported.global === undefined) return undefined;
  const filled = withDefaults(globalFields, reported.global as Record<string, unknown>) as Partial<RunTaskGlobal>;
  const global: RunTaskGlobal = { ...filled, enabled: filled.enabled === true };
  if (global.stages?.length === 0) delete global.stages;
  return global;
}

/** A task as the functions below need it: what messages name, and the program's `global`. */
interface GlobalOfTask {
  organization: string;
  name: string;
  global?: RunTaskGlobal;
}

/**
 * The global settings a create sends: the program's; on adopt, only where they differ from the task's, so that
 * global settings the task holds and the program does not are turned off in the adopt's one write.
 */
export function globalOfCreate(s: GlobalOfTask, existing: ResourceObject | undefined): RunTaskGlobal | undefined {
  if (!existing) return s.global && globalToSend(s.global);
  return sameGlobal(reportedGlobal(existing), s.global) ? undefined : globalToSend(s.global);
}

/**
 * The organization answers without `global-configuration` where it lacks the global run tasks feature; the
 * service then ignores the settings silently, which would leave the program claiming what is not so.
 */
export function globalUnsupported(s: GlobalOfTask): SnapshotRunTaskError {
  return new SnapshotRunTaskError(
    "unsupported",
    `organization "${s.organization}" does not support global run tasks (the service answered without global-configuration): ` +
      `remove \`global\` from RunTask "${s.name}", or enable the feature for the organization`,
  );
}

/**
 * The organization turned out not to support the global settings the program asks for, once the task was written.
 * A task created for it is deleted, leaving nothing behind; where it cannot be, or the write changed a task that
 * was there (an adopt, an update: its other settings were written), it is recorded as the service holds it,
 * without global settings (a partial failure), never left unrecorded nor recorded with the settings it had before:
 * the next `up` then writes the program's values, whatever its diff.
 */
export async function unsupportedAfterWrite(
  api: RunTaskEndpoints,
  s: GlobalOfTask & Record<string, unknown>,
  task: ResourceObject,
  inputs: Record<string, unknown>,
  how: "created" | "adopted" | "updated",
): Promise<Error> {
  const unsupported = globalUnsupported(s);
  let kept = how === "adopted" ? "it was adopted, and its other settings written" : "its other settings were written";
  if (how === "created") {
    try {
      await api.deleteTask(task.id);
      return unsupported;
    } catch (err) {
      kept = `deleting the task made for it failed (${messageOf(err)})`;
    }
  }
  const properties = withProviderText(toPlainJson({ ...s, global: undefined, taskId: task.id }) as Record<string, unknown>, inputs);
  const message = `${unsupported.message}. ${task.id}: ${kept}, so it is recorded without global settings`;
  return new PartialFailure("unsupported", message, task.id, properties);
}
