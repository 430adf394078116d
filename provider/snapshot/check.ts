import { z } from "zod";
import type { CheckFailure } from "../common/inputError";
import { isUnknown } from "../common/unknown";
import { bool, nonEmptyString, oneOf, validateArgs, wholeNumber, type ArgSchemas } from "../common/validate";
import {
  ALL_STORAGE_FIELDS,
  COMMON_FIELDS,
  DEFAULT_FILE_PREFIX,
  DEFAULT_RETAIN,
  STORAGE_FIELDS,
  STORAGE_TYPE_OF_ARG,
  STORAGE_TYPES,
  TRAILING_SLASH_REQUIRED,
  type FieldSpec,
  type StorageType,
} from "./fields";
import { parseInterval } from "./interval";

export const RESOURCE = "SnapshotAutoConfig";

const intervalSchema = z.unknown().transform((value, ctx) => {
  const parsed = parseInterval(value);
  if (parsed.ok) return parsed.seconds;
  ctx.addIssue({ code: "custom", message: parsed.reason });
  return z.NEVER;
});

/** Optional strings: an empty string means "not set", so it is dropped rather than diffed against nothing. */
const optionalString = z
  .string({ error: "must be a string" })
  .transform((s) => (s === "" ? undefined : s));

function storageFieldSchema(f: FieldSpec): z.ZodType {
  if (f.arg === "cloudBAuthMode") return oneOf(["shared", "managed"]);
  if (f.arg === "localMaxSpace") return wholeNumber(1);
  switch (f.kind) {
    case "boolean":
      return bool();
    case "integer":
      return wholeNumber(0);
    case "string":
      return f.required ? nonEmptyString() : optionalString;
  }
}

const ARG_SCHEMAS: ArgSchemas = {
  name: nonEmptyString().regex(/^[^/\s?#%]+$/, {
    error: "must be a single path segment: no '/', whitespace, '?', '#' or '%'",
  }),
  interval: intervalSchema,
  retain: wholeNumber(1),
  pathPrefix: nonEmptyString(),
  filePrefix: nonEmptyString(),
  storageType: oneOf(STORAGE_TYPES),
  adopt: bool(),
  ...Object.fromEntries(ALL_STORAGE_FIELDS.map((f) => [f.arg, storageFieldSchema(f)])),
};

const REQUIRED_COMMON = ["name", ...COMMON_FIELDS.filter((f) => f.required).map((f) => f.arg)];

export interface SnapshotCheckResult {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
}

/**
 * Validates and normalises the arguments of a `SnapshotAutoConfig`: interval to seconds, defaults filled,
 * empty optional strings dropped. Unknown values (preview) pass through untouched and skip the rules that
 * depend on them.
 */
export function checkSnapshotAutoConfig(news: Record<string, unknown>): SnapshotCheckResult {
  const { values, failures } = validateArgs(news, ARG_SCHEMAS, RESOURCE);
  const failed = new Set(failures.map((f) => f.property));

  for (const arg of REQUIRED_COMMON) {
    if (news[arg] === undefined && !failed.has(arg)) failures.push({ property: arg, reason: "is required" });
  }

  const storageType = values.storageType;
  if (typeof storageType === "string" && !isUnknown(storageType)) {
    failures.push(...storageRules(storageType as StorageType, news, values));
  }
  if (values.cloudAS3EnableKms === true && values.cloudAS3ServerSideEncryption === true) {
    failures.push({
      property: "cloudAS3EnableKms",
      reason: "cannot be combined with cloudAS3ServerSideEncryption: choose KMS encryption or AES256 server-side encryption",
    });
  }
  if (failures.length > 0) return { inputs: news, failures };

  return {
    inputs: {
      ...values,
      retain: values.retain ?? DEFAULT_RETAIN,
      filePrefix: values.filePrefix ?? DEFAULT_FILE_PREFIX,
    },
    failures: [],
  };
}

function storageRules(storageType: StorageType, news: Record<string, unknown>, values: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const [arg, owner] of STORAGE_TYPE_OF_ARG) {
    if (owner !== storageType && news[arg] !== undefined) {
      failures.push({ property: arg, reason: `belongs to storage type "${owner}" and cannot be set when storageType is "${storageType}"` });
    }
  }
  for (const f of STORAGE_FIELDS[storageType]) {
    if (f.required && news[f.arg] === undefined) {
      failures.push({ property: f.arg, reason: `is required when storageType is "${storageType}"` });
    }
  }
  const pathPrefix = values.pathPrefix;
  if (TRAILING_SLASH_REQUIRED.has(storageType) && typeof pathPrefix === "string" && !isUnknown(pathPrefix) && !pathPrefix.endsWith("/")) {
    failures.push({ property: "pathPrefix", reason: `must end with "/" for storage type "${storageType}" (got "${pathPrefix}")` });
  }
  return failures;
}
