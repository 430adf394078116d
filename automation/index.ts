/**
 * `pulumi-snapshot-runtask/automation`: provision snapshot configurations, run tasks and their attachment to
 * workspaces from a declarative description, through the Pulumi Automation API (it drives the `pulumi` CLI,
 * which must be installed).
 */
export { attachmentResourceName, planAttachments, type AttachmentDescription, type ProvisioningDescription } from "./description";
export { provisioningProgram, type ProvisionedOutputs, type ProvisionedOutputsOf } from "./program";
export {
  DEFAULT_PROJECT_NAME,
  type ProgressOptions,
  type ProvisioningStackOptions,
  type ProvisionOptions,
  type RunOptions,
  type ServiceCredentials,
} from "./options";
export { credentialsConfig, credentialsEnvironment, MINIMUM_PULUMI_VERSION } from "./cliEnvironment";
export { destroyProvisioning, previewProvisioning, provision, provisionedOutputs, withProvisioningStack, type ProvisionResult } from "./stack";
export { ProvisioningError, type ProvisioningErrorKind, type ProvisioningOperation, type ProvisioningStep } from "./errors";
export type { ResourceFailure } from "./failures";
export { describeChanges, describeEngineEvent } from "./progress";
export { findPulumiCli, missingPulumiCliMessage, PULUMI_INSTALL_URL } from "./pulumiCli";
export { assertPackageInstalledFrom, packageInstalledFrom } from "./packageLocation";
