import { readdirSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { executableIn, pathDirs } from "../automation/pulumiCli";

/** A plugin the Pulumi CLI loads by kind and name: `pulumi-language-nodejs`, `pulumi-resource-runtask`. */
export interface CliPlugin {
  kind: "language" | "resource";
  name: string;
}

/** The plugins the CLI ships beside its own executable (sdk/go/common/workspace/plugins.go, `IsPluginBundled`). */
const BUNDLED = new Set(["language:nodejs", "language:python", "language:go", "language:dotnet", "language:yaml", "resource:pulumi-nodejs"]);

/** `pulumi-language-nodejs`. */
export function executableOf(plugin: CliPlugin): string {
  return `pulumi-${plugin.kind}-${plugin.name}`;
}

/**
 * Where the `pulumi` CLI at `cli`, run with `env`, finds `plugin`, or undefined where it finds none, looked for as
 * the CLI looks (pulumi/pulumi v3.274.1, sdk/go/common/workspace/plugins.go, `getPluginInfoAndPath`): on PATH unless
 * PULUMI_IGNORE_AMBIENT_PLUGINS is set, beside the CLI's own executable for the plugins it ships, then in the plugin
 * cache (`$PULUMI_HOME/plugins/<kind>-<name>-v<version>/`, any version). A project's own `plugins:` are the
 * caller's to look at.
 */
export function findCliPlugin(plugin: CliPlugin, cli: string, env: NodeJS.ProcessEnv): string | undefined {
  const file = executableOf(plugin);
  const names = process.platform === "win32" ? [`${file}.exe`, `${file}.cmd`, file] : [file];
  const ambient = env.PULUMI_IGNORE_AMBIENT_PLUGINS ? undefined : executableIn(pathDirs(env), names);
  if (ambient) return ambient;
  const bundled = BUNDLED.has(`${plugin.kind}:${plugin.name}`) ? executableIn([dirname(realPath(cli))], names) : undefined;
  if (bundled) return bundled;
  const cache = join(env.PULUMI_HOME || join(homedir(), ".pulumi"), "plugins");
  const prefix = `${plugin.kind}-${plugin.name}-v`;
  const versions = listed(cache).filter((f) => f.startsWith(prefix) && !/\.(lock|partial|lastused)$/.test(f));
  return executableIn(
    versions.map((v) => join(cache, v)),
    names,
  );
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function listed(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
