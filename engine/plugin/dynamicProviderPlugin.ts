import { dirname, join } from "node:path";
import { projectName } from "../project/pulumiYaml";
import { ProviderPlugin, type PluginLauncher } from "./providerPlugin";
import { ProviderProcess, type LaunchSpec } from "../../test/support/plugin/providerProcess";
import { ResourceProviderClient } from "./resourceProviderClient";

/** The engine's address, passed as the plugin's argument; the dynamic provider plugin never uses it. */
const ENGINE_ADDRESS = "127.0.0.1:0";

export interface DynamicPluginOptions {
  /** Further environment; undefined values unset a variable. */
  env?: NodeJS.ProcessEnv;
  /** The Pulumi project's name, as the engine passes it. Default: the name in the program's Pulumi.yaml. */
  project?: string;
}

/**
 * How the engine launches the real `@pulumi/pulumi/cmd/dynamic-provider` plugin: with the program's own copy of
 * @pulumi/pulumi, in the program's directory (so that `require` in `__provider` resolves from the program's
 * node_modules), with one argument it never uses.
 */
export function dynamicProviderLaunch(programDir: string, options: DynamicPluginOptions = {}): { spec: LaunchSpec; pulumiDir: string } {
  const pulumiDir = dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [programDir] }));
  const project = options.project ?? projectName(programDir) ?? "project";
  return {
    pulumiDir,
    spec: {
      command: process.execPath,
      args: [join(pulumiDir, "cmd/dynamic-provider/index.js"), ENGINE_ADDRESS],
      cwd: programDir,
      env: { ...process.env, PULUMI_NODEJS_PROJECT: project, PULUMI_PROJECT: project, ...options.env },
    },
  };
}

/** Starts the dynamic provider plugin of the program in `programDir` (see dynamicProviderLaunch). */
export function dynamicProviderPlugin(programDir: string, options: DynamicPluginOptions = {}): PluginLauncher {
  return {
    async start() {
      const { spec, pulumiDir } = dynamicProviderLaunch(programDir, options);
      const process = await ProviderProcess.start(spec);
      return new ProviderPlugin(process, ResourceProviderClient.connect(`127.0.0.1:${process.port}`, pulumiDir));
    },
  };
}
