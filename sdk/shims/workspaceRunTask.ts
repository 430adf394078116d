import { providerShim } from "../shim";

/**
 * The `workspaceRunTask` provider object is this module's whole export. When the package is installed under
 * node_modules, the closure serializer recognises the object as a module and stores just
 * `require("pulumi-snapshot-runtask/shim/workspaceRunTask")` as the resource's provider text: a few hundred bytes,
 * no secret, and the installed code runs at every later read or delete. The subpath must stay stable.
 */
export = providerShim("workspaceRunTask");
