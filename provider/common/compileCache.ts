/**
 * Node's module compile cache, in the provider plugins' processes only, flushed after each batch of modules is
 * loaded (the engine kills a plugin, and Node writes the cache only at a normal exit). Why: docs/design.md,
 * "Start-up".
 */
type CompileCacheApi = { enableCompileCache?: () => unknown; flushCompileCache?: () => void; getCompileCacheDir?: () => string | undefined };

let flushScheduled = false;

function api(): CompileCacheApi {
  return require("node:module") as CompileCacheApi;
}

function inPluginProcess(): boolean {
  return /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(require.main?.filename ?? "");
}

/**
 * Turns the cache on for the modules loaded from now on (Node 22.8 and later; a no-op elsewhere), in the dynamic
 * provider plugin's process; `inProviderPlugin` says the caller is a provider plugin's own entry.
 */
export function useCompileCache(inProviderPlugin = false): void {
  if (!(inProviderPlugin || inPluginProcess()) || api().getCompileCacheDir?.()) return;
  api().enableCompileCache?.();
}

/** Writes what was compiled since the last write, once the current work is done; nothing when the cache is off. */
export function persistCompileCache(): void {
  if (flushScheduled || !api().getCompileCacheDir?.()) return;
  flushScheduled = true;
  setImmediate(() => {
    flushScheduled = false;
    api().flushCompileCache?.();
  }).unref();
}
