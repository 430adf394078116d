#!/usr/bin/env node
/** `pulumi-resource-snapshot`: the `snapshot` provider plugin, as the engine starts it. */
import { useCompileCache } from "../../provider/common/compileCache";

// Before anything else loads, so that the gRPC server and the provider come from the compile cache.
useCompileCache(true);

const { serve } = require("../serve") as typeof import("../serve");
const { snapshotPackage } = require("../packages/snapshot") as typeof import("../packages/snapshot");
serve(snapshotPackage).catch((err: unknown) => {
  console.error(`pulumi-resource-snapshot: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
