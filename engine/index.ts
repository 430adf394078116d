// The engine driver: a stand-in for the Pulumi engine that starts provider plugins and drives them over gRPC, for the tests, benchmarks and demo; not the Pulumi engine, and not published with the package.
export { Engine, UNKNOWN, urnOf, type EngineOptions, type Registration, type Step, type StepOp } from "./engine";
export { StackState, type ResourceState } from "./state";
export { SECRET_SIG, SECRET_VALUE, secretOutputKeys, stripSecrets } from "./secrets";
export { ProviderPlugin, type PluginLauncher } from "./plugin/providerPlugin";
export { ProviderProcess, type LaunchSpec } from "./plugin/providerProcess";
export { ResourceProviderClient, type DiffAnswer } from "./plugin/resourceProviderClient";
export { dynamicProviderLaunch, dynamicProviderPlugin, type DynamicPluginOptions } from "./plugin/dynamicProviderPlugin";
export { createConsumerProject, type CaptureOptions, type ConsumerProject, type ProgramSpec } from "./project/consumerProject";
export { installPackage } from "./project/installPackage";
export { PACKAGE_NAME, repositoryRoot } from "./project/repository";
