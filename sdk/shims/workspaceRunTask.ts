import { providerShim } from "../shim";

/**
 * The `workspaceRunTask` provider object is this module's whole export. Every resource's provider text is
 * `exports.handler=()=>require("pulumi-snapshot-runtask/shim/workspaceRunTask")` (sdk/dynamicResource.ts), and older
 * states hold the closure serializer's text requiring the same subpath: no secret, and the installed code runs at
 * every later read or delete. The subpath must stay stable.
 */
export = providerShim("workspaceRunTask");
