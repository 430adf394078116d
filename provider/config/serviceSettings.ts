import { readFileSync } from "node:fs";
import { SnapshotRunTaskError } from "../common/errors";
import { isUnknown } from "../common/unknown";
import { tellUser } from "../engineLog";
import type { ProxyRoute } from "../http/proxyRoute";
import type { TlsSettings } from "../http/tls";
import { settingFrom, type ConfigLookup, type SettingValue } from "./lookup";
import { parseBooleanSetting, parseCountSetting, parseDurationSetting } from "./parse";
import { chooseProxy, ownProxy, PROXY_ENVIRONMENT, proxySettingFrom } from "./proxySetting";
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
export type CommonSettingName =
  "address" | "token" | "caCert" | "caCertPem" | "skipTlsVerify" | "requestTimeout" | "maxRetries" | "operationTimeout" | "proxy";

/** Where and how to reach a service; read at call time, never stored in state. */
export interface ServiceSettings {
  /** Base address without the API prefix, e.g. `https://runs.example.com`. */
  address: string;
  /** Where the address came from, as messages name it: its stack config key or its environment variable. */
  addressFrom?: string;
  token: string;
  /** The service's certificate: a private CA, or no verification; through a proxy too, never the proxy's. */
  tls: TlsSettings;
  /** The proxy requests to the address go through (the service's own setting, else the environment's); none: direct. */
  proxy?: ProxyRoute;
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
  /** Checks of the service's own settings, throwing with the message users see (`from` names where the value came). */
  validate?: Partial<Record<N, (value: string, from: string) => void>>;
  /**
   * Where each setting is read after its stack config key and environment variable, in order: the settings the
   * vendor's own tools keep (an environment variable of theirs, a token file), so that their users set nothing again.
   */
  vendorSources?: Partial<Record<N | CommonSettingName, VendorSource[]>>;
}

/**
 * A setting the service's vendor's tools keep, read after the package's own. Its value comes with where it came from
 * (the vendor's variable, or its file), which messages and `--debug` name, as they name the package's own settings.
 */
export interface VendorSource {
  /** How docs and messages name it: the vendor's variable, or its file (`~/.vault-token`). */
  name: string;
  /**
   * Its value, where it holds one. `address` is the service's base address as read already (from any source), for the
   * settings kept per host (a token of `app.terraform.io`).
   */
  read(env: NodeJS.ProcessEnv, address: string | undefined): SettingValue | undefined;
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
  "proxy",
];

/** Reads and checks a service's settings: stack config first, then the environment. */
export function resolveServiceSettings<N extends string>(
  d: ServiceDescription<N>,
  lookup: ConfigLookup,
  env: NodeJS.ProcessEnv = process.env,
): ServiceSettings {
  const raw = COMMON.map((name) => readSetting(d, name, lookup, env));
  const cacheKey = JSON.stringify([d.namespace, raw, PROXY_ENVIRONMENT.map((name) => env[name])]);
  const cached = resolved.get(cacheKey);
  if (cached) return cached;
  const unknown = raw.find((r) => r && isUnknown(r.value));
  if (unknown) {
    // A provider whose settings come from resources not made yet (a preview): nothing is sent until they are known.
    throw new SnapshotRunTaskError(
      "missing_setting",
      `${d.service}: ${unknown.from} is not known yet (it comes from a resource to be made); nothing is sent until it is`,
    );
  }
  const settings = parseServiceSettings(d, Object.fromEntries(COMMON.map((name, i) => [name, raw[i]])) as RawSettings, env);
  resolved.set(cacheKey, settings);
  void tellUser(
    "debug",
    settingsSources(
      d,
      settings.address,
      COMMON.map((name, i) => [name, raw[i]] as const),
    ),
  );
  return settings;
}

/**
 * What `--debug` shows of a service's settings once they are read: the address, and where each setting set came from
 * (its stack config key, its environment variable, or a setting of the vendor's tools); never a value but the address.
 */
function settingsSources<N extends string>(d: ServiceDescription<N>, address: string, raw: (readonly [string, SettingValue | undefined])[]): string {
  const from = raw.filter(([, v]) => v !== undefined).map(([name, v]) => `${name} from ${v!.from}`);
  return `${d.service}: ${address}; ${from.join(", ")}`;
}

type RawSettings = Record<CommonSettingName, SettingValue | undefined>;

/** Each message names the setting as the value came: its stack config key, or its environment variable. */
function parseServiceSettings<N extends string>(d: ServiceDescription<N>, values: RawSettings, env: NodeJS.ProcessEnv): ServiceSettings {
  const { address, token } = values;
  if (!address) throw missingSetting(d, "address", `the service's base address, e.g. ${d.example}`);
  if (!token) throw missingSetting(d, "token", d.tokenNeeds);
  const parsed = <T>(name: CommonSettingName, parse: (from: string, value: string) => T): T | undefined => {
    const given = values[name];
    return given === undefined ? undefined : parse(given.from, given.value);
  };
  const base = serviceAddress(address.from, address.value, d.apiPrefix, d.example);
  return {
    address: base,
    addressFrom: address.from,
    token: token.value,
    tls: { caCertPem: parsed("caCert", readCaBundle) ?? values.caCertPem?.value, skipVerify: parsed("skipTlsVerify", parseBooleanSetting) },
    proxy: chooseProxy(values.proxy, base, env),
    timeoutMs: parsed("requestTimeout", parseDurationSetting),
    maxRetries: parsed("maxRetries", parseCountSetting),
    operationTimeoutMs: parsed("operationTimeout", parseDurationSetting),
  };
}

/**
 * The problems of the settings that are set (config or environment), by setting name, each message naming where
 * its value came from; missing ones are not problems here (a program may use one service only), nor unknown ones
 * (a preview of a provider whose settings are computed). Checked when the provider is configured, so that a wrong
 * address fails before any resource is touched.
 */
export function settingProblems<N extends string>(
  d: ServiceDescription<N>,
  lookup: ConfigLookup,
  env: NodeJS.ProcessEnv = process.env,
): { setting: N | CommonSettingName; reason: string }[] {
  const problems: { setting: N | CommonSettingName; reason: string }[] = [];
  const check = (name: N | CommonSettingName, validate: (from: string, value: string) => unknown) => {
    const given = readSetting(d, name, lookup, env);
    if (given === undefined || isUnknown(given.value)) return;
    try {
      validate(given.from, given.value);
    } catch (err) {
      problems.push({ setting: name, reason: err instanceof Error ? err.message : String(err) });
    }
  };
  check("address", (from, value) => {
    const base = serviceAddress(from, value, d.apiPrefix, d.example);
    // The proxy the address's requests would take: the service's own setting, else the environment's, parsed.
    const own = readSetting(d, "proxy", lookup, env);
    if (own === undefined) chooseProxy(undefined, base, env);
  });
  check("proxy", (from, value) => ownProxy({ from, value }));
  check("caCert", readCaBundle);
  check("skipTlsVerify", parseBooleanSetting);
  check("requestTimeout", parseDurationSetting);
  check("operationTimeout", parseDurationSetting);
  check("maxRetries", parseCountSetting);
  for (const [name, validate] of Object.entries<((value: string, from: string) => void) | undefined>(d.validate ?? {})) {
    check(name as N, (from, value) => validate?.(value, from));
  }
  return problems;
}

/**
 * A setting's value and where it came from: its stack config key, its environment variable, then the vendor's sources
 * in order. The proxy's stack config counts when empty (it means none).
 */
export function readSetting<N extends string>(
  d: ServiceDescription<N>,
  name: N | CommonSettingName,
  lookup: ConfigLookup,
  env: NodeJS.ProcessEnv,
): SettingValue | undefined {
  const { key, env: envVar } = d.settings[name];
  const own = name === "proxy" ? proxySettingFrom(lookup, key, envVar, env) : settingFrom(lookup, key, envVar, env);
  const sources = d.vendorSources?.[name];
  if (own || !sources) return own;
  const address = name === "address" ? undefined : readSetting(d, "address", lookup, env)?.value;
  for (const source of sources) {
    const found = source.read(env, address);
    if (found !== undefined && found.value !== "") return found;
  }
  return undefined;
}

/** The names of a setting's sources after its own, in order, for messages and docs. */
export function vendorSourceNames<N extends string>(d: ServiceDescription<N>, name: N | CommonSettingName): string[] {
  return (d.vendorSources?.[name] ?? []).map((s) => s.name);
}

/** The PEM text of a CA bundle file; a missing or unreadable file names the setting that gave its path. */
const bundles = new Map<string, string>();
export function readCaBundle(from: string, path: string): string {
  let pem = bundles.get(path);
  if (pem === undefined) {
    try {
      pem = readFileSync(path, "utf8");
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new SnapshotRunTaskError(
        "invalid_setting",
        `${from}: cannot read the CA bundle "${path}"${code ? ` (${code})` : ""}: give the path of a readable PEM file`,
        { cause: err },
      );
    }
    bundles.set(path, pem);
  }
  return pem;
}

function missingSetting<N extends string>(d: ServiceDescription<N>, name: "address" | "token", what: string): SnapshotRunTaskError {
  const { key, env, secret } = d.settings[name];
  const vendors = vendorSourceNames(d, name);
  return new SnapshotRunTaskError(
    "missing_setting",
    `${d.service} ${name} is not set: run \`pulumi config set ${key}${secret ? " --secret" : ""} <value>\` (${what}), or set the environment variable ${env}` +
      (vendors.length > 0 ? ` (after these, ${vendors.join(", ")} are read, and none holds one)` : ""),
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
    proxy: spec(
      "proxy",
      "Proxy of every request to the service, loopback included, in place of `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY`: " +
        "`http://[user:password@]host:port` or `https://...`; `none` (or an empty value) for no proxy.",
      { secret: true },
    ),
  };
}

/** `{ name: [stack config key, environment variable] }`, for messages and docs. */
export function settingKeys<N extends string>(settings: Record<N, SettingSpec>): Record<N, readonly [string, string]> {
  return Object.fromEntries(Object.entries<SettingSpec>(settings).map(([name, s]) => [name, [s.key, s.env] as const])) as Record<
    N,
    readonly [string, string]
  >;
}
