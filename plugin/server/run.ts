import { existsSync } from "node:fs";
import { join } from "node:path";
import { useCompileCache } from "../../provider/common/compileCache";
import { packageVersion } from "./packageRoot";

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
export function pluginUsage(name: "snapshot" | "runtask"): string {
  return `Usage: pulumi-resource-${name} [engine-address]

The ${name} provider plugin of pulumi-snapshot-runtask ${packageVersion()}: the Pulumi engine starts it to manage
${SERVES[name].what}. It serves the provider protocol on a free loopback port, prints the port alone on its first
line, and stops on Ctrl-C.

Programs do not run it themselves: the engine starts it when a program uses the ${name} package, from the
plugins installed by pulumi plugin install (or downloaded by the engine), or as pulumi-resource-${name} on PATH.
To debug it, start it yourself and set PULUMI_DEBUG_PROVIDERS=${name}:<port> for the pulumi command. Its settings:
${SERVES[name].settings}. See the package's docs/installation-configuration.md.`;
}

/**
 * Runs a provider plugin's executable: the compile cache on first, so that the plugin's code (its bundle where
 * the build made one, else its modules) comes from it, then the server. `--help` (which the engine never passes)
 * prints the usage instead.
 */
export function runPlugin(name: "snapshot" | "runtask", args: string[] = process.argv.slice(2)): void {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${pluginUsage(name)}\n`);
    return;
  }
  useCompileCache(true);
  const entry = (existsSync(join(__dirname, "entry.bundle.js")) ? require("./entry.bundle.js") : require("./entry")) as typeof import("./entry");
  entry.serve(name === "snapshot" ? entry.snapshotPackage : entry.runtaskPackage).catch((err: unknown) => {
    console.error(`pulumi-resource-${name}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
