/**
 * The provider core behind the dynamic provider's entry (provider/index.ts), as one module: the build bundles it
 * with its dependencies but undici into `core.bundle.js`, which loads in one read and one compile instead of some
 * two hundred files (zod's among them), after the compile cache is on.
 */
export { setProviderContext } from "./context";
export { startDeployment } from "./takeover/heldObjects";
export { engineAddressArgument, useEngineLog } from "./engineLog";
export { checkSettings } from "./config/configuredSettings";
export { endWithEngine } from "./engineWatch";
export { newClientStats } from "./services/tuning";
export { snapshotAutoConfigProvider } from "./snapshotAutoConfig/provider";
export { runTaskProvider } from "./runTask/provider";
export { workspaceRunTaskProvider } from "./workspaceRunTask/provider";
export { dynamicResourceProvider } from "./dynamicResources";
