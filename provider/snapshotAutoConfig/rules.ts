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

/**
 * A setting the service would ignore silently given another one's value: refused, so that the program says only
 * what holds. `holds` answers undefined while the other value is unknown (preview), and the rule then waits.
 */
function ignoredUnless(setting: string, holds: (values: Record<string, unknown>) => boolean | undefined, reason: string): Rule {
  return ({ values }) => {
    if (values[setting] === undefined || isUnknown(values[setting])) return [];
    return holds(values) === false ? [{ property: setting, reason }] : [];
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
