import { existsSync } from "node:fs";
import { join } from "node:path";
import { useCompileCache } from "../../provider/common/compileCache";
import { embeddedPlugin, pluginVersion } from "./identity";

export type PluginName = "snapshot" | "runtask";

const SERVES = {
  snapshot: {
    what: "automated snapshot configurations (snapshot:index:SnapshotAutoConfig) and their functions",
    settings: "snapshot:address and snapshot:token (stack config), or SERVICE_ADDR and SERVICE_TOKEN",
  },
  runtask: {
    what: "run tasks and their workspace associations (runtask:index:RunTask, runtask:index:WorkspaceRunTask) and their functions",
    settings: "runtask:address, runtask:token and runtask:organization (stack config), or RUNTASK_ADDR, RUNTASK_TOKEN and RUNTASK_ORGANIZATION",
  },
};

/** What `pulumi-resource-<name> --help` prints: the engine starts the plugin, users seldom do. */
export function pluginUsage(name: PluginName): string {
  const version = pluginVersion();
  const install = embeddedPlugin()
    ? `Programs do not run it themselves: install it with \`pulumi plugin install resource ${name} ${version} --file
pulumi-resource-${name}-v${version}-<os>-<arch>.tar.gz\` (the archive this executable came in), or let the engine
download it, and the engine starts it.`
    : `Programs do not run it themselves: the engine starts it when a program uses the ${name} package, from the
plugins installed by pulumi plugin install (or downloaded by the engine), or as pulumi-resource-${name} on PATH.`;
  return `Usage: pulumi-resource-${name} [engine-address]

The ${name} provider plugin of pulumi-snapshot-runtask ${version}: the Pulumi engine starts it to manage
${SERVES[name].what}. It serves the provider protocol on a free loopback port, prints the port alone on its first
line, and stops on Ctrl-C.

${install} To debug it, start it yourself
and set PULUMI_DEBUG_PROVIDERS=${name}:<port> for the pulumi command. Its settings: ${SERVES[name].settings}.
See the package's docs/installation-configuration.md.`;
}

type Entry = typeof import("./entry");

/** The npm package's entry: its bundle where the build made one, else its modules (under test). */
function packageEntry(): Entry {
  useCompileCache(true);
  const bundle = join(__dirname, "entry.bundle.js");
  return (existsSync(bundle) ? require(bundle) : require("./entry")) as Entry;
}

/**
 * Runs a provider plugin's executable: the server, from `load` (by default the npm package's entry, with the compile
 * cache on first, so that the plugin's code comes from it). `--help` (which the engine never passes) prints the
 * usage instead; started by hand in a terminal, it says what it is first.
 */
export function runPlugin(name: PluginName, args: string[] = process.argv.slice(2), load: () => Entry = packageEntry): void {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${pluginUsage(name)}\n`);
    return;
  }
  if (args.length === 0 && process.stderr.isTTY) {
    // Started by hand in a terminal (the engine passes its address, and reads stderr through a pipe): say what this is.
    process.stderr.write(
      `pulumi-resource-${name} ${pluginVersion()}: a provider plugin, which the Pulumi engine starts; it serves on the port below until Ctrl-C (--help says more)\n`,
    );
  }
  const entry = load();
  entry.serve(name === "snapshot" ? entry.snapshotPackage : entry.runtaskPackage).catch((err: unknown) => {
    console.error(`pulumi-resource-${name}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
