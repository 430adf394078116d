/**
 * The main script of a plugin's single executable (bundled by the build): the plugin's script, an asset of the
 * executable, compiled with the code cache the build's training run left, so that the functions a start-up runs are
 * not compiled again at every start. Where the cache is missing (a build for another platform) or refused (V8 flags
 * that differ), V8 compiles as usual.
 */
import { getAsset } from "node:sea";
import { Script } from "node:vm";
import { CACHE_ASSET, SCRIPT_ASSET, wrappedScript } from "./scriptWrapper";

function cache(): Buffer | undefined {
  try {
    return Buffer.from(getAsset(CACHE_ASSET));
  } catch {
    return undefined;
  }
}

const script = new Script(wrappedScript(getAsset(SCRIPT_ASSET, "utf8")), { filename: SCRIPT_ASSET, cachedData: cache() });
(script.runInThisContext() as (...args: unknown[]) => void)(module.exports, require, module, __filename, __dirname);
