import { setting, type ConfigLookup } from "../config/lookup";
import { parseBooleanSetting, parseCountSetting, parseDurationSetting } from "../config/parse";
import type { TlsSettings } from "../http/tls";

/** Where and how to reach the run task service; read at call time, never stored in state. */
export interface RunTaskSettings {
  address: string;
  token: string;
  tls: TlsSettings;
  timeoutMs?: number;
  maxRetries?: number;
  /** Bound on one operation (create, read, update, delete), retries and waits included. */
  operationTimeoutMs?: number;
}

/** Stack config keys and the environment variables they fall back to. */
export const RUNTASK_SETTING_KEYS = {
  address: ["runtask:address", "RUNTASK_ADDR"],
  token: ["runtask:token", "RUNTASK_TOKEN"],
  organization: ["runtask:organization", "RUNTASK_ORGANIZATION"],
  caCert: ["runtask:caCert", "RUNTASK_CACERT"],
  caCertPem: ["runtask:caCertPem", "RUNTASK_CACERT_BYTES"],
  skipTlsVerify: ["runtask:skipTlsVerify", "RUNTASK_SKIP_VERIFY"],
  requestTimeout: ["runtask:requestTimeout", "RUNTASK_REQUEST_TIMEOUT"],
  maxRetries: ["runtask:maxRetries", "RUNTASK_MAX_RETRIES"],
  operationTimeout: ["runtask:operationTimeout", "RUNTASK_OPERATION_TIMEOUT"],
} as const;

type Key = keyof typeof RUNTASK_SETTING_KEYS;

function get(lookup: ConfigLookup, k: Key, env: NodeJS.ProcessEnv): string | undefined {
  return setting(lookup, RUNTASK_SETTING_KEYS[k][0], RUNTASK_SETTING_KEYS[k][1], env);
}

export function resolveRunTaskSettings(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): RunTaskSettings {
  const address = get(lookup, "address", env);
  const token = get(lookup, "token", env);
  if (!address) throw missing("address", "the service's base address; the API lives under /api/v2", false);
  if (!token) throw missing("token", "an API token with the Manage Run Tasks permission", true);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new Error(`runtask:address: "${address}" is not a URL; expected e.g. https://runs.example.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`runtask:address: expected an http or https URL, got "${address}"`);
  return {
    address,
    token,
    tls: {
      caCertFile: get(lookup, "caCert", env),
      caCertPem: get(lookup, "caCertPem", env),
      skipVerify: parseBooleanSetting("runtask:skipTlsVerify", get(lookup, "skipTlsVerify", env)),
    },
    timeoutMs: parseDurationSetting("runtask:requestTimeout", get(lookup, "requestTimeout", env)),
    maxRetries: parseCountSetting("runtask:maxRetries", get(lookup, "maxRetries", env)),
    operationTimeoutMs: parseDurationSetting("runtask:operationTimeout", get(lookup, "operationTimeout", env)),
  };
}

/** The default organization: stack config `runtask:organization`, then `RUNTASK_ORGANIZATION`. */
export function defaultOrganization(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return get(lookup, "organization", env);
}

function missing(k: Key, what: string, secret: boolean): Error {
  const [key, envVar] = RUNTASK_SETTING_KEYS[k];
  return new Error(
    `run task service ${k} is not set: run \`pulumi config set ${key}${secret ? " --secret" : ""} <value>\` (${what}), or set the environment variable ${envVar}`,
  );
}
