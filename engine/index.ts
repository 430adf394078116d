// The engine driver: a stand-in for the Pulumi engine that starts provider plugins and drives them over gRPC, for the tests, benchmarks and demo; not the Pulumi engine, and not published with the package.
export { Engine, type EngineOptions } from "./engine";
export { UNKNOWN, type Registration } from "./registration";
export type { Step, StepEvent, StepOp } from "./steps";
export { StackState, type ResourceState } from "./state";
export { SECRET_SIG, SECRET_VALUE, secretOutputKeys, stripSecrets } from "./secrets";
export { plainConfig, programConfigEnv, type StackConfig } from "./stackConfig";
export { ProviderPlugin, type PluginLauncher } from "./plugin/providerPlugin";
export { ProviderProcess, type LaunchSpec } from "../test/support/plugin/providerProcess";
export { ResourceProviderClient, type DiffAnswer } from "./plugin/resourceProviderClient";
export { dynamicProviderLaunch, dynamicProviderPlugin, type DynamicPluginOptions } from "./plugin/dynamicProviderPlugin";
export {
  createConsumerProject,
  type CaptureOptions,
  type ConsumerProject,
  type ConsumerProjectOptions,
  type ProgramRun,
  type ProgramSpec,
  type ResourceOptionsSpec,
  type StackOutputs,
} from "./project/consumerProject";
export { installPackage } from "./project/installPackage";
export { projectName } from "./project/pulumiYaml";
export { PACKAGE_NAME, repositoryRoot } from "../demo/repository";
export { NativeProviderClient, reveal, secret, secretKeys, type NativeDiff } from "../test/support/plugin/pluginClient";
export { nativeProviderLaunch, startNativeProviderPlugin, type NativeProviderPlugin } from "../test/support/plugin/pluginProcess";
export {
  knownAtUp,
  NativeEngine,
  nativeProgram,
  type NativeProviderResource,
  type NativeResource,
  type NativeStep,
  type PackageName,
} from "./nativeEngine";
