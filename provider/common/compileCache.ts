/**
 * Node's module compile cache for the provider plugin. Every `pulumi` command starts the plugin afresh, and
 * most of what our code adds to its start is compiling zod, undici and the provider. With the cache, later
 * commands read the compiled code from disk instead (`os.tmpdir()/node-compile-cache`, or `NODE_COMPILE_CACHE`;
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off). Node writes the cache when a process exits normally, and the
 * engine kills the plugin instead, so it is written out after each batch of modules is loaded.
 *
 * Only in the plugin process: a program, a test runner or any other host keeps its own settings.
 */
type CompileCacheApi = { enableCompileCache?: () => unknown; flushCompileCache?: () => void };

let enabled = false;
let flushScheduled = false;

function inPluginProcess(): boolean {
  return /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(require.main?.filename ?? "");
}

/** Turns the cache on for the modules loaded from now on (Node 22.8 and later; a no-op elsewhere). */
export function useCompileCache(): void {
  if (enabled || !inPluginProcess()) return;
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
