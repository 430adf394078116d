// Run by the Node language host (`pulumi package add`, `packages:` in Pulumi.yaml): serves the snapshot provider plugin.
// Exports nothing, so that the host does not take this for a component provider.
"use strict";
require("../../dist/plugin/bin/snapshot.js");
