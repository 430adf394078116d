/**
 * Node's module compile cache, in the plugin process only, flushed after each batch of modules is loaded (the
 * engine kills the plugin, and Node writes the cache only at a normal exit). Why: docs/design.md, "Start-up".
 */
type CompileCacheApi = { enableCompileCache?: () => unknown; flushCompileCache?: () => void };

let enabled = false;
let flushScheduled = false;

function inPluginProcess(): boolean {
  return /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(require.main?.filename ?? "");
}

/**
 * Turns the cache on for the modules loaded from now on (Node 22.8 and later; a no-op elsewhere), in the dynamic
 * provider plugin's process; `inProviderPlugin` says the caller is a provider plugin's own entry.
 */
export function useCompileCache(inProviderPlugin = false): void {
  if (enabled || !(inProviderPlugin || inPluginProcess())) return;
  (require("node:module") as CompileCacheApi).enableCompileCache?.();
  enabled = true;
}

/** Writes what was compiled since the last write, once the current work is done. */
export function persistCompileCache(): void {
  if (!enabled || flushScheduled) return;
  flushScheduled = true;
  setImmediate(() => {
    flushScheduled = false;
    (require("node:module") as CompileCacheApi).flushCompileCache?.();
  }).unref();
}
