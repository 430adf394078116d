import { invalid, type JsonApiError } from "./jsonApi";
import { ENFORCEMENT_LEVELS, STAGES, type GlobalConfiguration, type Task } from "./store";

type Attributes = Record<string, unknown>;

/** `data` of a JSON:API request body, checked for the expected `type`. */
export function requestData(body: unknown, type: string): { data: Record<string, unknown>; attributes: Attributes } | JsonApiError[] {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    return [invalid("/data", "request body must be a JSON:API document", "malformed request")];
  const data = (body as { data?: unknown }).data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) return [invalid("/data", "data is required", "malformed request")];
  const d = data as Record<string, unknown>;
  if (d.type !== type) return [invalid("/data/type", `type must be "${type}"`)];
  const attributes = d.attributes ?? {};
  if (attributes === null || typeof attributes !== "object" || Array.isArray(attributes))
    return [invalid("/data/attributes", "attributes must be an object")];
  return { data: d, attributes: attributes as Attributes };
}

const NAME = /^[A-Za-z0-9_-]+$/;

/** Where a task's HMAC key is read from: the attribute table spells it `hmac-key`, the spec's sample bodies `hmac_key`. */
export type HmacKeyAttribute = "hmac-key" | "hmac_key";

/**
 * Task attributes of a create (`prior` undefined) or an update (missing attributes keep `prior`'s values, as
 * JSON:API reads a PATCH). Without the global run tasks feature, `global-configuration` is ignored, unchecked,
 * as the service does. `enabled` and `global-configuration.enabled` are JSON booleans, as the spec types them;
 * with `stringBooleans` the strings "true" and "false" are taken too (the spec's samples render them so).
 */
export function taskAttributes(
  a: Attributes,
  prior: Task | undefined,
  globalRunTasks: boolean,
  stringBooleans = false,
  hmacKeyAttribute: HmacKeyAttribute = "hmac-key",
): { fields: Omit<Task, "id" | "createdAt" | "organization">; errors: JsonApiError[] } {
  const toBool = stringBooleans ? looseBool : strictBool;
  const errors: JsonApiError[] = [];
  const at = (k: string) => `/data/attributes/${k}`;
  const name = a.name === undefined ? prior?.name : a.name;
  if (typeof name !== "string" || name === "") errors.push(invalid(at("name"), "Name can't be blank"));
  else if (!NAME.test(name)) errors.push(invalid(at("name"), "Name can only contain letters, numbers, dashes and underscores"));
  const url = a.url === undefined ? prior?.url : a.url;
  if (typeof url !== "string" || url === "") errors.push(invalid(at("url"), "URL can't be blank"));
  else if (!isHttpUrl(url)) errors.push(invalid(at("url"), "URL must be a valid http or https URL"));
  const category = a.category === undefined ? prior?.category : a.category;
  if (category !== "task") errors.push(invalid(at("category"), 'Category must be "task"'));
  const description = a.description === undefined ? (prior?.description ?? null) : a.description;
  if (description !== null && typeof description !== "string") errors.push(invalid(at("description"), "Description must be a string"));
  else if (typeof description === "string" && [...description].length > 300)
    errors.push(invalid(at("description"), "Description is too long (maximum is 300 characters)"));
  // One spelling is read (the attribute table's `hmac-key`, or the sample bodies' `hmac_key`); the other is ignored, as
  // a service ignores an attribute it does not know.
  const hmacRaw = a[hmacKeyAttribute];
  const hmacKey = hmacRaw === undefined ? (prior?.hmacKey ?? null) : hmacRaw;
  if (hmacKey !== null && typeof hmacKey !== "string") errors.push(invalid(at(hmacKeyAttribute), "HMAC key must be a string"));
  const enabled = a.enabled === undefined ? (prior?.enabled ?? true) : toBool(a.enabled);
  if (enabled === undefined) errors.push(invalid(at("enabled"), "Enabled must be a boolean"));
  const global = globalConfiguration(globalRunTasks ? a["global-configuration"] : undefined, prior?.global, errors, toBool);
  return {
    fields: {
      name: name as string,
      url: url as string,
      category: category as string,
      description: description as string | null,
      hmacKey: hmacKey as string | null,
      enabled: enabled ?? true,
      global,
    },
    errors,
  };
}

function globalConfiguration(
  raw: unknown,
  prior: GlobalConfiguration | undefined,
  errors: JsonApiError[],
  toBool: (v: unknown) => boolean | undefined,
): GlobalConfiguration {
  const base: GlobalConfiguration = prior ? { ...prior, stages: [...prior.stages] } : { enabled: false, stages: [], enforcementLevel: null };
  if (raw === undefined || raw === null) return base;
  const at = (k: string) => `/data/attributes/global-configuration/${k}`;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    errors.push(invalid("/data/attributes/global-configuration", "global-configuration must be an object"));
    return base;
  }
  const g = raw as Record<string, unknown>;
  if (g.enabled !== undefined) {
    const enabled = toBool(g.enabled);
    if (enabled === undefined) errors.push(invalid(at("enabled"), "enabled must be a boolean"));
    else base.enabled = enabled;
  }
  if (g.stages !== undefined) {
    // The spec: "One or more of pre_plan, post_plan, pre_apply, post_apply"; leaving stages out keeps them.
    const stages = stageList(g.stages, at("stages"), errors);
    if (stages) base.stages = stages;
  }
  if (g["enforcement-level"] !== undefined) {
    if (!ENFORCEMENT_LEVELS.includes(g["enforcement-level"] as never))
      errors.push(invalid(at("enforcement-level"), "enforcement-level must be advisory or mandatory"));
    else base.enforcementLevel = g["enforcement-level"] as string;
  }
  return base;
}

/** A list of stages: at least one, known values, no duplicates. */
export function stageList(raw: unknown, pointer: string, errors: JsonApiError[]): string[] | undefined {
  if (!Array.isArray(raw)) {
    errors.push(invalid(pointer, "stages must be an array"));
    return undefined;
  }
  if (raw.length === 0) {
    errors.push(invalid(pointer, "stages must contain at least one stage"));
    return undefined;
  }
  for (const [i, s] of raw.entries()) {
    if (!STAGES.includes(s as never)) {
      errors.push(invalid(`${pointer}/${i}`, `stage must be one of ${STAGES.join(", ")}`));
      return undefined;
    }
  }
  if (new Set(raw).size !== raw.length) {
    errors.push(invalid(pointer, "stages must not repeat a stage"));
    return undefined;
  }
  return raw as string[];
}

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === "http:" || u.protocol === "https:") && u.host !== "";
  } catch {
    return false;
  }
}

function strictBool(v: unknown): boolean | undefined {
  return typeof v === "boolean" ? v : undefined;
}

function looseBool(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "false") return v === "true";
  return undefined;
}

/**
 * Workspace task attributes. `enforcement-level` is required on create; `stages` when sent, else `[stage]` when
 * the deprecated `stage` is sent, else undefined (the caller's default). `stage` takes any of the four stages on
 * create, only pre_plan or post_plan on update (as the spec says); sent beside `stages` it is still checked,
 * then `stages` wins.
 */
export function workspaceTaskAttributes(
  a: Attributes,
  mode: "create" | "update",
): { enforcementLevel?: string; stages?: string[]; errors: JsonApiError[] } {
  const errors: JsonApiError[] = [];
  const level = a["enforcement-level"];
  if ((mode === "create" || level !== undefined) && !ENFORCEMENT_LEVELS.includes(level as never)) {
    errors.push(invalid("/data/attributes/enforcement-level", "enforcement-level must be advisory or mandatory"));
  }
  const stageValues: readonly string[] = mode === "create" ? STAGES : ["pre_plan", "post_plan"];
  const stageValid = a.stage === undefined || stageValues.includes(a.stage as string);
  if (!stageValid) errors.push(invalid("/data/attributes/stage", `stage must be one of ${stageValues.join(", ")}`));
  const stages =
    a.stages !== undefined
      ? stageList(a.stages, "/data/attributes/stages", errors)
      : a.stage !== undefined && stageValid
        ? [a.stage as string]
        : undefined;
  return { enforcementLevel: level as string | undefined, stages, errors };
}

/** The task id of `relationships.task.data` (`{id, type: "tasks"}`), or undefined with an error added. */
export function taskRelationship(data: Record<string, unknown>, errors: JsonApiError[]): string | undefined {
  const rel = (data.relationships as { task?: { data?: { id?: unknown; type?: unknown } } } | undefined)?.task?.data;
  if (rel && typeof rel.id === "string" && rel.id !== "" && rel.type === "tasks") return rel.id;
  errors.push(invalid("/data/relationships/task/data", 'task relationship with type "tasks" is required'));
  return undefined;
}
