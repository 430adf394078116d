import { configure } from "../../provider";

/** Points the provider at a service the way the engine's `configure()` call does: by stack config keys. */
export function configureProvider(config: Record<string, string | undefined>): void {
  configure({ get: (key: string) => config[key] });
}
