#!/usr/bin/env node
/** `pulumi-resource-runtask`: the `runtask` provider plugin, as the engine starts it. */
import { useCompileCache } from "../../provider/common/compileCache";

// Before anything else loads, so that the gRPC server and the provider come from the compile cache.
useCompileCache(true);

const { serve } = require("../serve") as typeof import("../serve");
const { runtaskPackage } = require("../packages/runtask") as typeof import("../packages/runtask");
serve(runtaskPackage).catch((err: unknown) => {
  console.error(`pulumi-resource-runtask: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
