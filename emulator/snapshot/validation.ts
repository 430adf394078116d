import { serviceIntervalSeconds } from "./duration";
import { SPEC_NAMES, type Names } from "./names";
import { COMMON_WIRE_FIELDS } from "./schema";

/**
 * The service's own check of a create/update body, with messages in the service's style: the required fields
 * (interval, path_prefix, storage_type and those of the storage type), the kind of each field, the trailing `/`
 * of cloudB-blob and cloudC-gcs prefixes, no fields outside the common ones and the selected group, and the
 * defaults (retain 1, file_prefix `service-snapshot`) filled in. The body, and the messages, are in `names` (the
 * spec's, or the vendor's); the configuration answered is in them too.
 *
 * Integer fields (retain, local_max_space) take JSON integers and boolean fields JSON booleans, as the spec
 * types them; `interval` takes an integer or a string, as the spec says. With `stringScalars` integers and
 * booleans written as strings ("3", "true") are taken too, as weakly typed servers of this family take them.
 */
export function validateConfig(
  body: unknown,
  stringScalars = false,
  names: Names = SPEC_NAMES,
): { config: Record<string, unknown> } | { errors: string[] } {
  const { storageFields, type, field: f } = names;
  const toInt = stringScalars ? looseInt : strictInt;
  const toBool = stringScalars ? looseBool : strictBool;
  if (body === null || typeof body !== "object" || Array.isArray(body)) return { errors: ["request body must be a JSON object"] };
  const b = body as Record<string, unknown>;
  const errors: string[] = [];
  const storageType = b.storage_type;
  const group = typeof storageType === "string" && Object.hasOwn(storageFields, storageType) ? storageFields[storageType] : undefined;
  if (storageType === undefined) errors.push("storage_type is required");
  else if (!group) errors.push(`storage_type must be one of ${Object.keys(storageFields).join(", ")}`);
  const interval = serviceIntervalSeconds(b.interval);
  if (b.interval === undefined) errors.push("interval is required");
  else if (interval === undefined) errors.push(`invalid interval ${JSON.stringify(b.interval)}`);
  const pathPrefix = b.path_prefix;
  if (typeof pathPrefix !== "string" || pathPrefix === "") errors.push("path_prefix is required");
  const retain = b.retain === undefined ? 1 : toInt(b.retain);
  if (retain === undefined || retain < 1) errors.push("retain must be a positive integer");
  const filePrefix = b.file_prefix === undefined ? names.defaultFilePrefix : b.file_prefix;
  if (typeof filePrefix !== "string" || filePrefix === "") errors.push("file_prefix must be a non-empty string");
  for (const key of Object.keys(b)) {
    if (!COMMON_WIRE_FIELDS.includes(key) && !(group && Object.hasOwn(group, key)))
      errors.push(`unknown field ${key} for storage_type=${String(storageType)}`);
  }
  const config: Record<string, unknown> = {};
  if (group) {
    if ((storageType === type("cloudB-blob") || storageType === type("cloudC-gcs")) && typeof pathPrefix === "string" && !pathPrefix.endsWith("/")) {
      errors.push(`path_prefix must end with "/" for storage_type=${storageType}`);
    }
    for (const [field, spec] of Object.entries(group)) {
      const value = b[field];
      if (value === undefined) {
        if (spec.required) errors.push(`${field} is required for storage_type=${storageType}`);
        continue;
      }
      const typed = spec.kind === "integer" ? toInt(value) : spec.kind === "boolean" ? toBool(value) : typeof value === "string" ? value : undefined;
      if (typed === undefined)
        errors.push(`${field} must be ${spec.kind === "integer" ? "an integer" : spec.kind === "boolean" ? "a boolean" : "a string"}`);
      else config[field] = typed;
    }
    if (storageType === "local" && typeof config.local_max_space === "number" && config.local_max_space <= 0) {
      errors.push("local_max_space must be greater than 0");
    }
    const [kms, sse, authMode] = [f("cloudA_s3_enable_kms"), f("cloudA_s3_server_side_encryption"), f("cloudB_auth_mode")];
    if (config[kms] === true && config[sse] === true) errors.push(`${kms} cannot be combined with ${sse}`);
    if (config[authMode] !== undefined && !["shared", "managed"].includes(String(config[authMode]))) {
      errors.push(`${authMode} must be one of shared, managed`);
    }
  }
  if (errors.length > 0) return { errors };
  return {
    config: {
      ...config,
      interval: interval!,
      retain: retain!,
      path_prefix: pathPrefix as string,
      file_prefix: filePrefix as string,
      storage_type: storageType as string,
    },
  };
}

function strictInt(v: unknown): number | undefined {
  return typeof v === "number" && Number.isSafeInteger(v) ? v : undefined;
}

function looseInt(v: unknown): number | undefined {
  if (typeof v === "string" && /^-?\d+$/.test(v)) return strictInt(Number(v));
  return strictInt(v);
}

function strictBool(v: unknown): boolean | undefined {
  return typeof v === "boolean" ? v : undefined;
}

function looseBool(v: unknown): boolean | undefined {
  if (v === "true" || v === "false") return v === "true";
  return strictBool(v);
}
