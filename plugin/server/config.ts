import type { ConfigLookup } from "../../provider/config/lookup";
import { settingProblems, type ServiceDescription } from "../../provider/config/serviceSettings";
import type { CheckFailure } from "../../provider/common/inputError";

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
 * Checks the settings the request sets (not the environment: CheckConfig judges the provider's configuration), with
 * the dynamic providers' messages, each failure naming its key. Missing address and token are not failures here:
 * the environment may still provide them when a call needs them; unknown values (a preview of computed settings)
 * are checked once known.
 */
export function checkConfig(service: ServiceDescription<string>, values: Props): CheckFailure[] {
  return settingProblems(service, configLookup(service.namespace, values), {}).map((p) => ({ property: p.setting, reason: p.reason }));
}
