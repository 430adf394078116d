#!/usr/bin/env node
/** `pulumi-resource-snapshot`: the `snapshot` provider plugin, as the engine starts it. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { useCompileCache } from "../../provider/common/compileCache";

// Before anything else loads, so that the plugin's code comes from the compile cache.
useCompileCache(true);

const entry = (existsSync(join(__dirname, "../entry.bundle.js")) ? require("../entry.bundle.js") : require("../entry")) as typeof import("../entry");
entry.serve(entry.snapshotPackage).catch((err: unknown) => {
  console.error(`pulumi-resource-snapshot: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
