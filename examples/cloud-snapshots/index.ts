import * as pulumi from "@pulumi/pulumi";
import { SnapshotAutoConfig } from "pulumi-snapshot-runtask";

const config = new pulumi.Config();

// S3-compatible storage: the access keys come from secret config, so they are encrypted in the stack's config
// file and in its state. The resource marks them secret in any case, even when passed as plain strings.
const s3 = new SnapshotAutoConfig("offsite-s3", {
  interval: "6h",
  retain: 28,
  storageType: "cloudA-s3",
  pathPrefix: "cluster-a",
  cloudAS3Bucket: config.require("s3Bucket"),
  cloudAS3Region: config.require("s3Region"),
  cloudAAccessKeyId: config.requireSecret("s3AccessKeyId"),
  cloudASecretAccessKey: config.requireSecret("s3SecretAccessKey"),
  // Encryption with a KMS key; it cannot be combined with cloudAS3ServerSideEncryption.
  cloudAS3EnableKms: config.get("s3KmsKey") !== undefined,
  cloudAS3KmsKey: config.get("s3KmsKey"),
});

// Google Cloud Storage style: the service account key is a JSON document, kept as a secret. The path prefix of
// this storage type must end with "/".
const gcs = new SnapshotAutoConfig("offsite-gcs", {
  interval: "24h",
  retain: 14,
  storageType: "cloudC-gcs",
  pathPrefix: "cluster-a/",
  cloudCGcsBucket: config.require("gcsBucket"),
  cloudCServiceAccountKey: config.requireSecret("gcsServiceAccountKey"),
});

export const configurations = [s3.name, gcs.name];
/** Exported to show it: the value prints as [secret]. */
export const s3AccessKeyId = s3.cloudAAccessKeyId;
