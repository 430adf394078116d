import { secretArgs } from "../../provider/table/derived";
import { snapshotAutoConfigTable, type StorageType } from "../../provider/snapshotAutoConfig/fields";
import type { Refusal } from "../refusal";
import { Attributes, missingId, type Mapped, type MappedResource, type TypeMapping } from "./mapping";

/**
 * hashicorp/vault `vault_raft_snapshot_agent_config` -> `snapshot:index:SnapshotAutoConfig`, imported by its name
 * (Terraform's `id`). The attribute names are the real service's own, the spec's neutral words aside: `aws-s3` is
 * `cloudA-s3`, `aws_s3_bucket` `cloudA_s3_bucket` (`cloudAS3Bucket`), `azure_*` `cloudB_*`, `google_*` `cloudC_*`.
 *
 * Schema version 0 in every release: the plugin SDK up to v5.9 (no attribute marked sensitive; unset optionals stored
 * as `""`, `false` and `0`), the plugin framework from v5.10.0 (unset optionals `null`; `aws_secret_access_key` the
 * only sensitive one; `aws_secret_access_key_wo` never stored, `secrets_wo_version` set when it is in use). Every
 * credential is plain text in either state, marked sensitive or not.
 */
export const vaultRaftSnapshotAgentConfig: TypeMapping = {
  terraformType: "vault_raft_snapshot_agent_config",
  provider: "hashicorp/vault",
  schemaVersions: [0],
  map(instance): Mapped {
    const a = new Attributes(instance, ["id", "aws_secret_access_key_wo"]);
    const name = a.string("name") ?? a.string("id");
    if (!name) return missingId(instance, "name", "the configuration's name");
    const interval = a.number("interval_seconds");
    if (interval === undefined) return missingId(instance, "interval_seconds", "the configuration's interval");
    const refusals: Refusal[] = [];
    const namespace = a.string("namespace");
    if (namespace !== undefined && !ROOT_NAMESPACE.includes(namespace)) {
      refusals.push({
        address: instance.address,
        problem: `it is in namespace "${namespace}", and the automated snapshot endpoints are served from the root namespace only`,
        fix: "migrate only configurations of the root namespace (if this one is the root's, remove `namespace` from the Terraform resource, `terraform apply -refresh-only`, and pull the state again)",
      });
    }
    const vaultType = a.string("storage_type") ?? "";
    const storageType = STORAGE_TYPES[vaultType];
    if (!storageType) {
      refusals.push({
        address: instance.address,
        problem: `its storage_type "${vaultType}" has no counterpart in the spec (local, aws-s3, azure-blob, google-gcs)`,
        fix: "leave it to Terraform: remove it from the state given to this command",
      });
    }
    if (a.set("autoload_enabled")) {
      refusals.push({
        address: instance.address,
        problem: "autoload_enabled is true, and the spec has no field for it (the next write of the configuration would turn it off)",
        fix: "set `autoload_enabled = false` in Terraform and `terraform apply`, then pull the state again",
      });
    }
    const authMode = a.string("azure_auth_mode");
    if (storageType === "cloudB-blob" && authMode !== undefined && authMode !== "shared" && authMode !== "managed") {
      refusals.push({
        address: instance.address,
        problem: `azure_auth_mode is "${authMode}", and the spec's cloudB_auth_mode is "shared" or "managed" only`,
        fix: 'use "shared" or "managed" in Terraform and `terraform apply`, then pull the state again',
      });
    }
    if (refusals.length > 0 || !storageType) return { kind: "refused", refusals };

    const mapped: MappedResource = {
      kind: "resource",
      pulumiType: "snapshot:index:SnapshotAutoConfig",
      importId: name,
      object: `config:${name}`,
      inputs: { name, interval, storageType },
      secrets: {},
      carried: { name: "name", interval_seconds: "interval", storage_type: "storageType" },
      notCarried: [],
      unknownSecrets: [],
      references: {},
    };
    const carry = (attribute: string, input: string, value: unknown) => {
      if (value === undefined) return;
      if (SECRETS.has(input)) mapped.secrets[input] = String(value);
      else mapped.inputs[input] = value;
      mapped.carried[attribute] = input;
    };
    const retain = a.number("retain");
    // 1 is the default on both sides; "vault-snapshot" is the real service's file prefix, not the spec's default.
    carry("retain", "retain", retain === 1 ? undefined : retain);
    carry("path_prefix", "pathPrefix", a.string("path_prefix"));
    const filePrefix = a.string("file_prefix");
    carry("file_prefix", "filePrefix", filePrefix === SPEC_FILE_PREFIX ? undefined : filePrefix);
    for (const [attribute, input, group, read] of STORAGE_FIELDS) {
      const value = read === "string" ? a.string(attribute) : read === "number" ? a.number(attribute) : a.set(attribute);
      if (group === storageType) carry(attribute, input, value);
      else if (value !== undefined) {
        mapped.notCarried.push({ attribute, why: `a setting of storage type ${group}, which the service ignores under ${storageType}` });
      }
    }
    a.string("namespace");
    a.string("id");
    const woVersion = instance.attributes.secrets_wo_version;
    a.number("secrets_wo_version");
    if (typeof woVersion === "number") {
      mapped.notCarried.push(
        { attribute: "aws_secret_access_key_wo", why: "write-only in Terraform (secrets_wo_version is set): its state never held the key" },
        {
          attribute: "secrets_wo_version",
          why: "Terraform's trigger for sending the write-only key; this package sends credentials when they change",
        },
      );
      if (storageType === "cloudA-s3" && mapped.secrets.cloudASecretAccessKey === undefined) {
        mapped.unknownSecrets.push({
          input: "cloudASecretAccessKey",
          attribute: "aws_secret_access_key_wo",
          whileUnset: "a change to this configuration writes it without the secret key (the service replaces a configuration with each write)",
        });
      }
    }
    mapped.notCarried.push(...a.unknownWithValues());
    return mapped;
  },
};

/** How a Vault namespace attribute names the root namespace. */
const ROOT_NAMESPACE = ["root", "/", "root/"];

/** The spec's default file prefix, which this package fills in. */
const SPEC_FILE_PREFIX = "service-snapshot";

const STORAGE_TYPES: Record<string, StorageType | undefined> = {
  local: "local",
  "aws-s3": "cloudA-s3",
  "azure-blob": "cloudB-blob",
  "google-gcs": "cloudC-gcs",
};

/** The credentials: carried into the stack config as secrets. */
const SECRETS = new Set(secretArgs(snapshotAutoConfigTable.fields));

/** Each storage setting: Terraform's attribute, this package's argument, its storage type, how it is read. */
export const STORAGE_FIELDS: readonly [string, string, StorageType, "string" | "number" | "switch"][] = [
  ["local_max_space", "localMaxSpace", "local", "number"],
  ["aws_s3_bucket", "cloudAS3Bucket", "cloudA-s3", "string"],
  ["aws_s3_region", "cloudAS3Region", "cloudA-s3", "string"],
  ["aws_access_key_id", "cloudAAccessKeyId", "cloudA-s3", "string"],
  ["aws_secret_access_key", "cloudASecretAccessKey", "cloudA-s3", "string"],
  ["aws_session_token", "cloudASessionToken", "cloudA-s3", "string"],
  ["aws_s3_endpoint", "cloudAS3Endpoint", "cloudA-s3", "string"],
  ["aws_s3_disable_tls", "cloudAS3DisableTls", "cloudA-s3", "switch"],
  ["aws_s3_force_path_style", "cloudAS3ForcePathStyle", "cloudA-s3", "switch"],
  ["aws_s3_enable_kms", "cloudAS3EnableKms", "cloudA-s3", "switch"],
  ["aws_s3_server_side_encryption", "cloudAS3ServerSideEncryption", "cloudA-s3", "switch"],
  ["aws_s3_kms_key", "cloudAS3KmsKey", "cloudA-s3", "string"],
  ["azure_container_name", "cloudBContainerName", "cloudB-blob", "string"],
  ["azure_account_name", "cloudBAccountName", "cloudB-blob", "string"],
  ["azure_account_key", "cloudBAccountKey", "cloudB-blob", "string"],
  ["azure_blob_environment", "cloudBBlobEnvironment", "cloudB-blob", "string"],
  ["azure_endpoint", "cloudBEndpoint", "cloudB-blob", "string"],
  ["azure_client_id", "cloudBClientId", "cloudB-blob", "string"],
  ["azure_auth_mode", "cloudBAuthMode", "cloudB-blob", "string"],
  ["google_gcs_bucket", "cloudCGcsBucket", "cloudC-gcs", "string"],
  ["google_service_account_key", "cloudCServiceAccountKey", "cloudC-gcs", "string"],
  ["google_endpoint", "cloudCEndpoint", "cloudC-gcs", "string"],
  ["google_disable_tls", "cloudCDisableTls", "cloudC-gcs", "switch"],
];
