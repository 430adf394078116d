#!/usr/bin/env node
/** `pulumi-resource-runtask`: the `runtask` provider plugin, as the engine starts it. */
import { runPlugin } from "../server/run";

runPlugin("runtask");
