/** The service's field groups per storage type, with the kind of each field, for validating POST bodies. */
export type WireKind = "string" | "boolean" | "integer";

/**
 * A credential is a secret, or an identifier that names one (an access key's id): a service that hides secrets may
 * still show identifiers (`echoCredentials: "identifiers"`).
 */
export type CredentialKind = "secret" | "identifier";

/** Each storage type's fields, by the storage type. */
export type StorageFields = Record<string, Record<string, { kind: WireKind; required?: boolean; credential?: CredentialKind }>>;

export const SERVICE_STORAGE_FIELDS: StorageFields = {
  local: { local_max_space: { kind: "integer", required: true } },
  "cloudA-s3": {
    cloudA_s3_bucket: { kind: "string", required: true },
    cloudA_s3_region: { kind: "string", required: true },
    cloudA_access_key_id: { kind: "string", credential: "identifier" },
    cloudA_secret_access_key: { kind: "string", credential: "secret" },
    cloudA_session_token: { kind: "string", credential: "secret" },
    cloudA_s3_endpoint: { kind: "string" },
    cloudA_s3_disable_tls: { kind: "boolean" },
    cloudA_s3_force_path_style: { kind: "boolean" },
    cloudA_s3_enable_kms: { kind: "boolean" },
    cloudA_s3_server_side_encryption: { kind: "boolean" },
    cloudA_s3_kms_key: { kind: "string" },
  },
  "cloudC-gcs": {
    cloudC_gcs_bucket: { kind: "string", required: true },
    cloudC_service_account_key: { kind: "string", credential: "secret" },
    cloudC_endpoint: { kind: "string" },
    cloudC_disable_tls: { kind: "boolean" },
  },
  "cloudB-blob": {
    cloudB_container_name: { kind: "string", required: true },
    cloudB_account_name: { kind: "string" },
    cloudB_auth_mode: { kind: "string" },
    cloudB_account_key: { kind: "string", credential: "secret" },
    cloudB_client_id: { kind: "string" },
    cloudB_blob_environment: { kind: "string" },
    cloudB_endpoint: { kind: "string" },
  },
};

export const COMMON_WIRE_FIELDS = ["interval", "retain", "path_prefix", "file_prefix", "storage_type"];
