/**
 * The catalogue of configuration fields: wire name, argument name, value kind, which storage type they belong
 * to, whether they are required and whether they are credentials. Schemas, payloads and reads derive from it.
 */
export const STORAGE_TYPES = ["local", "cloudA-s3", "cloudB-blob", "cloudC-gcs"] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

export type FieldKind = "string" | "boolean" | "integer";

export interface FieldSpec {
  wire: string;
  arg: string;
  kind: FieldKind;
  required?: boolean;
  /** Credential: marked secret in state, redacted from errors. */
  secret?: boolean;
}

/** `path_prefix` -> `pathPrefix`, `cloudA_s3_bucket` -> `cloudAS3Bucket`: split on `_`, capitalise later parts. */
export function argNameOf(wire: string): string {
  return wire
    .split("_")
    .map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join("");
}

function field(wire: string, kind: FieldKind, flags: { required?: boolean; secret?: boolean } = {}): FieldSpec {
  return { wire, arg: argNameOf(wire), kind, ...flags };
}

export const COMMON_FIELDS: readonly FieldSpec[] = [
  field("interval", "integer", { required: true }),
  field("retain", "integer"),
  field("path_prefix", "string", { required: true }),
  field("file_prefix", "string"),
  field("storage_type", "string", { required: true }),
];

export const STORAGE_FIELDS: Readonly<Record<StorageType, readonly FieldSpec[]>> = {
  local: [field("local_max_space", "integer", { required: true })],
  "cloudA-s3": [
    field("cloudA_s3_bucket", "string", { required: true }),
    field("cloudA_s3_region", "string", { required: true }),
    field("cloudA_access_key_id", "string", { secret: true }),
    field("cloudA_secret_access_key", "string", { secret: true }),
    field("cloudA_session_token", "string", { secret: true }),
    field("cloudA_s3_endpoint", "string"),
    field("cloudA_s3_disable_tls", "boolean"),
    field("cloudA_s3_force_path_style", "boolean"),
    field("cloudA_s3_enable_kms", "boolean"),
    field("cloudA_s3_server_side_encryption", "boolean"),
    field("cloudA_s3_kms_key", "string"),
  ],
  "cloudC-gcs": [
    field("cloudC_gcs_bucket", "string", { required: true }),
    field("cloudC_service_account_key", "string", { secret: true }),
    field("cloudC_endpoint", "string"),
    field("cloudC_disable_tls", "boolean"),
  ],
  "cloudB-blob": [
    field("cloudB_container_name", "string", { required: true }),
    field("cloudB_account_name", "string"),
    field("cloudB_auth_mode", "string"),
    field("cloudB_account_key", "string", { secret: true }),
    field("cloudB_client_id", "string"),
    field("cloudB_blob_environment", "string"),
    field("cloudB_endpoint", "string"),
  ],
};

export const ALL_STORAGE_FIELDS: readonly FieldSpec[] = STORAGE_TYPES.flatMap((t) => STORAGE_FIELDS[t]);

/** Which storage type a storage-specific argument belongs to. */
export const STORAGE_TYPE_OF_ARG: ReadonlyMap<string, StorageType> = new Map(
  STORAGE_TYPES.flatMap((t) => STORAGE_FIELDS[t].map((f) => [f.arg, t] as const)),
);

/** Arguments holding credentials, for `additionalSecretOutputs` and redaction. */
export const SECRET_ARGS: readonly string[] = ALL_STORAGE_FIELDS.filter((f) => f.secret).map((f) => f.arg);

export const DEFAULT_RETAIN = 1;
export const DEFAULT_FILE_PREFIX = "service-snapshot";

/** Storage types whose path prefix must end in `/`. */
export const TRAILING_SLASH_REQUIRED: ReadonlySet<StorageType> = new Set(["cloudB-blob", "cloudC-gcs"]);
