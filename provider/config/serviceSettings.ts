import type { TlsSettings } from "../http/tls";
import { setting, type ConfigLookup } from "./lookup";
import { parseBooleanSetting, parseCountSetting, parseDurationSetting } from "./parse";
import { serviceAddress } from "./serviceAddress";

/** One setting: its stack config key, the environment variable it falls back to, and what it means. */
export interface SettingSpec {
  key: string;
  env: string;
  doc: string;
  secret?: true;
  type?: "string" | "boolean" | "integer";
}

/** The settings every service takes, under its own namespace and environment prefix. */
export type CommonSettingName = "address" | "token" | "caCert" | "caCertPem" | "skipTlsVerify" | "requestTimeout" | "maxRetries" | "operationTimeout";

/** Where and how to reach a service; read at call time, never stored in state. */
export interface ServiceSettings {
  /** Base address without the API prefix, e.g. `https://runs.example.com`. */
  address: string;
  token: string;
  tls: TlsSettings;
  timeoutMs?: number;
  maxRetries?: number;
  /** Bound on one operation (create, read, update, delete), retries and waits included. */
  operationTimeoutMs?: number;
}

/** What tells one service's settings from another's. */
export interface ServiceDescription<N extends string> {
  /** Name used in messages, e.g. "run task service". */
  service: string;
  /** The stack config namespace and the provider plugin's name: `snapshot`, `runtask`. */
  namespace: string;
  settings: Record<N | CommonSettingName, SettingSpec>;
  /** The API's path prefix, `/v1` or `/api/v2`. */
  apiPrefix: string;
  example: string;
  /** What the token must be allowed, for the message when it is missing. */
  tokenNeeds: string;
  /** Checks of the service's own settings, throwing with the message users see. */
  validate?: Partial<Record<N, (value: string) => void>>;
}

/** Settings already checked, by service and the raw values they came from (every operation resolves them). */
const resolved = new Map<string, ServiceSettings>();

const COMMON: readonly CommonSettingName[] = [
  "address",
  "token",
  "caCert",
  "caCertPem",
  "skipTlsVerify",
  "requestTimeout",
  "maxRetries",
  "operationTimeout",
];

/** Reads and checks a service's settings: stack config first, then the environment. */
export function resolveServiceSettings<N extends string>(
  d: ServiceDescription<N>,
  lookup: ConfigLookup,
  env: NodeJS.ProcessEnv = process.env,
): ServiceSettings {
  const raw = COMMON.map((name) => setting(lookup, d.settings[name].key, d.settings[name].env, env));
  const cacheKey = JSON.stringify([d.namespace, raw]);
  const cached = resolved.get(cacheKey);
  if (cached) return cached;
  const settings = parseServiceSettings(
    d,
    Object.fromEntries(COMMON.map((name, i) => [name, raw[i]])) as Record<CommonSettingName, string | undefined>,
  );
  resolved.set(cacheKey, settings);
  return settings;
}

function parseServiceSettings<N extends string>(d: ServiceDescription<N>, values: Record<CommonSettingName, string | undefined>): ServiceSettings {
  const get = (name: CommonSettingName) => values[name];
  const address = get("address");
  const token = get("token");
  if (!address) throw missingSetting(d, "address", `the service's base address, e.g. ${d.example}`);
  if (!token) throw missingSetting(d, "token", d.tokenNeeds);
  const key = (name: CommonSettingName) => d.settings[name].key;
  return {
    address: serviceAddress(key("address"), address, d.apiPrefix, d.example),
    token,
    tls: { caCertFile: get("caCert"), caCertPem: get("caCertPem"), skipVerify: parseBooleanSetting(key("skipTlsVerify"), get("skipTlsVerify")) },
    timeoutMs: parseDurationSetting(key("requestTimeout"), get("requestTimeout")),
    maxRetries: parseCountSetting(key("maxRetries"), get("maxRetries")),
    operationTimeoutMs: parseDurationSetting(key("operationTimeout"), get("operationTimeout")),
  };
}

function missingSetting<N extends string>(d: ServiceDescription<N>, name: "address" | "token", what: string): Error {
  const { key, env, secret } = d.settings[name];
  return new Error(
    `${d.service} ${name} is not set: run \`pulumi config set ${key}${secret ? " --secret" : ""} <value>\` (${what}), or set the environment variable ${env}`,
  );
}

/** The settings both services take, with the service's namespace and environment names. */
export function commonSettings(
  namespace: string,
  env: Record<CommonSettingName, string>,
  addressDoc: string,
  tokenDoc: string,
): Record<CommonSettingName, SettingSpec> {
  const spec = (name: CommonSettingName, doc: string, extra: Partial<SettingSpec> = {}): SettingSpec => ({
    key: `${namespace}:${name}`,
    env: env[name],
    doc,
    ...extra,
  });
  return {
    address: spec("address", addressDoc),
    token: spec("token", tokenDoc, { secret: true }),
    caCert: spec("caCert", "Path of a PEM bundle of CA certificates to trust instead of the system's, for a private CA."),
    caCertPem: spec("caCertPem", "PEM text of CA certificates to trust instead of the system's, for secret stores that hand out contents."),
    skipTlsVerify: spec("skipTlsVerify", "Disable certificate verification (test servers only).", { type: "boolean" }),
    requestTimeout: spec("requestTimeout", "Bound on one request: seconds, or a duration such as `30s`. Default 30s."),
    maxRetries: spec("maxRetries", "Retries of a failed request (429, 412, 5xx, lost connections). Default 5.", { type: "integer" }),
    operationTimeout: spec("operationTimeout", "Bound on one operation (create, read, update, delete), retries and waits included. Default 5m."),
  };
}

/** `{ name: [stack config key, environment variable] }`, for messages and docs. */
export function settingKeys<N extends string>(settings: Record<N, SettingSpec>): Record<N, readonly [string, string]> {
  return Object.fromEntries(Object.entries<SettingSpec>(settings).map(([name, s]) => [name, [s.key, s.env] as const])) as Record<
    N,
    readonly [string, string]
  >;
}
