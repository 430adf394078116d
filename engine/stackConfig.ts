/** A stack's config as `pulumi config` holds it: namespaced keys (`snapshot:token`), some of them secret. */
export type StackConfig = Record<string, { value: string; secret?: boolean }>;

/** The config as the engine hands it to a provider's Configure: every key, secrets decrypted. */
export function plainConfig(config: StackConfig): Record<string, string> {
  return Object.fromEntries(Object.entries(config).map(([key, { value }]) => [key, value]));
}

/** The config as the language host hands it to the program (`pulumi.Config` reads these variables). */
export function programConfigEnv(config: StackConfig): Record<string, string> {
  const secretKeys = Object.entries(config)
    .filter(([, v]) => v.secret)
    .map(([key]) => key);
  return { PULUMI_CONFIG: JSON.stringify(plainConfig(config)), PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(secretKeys) };
}
