#!/usr/bin/env node
/** `pulumi-resource-snapshot`: the `snapshot` provider plugin, as the engine starts it. */
import { runPlugin } from "../server/run";

runPlugin("snapshot");
