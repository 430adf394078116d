import { emptyLookup, type ConfigLookup } from "./config/lookup";
import { newClientStats, type ClientTuning } from "./services/tuning";

/**
 * What the providers run with: the stack config the engine handed over (through `configure` in the dynamic
 * plugin, `Configure` in the provider plugins), and the clients' tuning. One per plugin process: the engine
 * configures a provider before it calls it, and again on every new command.
 */
export interface ProviderContext {
  config: ConfigLookup;
  tuning: ClientTuning;
}

let current: ProviderContext = { config: emptyLookup, tuning: { stats: newClientStats() } };

export function setProviderContext(context: ProviderContext): void {
  current = context;
}

export function providerContext(): ProviderContext {
  return current;
}
