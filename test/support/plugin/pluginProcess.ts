// One of the package's provider plugins started from a consumer project as the engine starts it, with its client.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PACKAGE_NAME } from "../../../toolchain/repository";
import { NativeProviderClient } from "./pluginClient";
import { ProviderProcess, type LaunchSpec } from "./providerProcess";

/** The engine's address, passed as the plugin's last argument; these plugins do not call the engine. */
const ENGINE_ADDRESS = "127.0.0.1:0";

/**
 * How the engine launches a provider plugin executable found on PATH (`pulumi-resource-<name> <engine-address>`),
 * here the one the installed package's `bin` names, in the program's directory. It is run with this Node: the
 * engine would run it through its `#!/usr/bin/env node` line, which needs a Node 22 on PATH.
 */
export function nativeProviderLaunch(
  programDir: string,
  name: "snapshot" | "runtask",
  env: NodeJS.ProcessEnv = {},
): { spec: LaunchSpec; pulumiDir: string } {
  const packageDir = installedPackage(programDir);
  const bin = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { bin: Record<string, string> }).bin[`pulumi-resource-${name}`];
  if (!bin) throw new Error(`the installed package has no bin pulumi-resource-${name}`);
  return {
    pulumiDir: dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [programDir] })),
    spec: { command: process.execPath, args: [join(packageDir, bin), ENGINE_ADDRESS], cwd: programDir, env: { ...process.env, ...env } },
  };
}

/**
 * The package as installed for the program: the nearest `node_modules/pulumi-snapshot-runtask` above it, as
 * Node looks for it. Not `require.resolve`: from this repository that resolves the package to itself.
 */
function installedPackage(programDir: string): string {
  for (let dir = resolve(programDir); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", PACKAGE_NAME);
    if (existsSync(join(candidate, "package.json"))) return candidate;
  }
  throw new Error(`${PACKAGE_NAME} is not installed for ${programDir}`);
}

/** A running provider plugin and its client. */
export interface NativeProviderPlugin {
  process: ProviderProcess;
  client: NativeProviderClient;
  /** Milliseconds from the spawn to the port on stdout. */
  startedInMs: number;
  /** As the engine closes a plugin: the connection, then SIGINT; resolves with its exit code and how long it took. */
  stop(): Promise<{ code: number | null; ms: number }>;
}

export async function startNativeProviderPlugin(
  programDir: string,
  name: "snapshot" | "runtask",
  env: NodeJS.ProcessEnv = {},
): Promise<NativeProviderPlugin> {
  const { spec, pulumiDir } = nativeProviderLaunch(programDir, name, env);
  const started = Date.now();
  const process = await ProviderProcess.start(spec);
  const startedInMs = Date.now() - started;
  const client = new NativeProviderClient(`127.0.0.1:${process.port}`, pulumiDir);
  return {
    process,
    client,
    startedInMs,
    async stop() {
      client.close();
      const begun = Date.now();
      const code = await process.interrupt();
      return { code, ms: Date.now() - begun };
    },
  };
}
