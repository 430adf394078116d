/**
 * The storage types of the spec (their values as the spec spells them) and cloudB's authentication modes. A module
 * free of validation code: the SDK's declarations name these types.
 */
export const STORAGE_TYPES = ["local", "cloudA-s3", "cloudB-blob", "cloudC-gcs"] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];
export const CLOUD_B_AUTH_MODES = ["shared", "managed"] as const;
