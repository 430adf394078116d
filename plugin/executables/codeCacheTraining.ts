/**
 * The child process of a build's training run (codeCache.ts): runs a plugin's script as its executable will
 * (seaMain.ts), serving on a free port, and when its parent asks, once the start-up's first calls were answered,
 * writes V8's code cache of the script, which then holds every function compiled so far, and exits.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Script } from "node:vm";
import { SCRIPT_ASSET, wrappedScript } from "./scriptWrapper";

const [scriptFile, cacheFile] = process.argv.slice(2);
const script = new Script(wrappedScript(readFileSync(scriptFile, "utf8")), { filename: SCRIPT_ASSET });
process.on("message", () => {
  writeFileSync(cacheFile, script.createCachedData());
  process.exit(0);
});
// As the engine starts a plugin: its address the one argument.
process.argv = [process.execPath, process.execPath, "127.0.0.1:0"];
const plugin = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(plugin.exports, require, plugin, scriptFile, __dirname);
