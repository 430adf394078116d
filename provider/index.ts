/**
 * The provider entry that the serialized resource providers `require` by package name at call time
 * (`pulumi-snapshot-runtask/provider`). Keeping the implementation here, not in the serialized text, keeps
 * `__provider` small and secret-free, and makes `read`/`delete` of old state run the installed code.
 */
import { persistCompileCache, useCompileCache } from "./common/compileCache";
import { setProviderConfig } from "./config/lookup";
import type { runTaskProvider } from "./runtask/runTaskProvider";
import type { workspaceRunTaskProvider } from "./runtask/workspaceRunTaskProvider";
import type { snapshotAutoConfigProvider } from "./snapshot/provider";

export interface ProviderConfig {
  get(key: string): string | undefined;
}

/** Receives the stack config the engine hands to the plugin (all namespaces, secrets decrypted). */
export function configure(config: ProviderConfig): void {
  useCompileCache();
  setProviderConfig((key) => config.get(key));
}

/** Each resource's provider, loaded when first used: a stack of one kind never loads the others. */
export const providers = {
  get snapshotAutoConfig(): typeof snapshotAutoConfigProvider {
    return loaded("./snapshot/provider").snapshotAutoConfigProvider;
  },
  get runTask(): typeof runTaskProvider {
    return loaded("./runtask/runTaskProvider").runTaskProvider;
  },
  get workspaceRunTask(): typeof workspaceRunTaskProvider {
    return loaded("./runtask/workspaceRunTaskProvider").workspaceRunTaskProvider;
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
