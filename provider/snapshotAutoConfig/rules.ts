import { isUnknown } from "../common/unknown";
import type { Rule } from "../table/check";
import { groupRule } from "../table/groupRule";
import { snapshotAutoConfigTable, type StorageType } from "./fields";

/** Rules of the spec that span several arguments, each named for what it checks. */

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

export const snapshotAutoConfigRules: readonly Rule[] = [storageTypeGroup, trailingSlashOfPathPrefix, kmsOrServerSideEncryption];
