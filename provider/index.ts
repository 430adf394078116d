/**
 * The provider entry that the serialized resource providers `require` by package name at call time
 * (`pulumi-snapshot-runtask/provider`). Keeping the implementation here, not in the serialized text, keeps
 * `__provider` small and secret-free, and makes `read`/`delete` of old state run the installed code.
 */
import { persistCompileCache, useCompileCache } from "./common/compileCache";
import { setProviderContext } from "./context";
import type { ResourceProvider } from "./resource";
import { newClientStats, type ClientTuning } from "./services/tuning";

export interface ProviderConfig {
  get(key: string): string | undefined;
}

/**
 * Receives the stack config the engine hands to the plugin (all namespaces, secrets decrypted). `tuning` is for
 * tests and benchmarks: short retry waits, and counters to read.
 */
export function configure(config: ProviderConfig, tuning: ClientTuning = {}): void {
  useCompileCache();
  setProviderContext({ config: (key) => config.get(key), tuning: { stats: newClientStats(), ...tuning } });
}

/** Each resource's provider, loaded when first used: a stack of one kind never loads the others. */
export const providers = {
  get snapshotAutoConfig(): ResourceProvider {
    return loaded("./snapshotAutoConfig/provider").snapshotAutoConfigProvider;
  },
  get runTask(): ResourceProvider {
    return loaded("./runTask/provider").runTaskProvider;
  },
  get workspaceRunTask(): ResourceProvider {
    return loaded("./workspaceRunTask/provider").workspaceRunTaskProvider;
  },
};

export type ProviderKind = keyof typeof providers;

const loadedModules = new Set<string>();

/** A provider module; the first time, its compiled code goes to the compile cache. */
function loaded(path: string) {
  const module = require(path);
  if (!loadedModules.has(path)) {
    loadedModules.add(path);
    persistCompileCache();
  }
  return module;
}
