import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PulumiEngine } from "../../../toolchain/pulumiEngine";

/**
 * How the engine finds the provider plugins where they are installed as Pulumi installs providers, in its plugin
 * cache (`$PULUMI_HOME/plugins`, by `pulumi plugin install` or its own download), on a machine without Node.js:
 * PATH is `path` alone (see enginePathOnly), and executables on it are never taken for plugins
 * (PULUMI_IGNORE_AMBIENT_PLUGINS). With `download`, the engine downloads a plugin that is not installed.
 */
export interface PluginCache {
  path: string;
  download?: boolean;
}

/** `env` (an offline engine environment) with the plugins taken from the plugin cache alone. */
export function fromPluginCache(env: NodeJS.ProcessEnv, cache: PluginCache): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, PATH: cache.path, PULUMI_IGNORE_AMBIENT_PLUGINS: "true" };
  if (cache.download) {
    delete out.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
    // The only server a download may reach is the test's own on loopback, which Go's proxy rules never send through a
    // proxy: any other address goes to a proxy that is not there, and fails at once. Nor is the Pulumi Registry asked.
    Object.assign(out, {
      HTTPS_PROXY: "http://127.0.0.1:9",
      HTTP_PROXY: "http://127.0.0.1:9",
      NO_PROXY: "",
      PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
    });
  }
  return out;
}

/** A folder holding `engine`'s `pulumi` CLI and YAML language host, and nothing else: no Node.js, no node_modules/.bin. */
export function enginePathOnly(engine: PulumiEngine): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "engine-only-"));
  for (const name of ["pulumi", "pulumi-language-yaml"]) symlinkSync(join(engine.path[0], name), join(dir, name));
  if (readdirSync(dir).length !== 2) throw new Error(`${dir} should hold the CLI and the YAML host alone`);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * `pulumi plugin install resource <plugin> <version> --file <archive>` (or `--server <url>`) into `env`'s PULUMI_HOME:
 * its exit code and output. It never blocks this process, which may be serving the download.
 */
export function installPlugin(
  env: NodeJS.ProcessEnv,
  plugin: string,
  version: string,
  from: ({ file: string } | { server: string }) & { checksum?: string },
): Promise<{ code: number; output: string }> {
  const source = [...("file" in from ? ["--file", from.file] : ["--server", from.server]), ...(from.checksum ? ["--checksum", from.checksum] : [])];
  return new Promise((resolve) => {
    const child = spawn("pulumi", ["plugin", "install", "resource", plugin, version, ...source, "--non-interactive"], { env, cwd: tmpdir() });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (err) => resolve({ code: 127, output: `${output}${err.message}` }));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}
