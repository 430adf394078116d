/**
 * How a standalone executable runs its plugin's script: compiled with `vm.Script` as a CommonJS module's function,
 * with V8's code cache of it where the build made one. The build's training run (codeCacheTraining.ts) and the
 * executable (seaMain.ts) compile the very same text, as V8 accepts a cache only for the source it was made from.
 */
export const SCRIPT_ASSET = "plugin.js";
export const CACHE_ASSET = "plugin.cache";

export function wrappedScript(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}
