import { SnapshotRunTaskError } from "../common/errors";
import { proxyFromEnvironment } from "../http/proxyFromEnvironment";
import { proxyRoute, type ProxyRoute } from "../http/proxyRoute";
import type { ConfigLookup, SettingValue } from "./lookup";

/** What the service's own proxy setting says: `none` (or `""` in stack config) sends every request direct. */
const NO_PROXY_VALUES = new Set(["", "none"]);

/**
 * The service's own proxy setting, stack config first, then its environment variable. Unlike the other settings, a
 * stack config value of `""` counts (it means no proxy); an empty variable is unset, as an empty `HTTPS_PROXY` is.
 */
export function proxySettingFrom(lookup: ConfigLookup, key: string, envVar: string, env: NodeJS.ProcessEnv = process.env): SettingValue | undefined {
  const fromConfig = lookup(key);
  if (fromConfig !== undefined) return { value: fromConfig, from: key };
  const fromEnv = env[envVar];
  return fromEnv ? { value: fromEnv, from: envVar } : undefined;
}

/**
 * The proxy of requests to `address`: the service's own setting where it is set (a proxy URL for every address,
 * loopback included, or none), else what `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` say, as Go reads them
 * (`proxyFromEnvironment`). Undefined: direct. A value that does not parse fails, naming where it came from.
 */
export function chooseProxy(own: SettingValue | undefined, address: string, env: NodeJS.ProcessEnv = process.env): ProxyRoute | undefined {
  if (own) return ownProxy(own);
  const choice = proxyFromEnvironment(new URL(address), env);
  if ("refused" in choice) throw new SnapshotRunTaskError("invalid_setting", choice.refused);
  return choice.proxy && proxyRoute(choice.proxy.from, choice.proxy.value);
}

/** The service's own setting: a proxy, or none. */
export function ownProxy(own: SettingValue): ProxyRoute | undefined {
  return NO_PROXY_VALUES.has(own.value.trim().toLowerCase()) ? undefined : proxyRoute(own.from, own.value);
}

/** The environment variables the choice reads, for caching settings by what they came from. */
export const PROXY_ENVIRONMENT = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "REQUEST_METHOD"] as const;
