import * as z from "zod";
import { DOT_SEGMENT_REASON, nonEmptyString, notDotSegment, wholeNumber } from "../common/validate";
import { defineTable, t, value, type Field, type ValueType } from "../table/field";
import { parseInterval } from "./interval";
import { CLOUD_B_AUTH_MODES, STORAGE_TYPES, type StorageType } from "./storageTypes";
import { jsonEqual } from "../common/jsonEqual";
import { isUnknown } from "../common/unknown";
import { checkByTable, type CheckContext, type CheckResult, type Rule } from "../table/check";
import { diffByTable, outcomeOf, type DiffDetail, type DiffOutcome } from "../table/diff";
import { groupRule } from "../table/groupRule";

export { STORAGE_TYPES, type StorageType, CLOUD_B_AUTH_MODES };

/** Optional strings: an empty string means "not set", so it is dropped rather than diffed against nothing. */
const optionalString = z.string({ error: "must be a string" }).transform((s) => (s === "" ? undefined : s));

const intervalSchema = z.unknown().transform((input, ctx) => {
  const parsed = parseInterval(input);
  if (parsed.ok) return parsed.seconds;
  ctx.addIssue({ code: "custom", message: parsed.reason });
  return z.NEVER;
});

const configName = nonEmptyString()
  .regex(/^[^/\s?#%]+$/, { error: "must be a single path segment: no '/', whitespace, '?', '#' or '%'" })
  .refine(notDotSegment, { error: DOT_SEGMENT_REASON });

/**
 * A parameter of one storage type: updated in place, refused under another storage type. Its strings must not
 * be empty when required, and mean "not set" when empty otherwise.
 */
function storage<const G extends StorageType, const V, const E extends Partial<Field> = Record<never, never>>(
  group: G,
  wire: string,
  type: V,
  extra?: E,
) {
  // Unconstrained `V` keeps the literal type (a constrained one is intersected with the matching `ValueType`).
  const valueType = type as ValueType;
  const plainString = valueType.type === "string" && !valueType.enum;
  const schema = plainString ? (extra?.required ? nonEmptyString() : optionalString) : undefined;
  const line: { value: V; wire: string; group: G; onChange: "update"; schema?: z.ZodType } = {
    value: type,
    wire,
    group,
    onChange: "update",
  };
  if (schema) line.schema = schema;
  return Object.assign(line, extra) as typeof line & E;
}

/**
 * The fields of an automated snapshot configuration (spec: snapshot-auto-api.md, "Resources and their fields"),
 * one line each. Argument names are the camelCase of the wire names; storage-type parameters carry their group.
 */
export const snapshotAutoConfigTable = defineTable("SnapshotAutoConfig", {
  name: { value: t.string, schema: configName, required: true, default: { from: "resourceName" }, onChange: "replace", identity: true },
  interval: {
    value: t.integer,
    input: { type: "oneOf", of: [t.integer, t.string] },
    schema: intervalSchema,
    normalise: (v) => {
      const parsed = parseInterval(v);
      return parsed.ok ? parsed.seconds : v;
    },
    wire: "interval",
    required: true,
    onChange: "update",
  },
  retain: { value: t.integer, schema: wholeNumber(1), wire: "retain", default: value(1), onChange: "update" },
  pathPrefix: { value: t.string, schema: nonEmptyString(), wire: "path_prefix", required: true, onChange: "update" },
  filePrefix: { value: t.string, schema: nonEmptyString(), wire: "file_prefix", default: value("service-snapshot"), onChange: "update" },
  storageType: { value: t.oneOfStrings(STORAGE_TYPES), wire: "storage_type", required: true, onChange: "update" },

  localMaxSpace: storage("local", "local_max_space", t.integer, { required: true, schema: wholeNumber(1) }),

  cloudAS3Bucket: storage("cloudA-s3", "cloudA_s3_bucket", t.string, { required: true }),
  cloudAS3Region: storage("cloudA-s3", "cloudA_s3_region", t.string, { required: true }),
  cloudAAccessKeyId: storage("cloudA-s3", "cloudA_access_key_id", t.string, { secret: true }),
  cloudASecretAccessKey: storage("cloudA-s3", "cloudA_secret_access_key", t.string, { secret: true }),
  cloudASessionToken: storage("cloudA-s3", "cloudA_session_token", t.string, { secret: true }),
  cloudAS3Endpoint: storage("cloudA-s3", "cloudA_s3_endpoint", t.string),
  cloudAS3DisableTls: storage("cloudA-s3", "cloudA_s3_disable_tls", t.boolean),
  cloudAS3ForcePathStyle: storage("cloudA-s3", "cloudA_s3_force_path_style", t.boolean),
  cloudAS3EnableKms: storage("cloudA-s3", "cloudA_s3_enable_kms", t.boolean),
  cloudAS3ServerSideEncryption: storage("cloudA-s3", "cloudA_s3_server_side_encryption", t.boolean),
  cloudAS3KmsKey: storage("cloudA-s3", "cloudA_s3_kms_key", t.string),

  cloudBContainerName: storage("cloudB-blob", "cloudB_container_name", t.string, { required: true }),
  cloudBAccountName: storage("cloudB-blob", "cloudB_account_name", t.string),
  cloudBAuthMode: storage("cloudB-blob", "cloudB_auth_mode", t.oneOfStrings(CLOUD_B_AUTH_MODES)),
  cloudBAccountKey: storage("cloudB-blob", "cloudB_account_key", t.string, { secret: true }),
  cloudBClientId: storage("cloudB-blob", "cloudB_client_id", t.string),
  cloudBBlobEnvironment: storage("cloudB-blob", "cloudB_blob_environment", t.string),
  cloudBEndpoint: storage("cloudB-blob", "cloudB_endpoint", t.string),

  cloudCGcsBucket: storage("cloudC-gcs", "cloudC_gcs_bucket", t.string, { required: true }),
  cloudCServiceAccountKey: storage("cloudC-gcs", "cloudC_service_account_key", t.string, { secret: true }),
  cloudCEndpoint: storage("cloudC-gcs", "cloudC_endpoint", t.string),
  cloudCDisableTls: storage("cloudC-gcs", "cloudC_disable_tls", t.boolean),

  adopt: { value: t.boolean, onChange: "none" },
});

// Rules of the spec that span several arguments, each named for what it checks.

/** The storage type selects its parameter group: other groups' parameters are refused, its required ones needed. */
export const storageTypeGroup: Rule = groupRule(snapshotAutoConfigTable.fields, "storageType", "storage type");

/** Storage types whose path prefix must end in `/`. */
export const TRAILING_SLASH_REQUIRED: ReadonlySet<StorageType> = new Set(["cloudB-blob", "cloudC-gcs"]);

/** `cloudB-blob` and `cloudC-gcs` take a path prefix ending in `/`. */
export const trailingSlashOfPathPrefix: Rule = ({ values }) => {
  const { storageType, pathPrefix } = values;
  if (!TRAILING_SLASH_REQUIRED.has(storageType as StorageType) || typeof pathPrefix !== "string" || isUnknown(pathPrefix)) return [];
  if (pathPrefix.endsWith("/")) return [];
  return [{ property: "pathPrefix", reason: `must end with "/" for storage type "${String(storageType)}" (got "${pathPrefix}")` }];
};

/** KMS encryption and AES256 server-side encryption exclude each other. */
export const kmsOrServerSideEncryption: Rule = ({ values }) =>
  values.cloudAS3EnableKms === true && values.cloudAS3ServerSideEncryption === true
    ? [
        {
          property: "cloudAS3EnableKms",
          reason: "cannot be combined with cloudAS3ServerSideEncryption: choose KMS encryption or AES256 server-side encryption",
        },
      ]
    : [];

/**
 * A setting the service would ignore silently given another one's value: refused where the program sets it so, so
 * that a program says only what holds. The spec allows it, though, and a configuration the service holds that way
 * (adopted, imported, moved from Terraform) is described as it is: the same value, ignored the same way in the old
 * inputs, passes. `holds` answers undefined while the other value is unknown (preview), and the rule then waits.
 */
function ignoredUnless(setting: string, holds: (values: Record<string, unknown>) => boolean | undefined, reason: string): Rule {
  return ({ values, olds }) => {
    if (values[setting] === undefined || isUnknown(values[setting])) return [];
    if (holds(values) !== false) return [];
    const heldSo = olds[setting] !== undefined && jsonEqual(olds[setting], values[setting]) && holds(olds) === false;
    return heldSo ? [] : [{ property: setting, reason }];
  };
}

/** The KMS key is used only with KMS encryption on. */
export const kmsKeyNeedsKms: Rule = ignoredUnless(
  "cloudAS3KmsKey",
  (v) => (isUnknown(v.cloudAS3EnableKms) ? undefined : v.cloudAS3EnableKms === true),
  "is used only when cloudAS3EnableKms is true (the service would ignore it): set cloudAS3EnableKms: true, or remove cloudAS3KmsKey",
);

/** The account key is for `shared` authentication, the client id for `managed`. */
export const cloudBCredentialOfAuthMode: Rule = (input) => [
  ...ignoredUnless(
    "cloudBAccountKey",
    (v) => (isUnknown(v.cloudBAuthMode) ? undefined : v.cloudBAuthMode !== "managed"),
    'is used for "shared" authentication, and cloudBAuthMode is "managed" (the service would ignore it): remove cloudBAccountKey, or set cloudBAuthMode: "shared"',
  )(input),
  ...ignoredUnless(
    "cloudBClientId",
    (v) => (isUnknown(v.cloudBAuthMode) ? undefined : v.cloudBAuthMode !== "shared"),
    'is used for "managed" authentication, and cloudBAuthMode is "shared" (the service would ignore it): remove cloudBClientId, or set cloudBAuthMode: "managed"',
  )(input),
];

export const snapshotAutoConfigRules: readonly Rule[] = [
  storageTypeGroup,
  trailingSlashOfPathPrefix,
  kmsOrServerSideEncryption,
  kmsKeyNeedsKms,
  cloudBCredentialOfAuthMode,
];

// What the table answers: check and diff, which send nothing.

/**
 * Validates and normalises the arguments of a `SnapshotAutoConfig`: interval to seconds, defaults filled, empty
 * optional strings dropped. Unknown values (preview) pass through untouched and skip the rules that need them.
 */
export function checkSnapshotAutoConfig(news: Record<string, unknown>, context: CheckContext = {}, olds: Record<string, unknown> = {}): CheckResult {
  return checkByTable(snapshotAutoConfigTable, news, olds, context, snapshotAutoConfigRules);
}

/** Field by field, as the table says: a new name replaces the configuration, `adopt` changes nothing. */
export function diffSnapshotAutoConfigDetail(olds: Record<string, unknown>, news: Record<string, unknown>): DiffDetail {
  return diffByTable(snapshotAutoConfigTable, olds, news);
}

export function diffSnapshotAutoConfig(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  return outcomeOf(diffSnapshotAutoConfigDetail(olds, news));
}
