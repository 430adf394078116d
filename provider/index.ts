/**
 * The provider entry that the serialized resource providers `require` by package name at call time
 * (`pulumi-snapshot-runtask/provider`). Keeping the implementation here, not in the serialized text, keeps
 * `__provider` small and secret-free, and makes `read`/`delete` of old state run the installed code.
 */
import { setProviderConfig } from "./config/lookup";
import { runTaskProvider } from "./runtask/runTaskProvider";
import { workspaceRunTaskProvider } from "./runtask/workspaceRunTaskProvider";
import { snapshotAutoConfigProvider } from "./snapshot/provider";

export interface ProviderConfig {
  get(key: string): string | undefined;
}

/** Receives the stack config the engine hands to the plugin (all namespaces, secrets decrypted). */
export function configure(config: ProviderConfig): void {
  setProviderConfig((key) => config.get(key));
}

export const providers = {
  snapshotAutoConfig: snapshotAutoConfigProvider,
  runTask: runTaskProvider,
  workspaceRunTask: workspaceRunTaskProvider,
};

export type ProviderKind = keyof typeof providers;
