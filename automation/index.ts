/**
 * `pulumi-snapshot-runtask/automation`: provision snapshot configurations, run tasks and their attachment to
 * workspaces from a declarative description, through the Pulumi Automation API (it drives the `pulumi` CLI,
 * which must be installed).
 */
export { attachmentResourceName, planAttachments, type AttachmentDescription, type ProvisioningDescription } from "./description";
export { provisioningProgram, type ProvisionedOutputs, type ProvisionedOutputsOf } from "./program";
export {
  credentialsConfig,
  destroyProvisioning,
  openProvisioningStack,
  previewProvisioning,
  provision,
  provisionedOutputs,
  DEFAULT_PROJECT_NAME,
  type ProgressOptions,
  type ProvisioningStackOptions,
  type ProvisionResult,
  type ServiceCredentials,
} from "./stack";
export { describeChanges, describeEngineEvent } from "./progress";
export { findPulumiCli, missingPulumiCliMessage, PULUMI_INSTALL_URL } from "./pulumiCli";
export { assertPackageInstalledFrom, packageInstalledFrom } from "./packageLocation";
