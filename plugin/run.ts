import { existsSync } from "node:fs";
import { join } from "node:path";
import { useCompileCache } from "../provider/common/compileCache";

/**
 * Runs a provider plugin's executable: the compile cache on first, so that the plugin's code (its bundle where
 * the build made one, else its modules) comes from it, then the server.
 */
export function runPlugin(name: "snapshot" | "runtask"): void {
  useCompileCache(true);
  const entry = (existsSync(join(__dirname, "entry.bundle.js")) ? require("./entry.bundle.js") : require("./entry")) as typeof import("./entry");
  entry.serve(name === "snapshot" ? entry.snapshotPackage : entry.runtaskPackage).catch((err: unknown) => {
    console.error(`pulumi-resource-${name}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
