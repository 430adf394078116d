/**
 * What the provider plugins' executables run, as one module: the build bundles it with its dependencies but
 * undici, gRPC and the protobuf messages into `entry.bundle.js`, one read and one compile at start-up.
 */
export { serve } from "./serve";
export { snapshotPackage } from "../packages/snapshot";
export { runtaskPackage } from "../packages/runtask";
