import type { ConfigLookup } from "../provider/config/lookup";
import { parseBooleanSetting, parseCountSetting, parseDurationSetting } from "../provider/config/parse";
import type { ServiceDescription } from "../provider/config/serviceSettings";
import { serviceAddress } from "../provider/config/serviceAddress";
import type { CheckFailure } from "../provider/common/inputError";

type Props = Record<string, unknown>;

/**
 * The provider's configuration as the engine gives it (keys without the namespace: `address`, `token`), looked up
 * by the stack config keys the provider core reads (`snapshot:address`). Values that are not strings (a boolean
 * written in YAML) are read as their text.
 */
export function configLookup(namespace: string, values: Props): ConfigLookup {
  const prefix = `${namespace}:`;
  return (key) => {
    if (!key.startsWith(prefix)) return undefined;
    const value = values[key.slice(prefix.length)];
    return value === undefined || value === null ? undefined : String(value);
  };
}

/** The deprecated `variables` of a Configure request (`snapshot:config:address`), by key without the namespace. */
export function fromVariables(namespace: string, variables: Map<string, string> | [string, string][]): Props {
  const prefix = `${namespace}:config:`;
  const out: Props = {};
  for (const [key, value] of variables) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out;
}

/**
 * Checks the settings that are set, with the dynamic providers' messages, each failure naming its key. Missing
 * address and token are not failures here: the environment may still provide them when a call needs them.
 */
export function checkConfig(service: ServiceDescription<string>, values: Props): CheckFailure[] {
  const lookup = configLookup(service.namespace, values);
  const failures: CheckFailure[] = [];
  const text = (name: string) => {
    const value = lookup(service.settings[name]?.key ?? "");
    return value === undefined || value === "" ? undefined : value;
  };
  const check = (name: string, validate: (key: string, value: string) => unknown) => {
    const value = text(name);
    if (value === undefined) return;
    try {
      validate(service.settings[name].key, value);
    } catch (err) {
      failures.push({ property: name, reason: err instanceof Error ? err.message : String(err) });
    }
  };
  check("address", (key, value) => serviceAddress(key, value, service.apiPrefix, service.example));
  check("skipTlsVerify", parseBooleanSetting);
  check("requestTimeout", parseDurationSetting);
  check("operationTimeout", parseDurationSetting);
  check("maxRetries", parseCountSetting);
  for (const [name, validate] of Object.entries(service.validate ?? {})) check(name, (_key, value) => validate?.(value));
  return failures;
}
