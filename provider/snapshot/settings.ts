import { setting, type ConfigLookup } from "../config/lookup";
import { parseBooleanSetting, parseCountSetting, parseDurationSetting } from "../config/parse";
import type { TlsSettings } from "../http/tls";

/** Where and how to reach the snapshot service; read at call time, never stored in state. */
export interface SnapshotSettings {
  address: string;
  token: string;
  namespace?: string;
  tls: TlsSettings;
  timeoutMs?: number;
  maxRetries?: number;
  /** Bound on one operation (create, read, update, delete), retries and waits included. */
  operationTimeoutMs?: number;
}

/** Stack config keys and the environment variables they fall back to. */
export const SNAPSHOT_SETTING_KEYS = {
  address: ["snapshot:address", "SERVICE_ADDR"],
  token: ["snapshot:token", "SERVICE_TOKEN"],
  namespace: ["snapshot:namespace", "SERVICE_NAMESPACE"],
  caCert: ["snapshot:caCert", "SERVICE_CACERT"],
  caCertPem: ["snapshot:caCertPem", "SERVICE_CACERT_BYTES"],
  skipTlsVerify: ["snapshot:skipTlsVerify", "SERVICE_SKIP_VERIFY"],
  requestTimeout: ["snapshot:requestTimeout", "SERVICE_CLIENT_TIMEOUT"],
  maxRetries: ["snapshot:maxRetries", "SERVICE_MAX_RETRIES"],
  operationTimeout: ["snapshot:operationTimeout", "SERVICE_OPERATION_TIMEOUT"],
} as const;

type Key = keyof typeof SNAPSHOT_SETTING_KEYS;

export function resolveSnapshotSettings(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): SnapshotSettings {
  const get = (k: Key) => setting(lookup, SNAPSHOT_SETTING_KEYS[k][0], SNAPSHOT_SETTING_KEYS[k][1], env);
  const address = get("address");
  const token = get("token");
  if (!address) throw missing("address", "the service's base address, e.g. https://snapshots.example.com:8200", false);
  if (!token) throw missing("token", "a token with the sudo capability on sys/storage/raft/snapshot-auto", true);
  assertHttpAddress(address);
  return {
    address,
    token,
    namespace: get("namespace"),
    tls: { caCertFile: get("caCert"), caCertPem: get("caCertPem"), skipVerify: parseBooleanSetting("snapshot:skipTlsVerify", get("skipTlsVerify")) },
    timeoutMs: parseDurationSetting("snapshot:requestTimeout", get("requestTimeout")),
    maxRetries: parseCountSetting("snapshot:maxRetries", get("maxRetries")),
    operationTimeoutMs: parseDurationSetting("snapshot:operationTimeout", get("operationTimeout")),
  };
}

function missing(k: Key, what: string, secret: boolean): Error {
  const [key, envVar] = SNAPSHOT_SETTING_KEYS[k];
  return new Error(
    `snapshot service ${k} is not set: run \`pulumi config set ${key}${secret ? " --secret" : ""} <value>\` (${what}), or set the environment variable ${envVar}`,
  );
}

function assertHttpAddress(address: string): void {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new Error(`snapshot:address: "${address}" is not a URL; expected e.g. https://snapshots.example.com:8200`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`snapshot:address: expected an http or https URL, got "${address}"`);
  }
}

/** Values that mean the root namespace. */
const ROOT_NAMESPACES = new Set(["", "/", "root", "root/"]);

/**
 * The automated snapshot endpoints exist in the root namespace only; the service answers calls made from any
 * other namespace with a refusal that looks like a missing path. Fail before sending anything, and say why.
 */
export function assertRootNamespace(namespace: string | undefined): void {
  if (namespace === undefined || ROOT_NAMESPACES.has(namespace.trim())) return;
  throw new Error(
    `snapshot namespace is "${namespace}", but the automated snapshot endpoints are restricted to the root namespace: ` +
      "unset snapshot:namespace / SERVICE_NAMESPACE for these resources (a token from the root namespace is needed)",
  );
}
