import { configure } from "../../provider";
import type { ClientTuning } from "../../provider/services/tuning";

/**
 * Points the provider at a service the way the engine's `configure()` call does: by stack config keys. `tuning`
 * sets retry waits and where retries and creates are counted.
 */
export function configureProvider(config: Record<string, string | undefined>, tuning: ClientTuning = {}): void {
  configure({ get: (key: string) => config[key] }, tuning);
}
