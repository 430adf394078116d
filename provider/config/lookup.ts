/**
 * A source of stack configuration by fully qualified key (`snapshot:address`). In the plugins it is the config
 * the engine hands over (secrets decrypted); in a program it is `pulumi.Config`. Settings fall back to the
 * environment when the key is not set.
 */
export type ConfigLookup = (key: string) => string | undefined;

export const emptyLookup: ConfigLookup = () => undefined;

/** A setting's value, and where it came from (the stack config key or the environment variable), for messages. */
export interface SettingValue {
  value: string;
  from: string;
}

/** The stack config value of `key`, else the environment variable, else undefined. Blank counts as unset. */
export function settingFrom(lookup: ConfigLookup, key: string, envVar: string, env: NodeJS.ProcessEnv = process.env): SettingValue | undefined {
  const fromConfig = lookup(key);
  if (fromConfig !== undefined && fromConfig !== "") return { value: fromConfig, from: key };
  const fromEnv = env[envVar];
  return fromEnv !== undefined && fromEnv !== "" ? { value: fromEnv, from: envVar } : undefined;
}

/** The value alone (see `settingFrom`). */
export function setting(lookup: ConfigLookup, key: string, envVar: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return settingFrom(lookup, key, envVar, env)?.value;
}
