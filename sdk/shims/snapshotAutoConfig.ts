import { providerShim } from "../shim";

/**
 * The `snapshotAutoConfig` provider object is this module's whole export. Every resource's provider text is
 * `exports.handler=()=>require("pulumi-snapshot-runtask/shim/snapshotAutoConfig")` (sdk/dynamicResource.ts), and older
 * states hold the closure serializer's text requiring the same subpath: no secret, and the installed code runs at
 * every later read or delete. The subpath must stay stable.
 */
export = providerShim("snapshotAutoConfig");
