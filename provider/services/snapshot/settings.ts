import { SnapshotRunTaskError } from "../../common/errors";
import type { ConfigLookup } from "../../config/lookup";
import {
  commonSettings,
  readSetting,
  resolveServiceSettings,
  settingKeys,
  type ServiceDescription,
  type ServiceSettings,
} from "../../config/serviceSettings";
import { VENDOR_SOURCES } from "./vaultSettings";

/**
 * The snapshot service's settings: stack config `snapshot:*`, environment `SERVICE_*`, then the settings Vault's users
 * keep (`vaultSettings.ts`).
 */
export const SNAPSHOT_SERVICE: ServiceDescription<"namespace"> = {
  service: "snapshot service",
  namespace: "snapshot",
  apiPrefix: "/v1",
  example: "https://snapshots.example.com:8200",
  tokenNeeds: "a token with the sudo capability on sys/storage/raft/snapshot-auto",
  settings: {
    ...commonSettings(
      "snapshot",
      {
        address: "SERVICE_ADDR",
        token: "SERVICE_TOKEN",
        caCert: "SERVICE_CACERT",
        caCertPem: "SERVICE_CACERT_BYTES",
        skipTlsVerify: "SERVICE_SKIP_VERIFY",
        requestTimeout: "SERVICE_CLIENT_TIMEOUT",
        maxRetries: "SERVICE_MAX_RETRIES",
        operationTimeout: "SERVICE_OPERATION_TIMEOUT",
        proxy: "SERVICE_PROXY_ADDR",
      },
      "Base address of the snapshot service (the API lives under `/v1`).",
      "Token with the sudo capability on `sys/storage/raft/snapshot-auto`, sent as `X-Service-Token`.",
    ),
    namespace: {
      key: "snapshot:namespace",
      env: "SERVICE_NAMESPACE",
      doc: "Namespace of the calls; must be unset or root: the endpoints are root-namespace only.",
    },
  },
  validate: { namespace: (value, from) => requireRootNamespace(value, from) },
  vendorSources: VENDOR_SOURCES,
};

/** Stack config keys and the environment variables they fall back to. */
export const SNAPSHOT_SETTING_KEYS = settingKeys(SNAPSHOT_SERVICE.settings);

export interface SnapshotSettings extends ServiceSettings {
  namespace?: string;
}

export function resolveSnapshotSettings(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): SnapshotSettings {
  const settings = resolveServiceSettings(SNAPSHOT_SERVICE, lookup, env);
  const namespace = readSetting(SNAPSHOT_SERVICE, "namespace", lookup, env);
  requireRootNamespace(namespace?.value, namespace?.from);
  return { ...settings, namespace: namespace?.value };
}

/** Values that mean the root namespace. */
const ROOT_NAMESPACES = new Set(["", "/", "root", "root/"]);

/**
 * The automated snapshot endpoints exist in the root namespace only; the service answers calls made from any
 * other namespace with a refusal that looks like a missing path. Fail before sending anything, and say why.
 */
export function requireRootNamespace(namespace: string | undefined, from?: string): void {
  if (namespace === undefined || ROOT_NAMESPACES.has(namespace.trim())) return;
  const setting = from ?? "snapshot:namespace / SERVICE_NAMESPACE";
  throw new SnapshotRunTaskError(
    "invalid_setting",
    `snapshot namespace is "${namespace}" (from ${setting}), but the automated snapshot endpoints are restricted to the root namespace: ` +
      `unset ${setting} for these resources (a token from the root namespace is needed)`,
  );
}
