/**
 * The provider entry that the serialized resource providers `require` by package name at call time
 * (`pulumi-snapshot-runtask/provider`). Keeping the implementation here, not in the serialized text, keeps
 * `__provider` small and secret-free, and makes `read`/`delete` of old state run the installed code.
 */
import { setProviderConfig } from "./config/lookup";
import type { runTaskProvider } from "./runtask/runTaskProvider";
import type { workspaceRunTaskProvider } from "./runtask/workspaceRunTaskProvider";
import type { snapshotAutoConfigProvider } from "./snapshot/provider";

export interface ProviderConfig {
  get(key: string): string | undefined;
}

/** Receives the stack config the engine hands to the plugin (all namespaces, secrets decrypted). */
export function configure(config: ProviderConfig): void {
  require("node:module").enableCompileCache?.();
  setProviderConfig((key) => config.get(key));
}

/** Each resource's provider, loaded when first used: a stack of one kind never loads the others. */
export const providers = {
  get snapshotAutoConfig(): typeof snapshotAutoConfigProvider {
    return require("./snapshot/provider").snapshotAutoConfigProvider;
  },
  get runTask(): typeof runTaskProvider {
    return require("./runtask/runTaskProvider").runTaskProvider;
  },
  get workspaceRunTask(): typeof workspaceRunTaskProvider {
    return require("./runtask/workspaceRunTaskProvider").workspaceRunTaskProvider;
  },
};

export type ProviderKind = keyof typeof providers;
