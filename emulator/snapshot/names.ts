import type { EmulatorRequest } from "../core/router";
import { SERVICE_STORAGE_FIELDS, type StorageFields } from "./schema";
import type { StoredConfig } from "./snapshotter";

/**
 * The names a request is read and answered in: its token and namespace headers, the storage types, the storage
 * fields and the default file prefix. The service stores every configuration in the spec's names, whichever names the
 * request that wrote it spoke; reads answer in the reader's.
 */
export interface Names {
  tokenHeader: string;
  namespaceHeader: string;
  /** Each storage type's fields, by the storage type, in these names. */
  storageFields: StorageFields;
  defaultFilePrefix: string;
  /** A storage type in these names, from its name in the spec. */
  type(specName: string): string;
  /** A field in these names, from its name in the spec. */
  field(specName: string): string;
  /** A configuration in these names as the service stores it, in the spec's names. */
  toStored(config: Record<string, unknown>): StoredConfig;
  /** A stored configuration in these names. */
  fromStored(config: StoredConfig): Record<string, unknown>;
}

/** The spec's own names: `X-Service-Token`, `cloudA-s3`, `cloudA_s3_bucket`, `service-snapshot`. */
export const SPEC_NAMES: Names = {
  tokenHeader: "x-service-token",
  namespaceHeader: "x-service-namespace",
  storageFields: SERVICE_STORAGE_FIELDS,
  defaultFilePrefix: "service-snapshot",
  type: (name) => name,
  field: (name) => name,
  toStored: (config) => config as StoredConfig,
  fromStored: (config) => ({ ...config }),
};

/**
 * The spec's names with other words in their places: storage types renamed one for one, the storage fields' prefixes
 * (`cloudA_`) renamed, and headers and the default file prefix of their own.
 */
export function renamedNames(renames: {
  tokenHeader: string;
  namespaceHeader: string;
  defaultFilePrefix: string;
  /** Storage types, by their names in the spec. */
  types: Record<string, string>;
  /** The prefixes of storage fields, by their prefixes in the spec. */
  prefixes: Record<string, string>;
}): Names {
  const spokenType = (name: string) => renames.types[name] ?? name;
  const storedTypes = Object.fromEntries(Object.entries(renames.types).map(([spec, spoken]) => [spoken, spec]));
  const swap = (name: string, pairs: [string, string][]) => {
    const pair = pairs.find(([from]) => name.startsWith(from));
    return pair ? `${pair[1]}${name.slice(pair[0].length)}` : name;
  };
  const toSpoken = Object.entries(renames.prefixes);
  const toSpec = toSpoken.map(([spec, spoken]) => [spoken, spec] as [string, string]);
  // Only names the service has: a spoken name that happens to start like a spec prefix stays unknown.
  const specFields = new Set(Object.values(SERVICE_STORAGE_FIELDS).flatMap((group) => Object.keys(group)));
  const field = (name: string) => (specFields.has(name) ? swap(name, toSpoken) : name);
  const storedField = (name: string) => {
    const spec = swap(name, toSpec);
    return spec !== name && specFields.has(spec) ? spec : name;
  };
  return {
    tokenHeader: renames.tokenHeader,
    namespaceHeader: renames.namespaceHeader,
    defaultFilePrefix: renames.defaultFilePrefix,
    storageFields: Object.fromEntries(
      Object.entries(SERVICE_STORAGE_FIELDS).map(([type, group]) => [
        spokenType(type),
        Object.fromEntries(Object.entries(group).map(([name, spec]) => [field(name), spec])),
      ]),
    ),
    type: spokenType,
    field,
    toStored: (config) => {
      const stored = Object.fromEntries(Object.entries(config).map(([k, v]) => [storedField(k), v]));
      if (typeof stored.storage_type === "string") stored.storage_type = storedTypes[stored.storage_type] ?? stored.storage_type;
      return stored as StoredConfig;
    },
    fromStored: (config) => {
      const spoken: Record<string, unknown> = Object.fromEntries(Object.entries(config).map(([k, v]) => [field(k), v]));
      spoken.storage_type = spokenType(config.storage_type);
      return spoken;
    },
  };
}

/** The header value of `name`, the first where repeated. */
export function headerOf(req: EmulatorRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
