import * as z from "zod";
import { DOT_SEGMENT_REASON, nonEmptyString, notDotSegment, wholeNumber } from "../common/validate";
import { defineTable, t, value, type Field, type ValueType } from "../table/field";
import { parseInterval } from "./interval";
import { CLOUD_B_AUTH_MODES, STORAGE_TYPES, type StorageType } from "./storageTypes";

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
