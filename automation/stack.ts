import {
  LocalWorkspace,
  type ConfigMap,
  type EngineEvent,
  type OpMap,
  type OutputMap,
  type PulumiCommand,
  type Stack,
  type UpdateSummary,
} from "@pulumi/pulumi/automation";
import type { ProvisioningDescription } from "./description";
import { assertPackageInstalledFrom } from "./packageLocation";
import { provisioningProgram, type ProvisionedOutputs } from "./program";
import { findPulumiCli, missingPulumiCliMessage } from "./pulumiCli";

/** Where the services are and the credentials to use; they become stack config, tokens as secrets. */
export interface ServiceCredentials {
  snapshot?: { address: string; token: string; namespace?: string };
  runTask?: { address: string; token: string; organization?: string };
}

export interface ProvisioningStackOptions {
  /** The stack, e.g. `platform-production`. Created on first use. */
  stackName: string;
  /** Default `snapshot-runtask-provisioning`. Stacks are named within a project. */
  projectName?: string;
  /** Where state is kept: `file:///var/lib/pulumi-state`, `s3://bucket/prefix`, `https://api.pulumi.com`... */
  backendUrl: string;
  description: ProvisioningDescription;
  credentials?: ServiceCredentials;
  /** Further stack config, e.g. `{ "snapshot:requestTimeout": { value: "60s" } }`. */
  config?: ConfigMap;
  /** Passphrase of the default secrets provider (needed by file and object storage backends). */
  passphrase?: string;
  /** Another secrets provider, e.g. `awskms://alias/pulumi`. */
  secretsProvider?: string;
  /**
   * The directory the provider plugin runs in; `pulumi-snapshot-runtask` must be installed there (in its
   * node_modules or above). Default: the current directory.
   */
  programDir?: string;
  /** Isolates the CLI's own state (plugins, credentials). Default: the CLI's (~/.pulumi). */
  pulumiHome?: string;
  /** Extra environment for the CLI and the provider plugin. */
  envVars?: Record<string, string>;
  /** A specific CLI; default: `pulumi` on PATH. */
  pulumiCommand?: PulumiCommand;
}

export interface ProgressOptions {
  /** The CLI's text output, as it comes. */
  onOutput?: (text: string) => void;
  /** Structured engine events; `describeEngineEvent` turns them into one line each. */
  onEvent?: (event: EngineEvent) => void;
}

export interface ProvisionResult {
  outputs: ProvisionedOutputs;
  /** Resource steps by kind, e.g. `{ create: 3, same: 1 }`. */
  changes: OpMap;
  summary: UpdateSummary;
}

export const DEFAULT_PROJECT_NAME = "snapshot-runtask-provisioning";

/** Stack config for the credentials: addresses and names in plain text, tokens as secrets. */
export function credentialsConfig(credentials: ServiceCredentials = {}): ConfigMap {
  const config: ConfigMap = {};
  const { snapshot, runTask } = credentials;
  if (snapshot) {
    config["snapshot:address"] = { value: snapshot.address };
    config["snapshot:token"] = { value: snapshot.token, secret: true };
    if (snapshot.namespace !== undefined) config["snapshot:namespace"] = { value: snapshot.namespace };
  }
  if (runTask) {
    config["runtask:address"] = { value: runTask.address };
    config["runtask:token"] = { value: runTask.token, secret: true };
    if (runTask.organization !== undefined) config["runtask:organization"] = { value: runTask.organization };
  }
  return config;
}

/**
 * The stack, with the description as its inline program and the credentials set as its config. Fails before
 * starting anything when the Pulumi CLI is missing or the provider plugin would not find the package.
 */
export async function openProvisioningStack(options: ProvisioningStackOptions): Promise<Stack> {
  const envVars: Record<string, string> = { PULUMI_SKIP_UPDATE_CHECK: "true", ...options.envVars };
  if (options.passphrase !== undefined) envVars.PULUMI_CONFIG_PASSPHRASE = options.passphrase;
  if (!options.pulumiCommand && !findPulumiCli({ ...process.env, ...envVars })) {
    throw new Error(missingPulumiCliMessage("Provisioning through the Automation API"));
  }
  const programDir = options.programDir ?? process.cwd();
  assertPackageInstalledFrom(programDir);
  const projectName = options.projectName ?? DEFAULT_PROJECT_NAME;
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: options.stackName, projectName, program: provisioningProgram(options.description) },
    {
      // `main` is where the language host and the provider plugin run.
      projectSettings: { name: projectName, runtime: "nodejs", main: programDir, backend: { url: options.backendUrl } },
      envVars,
      secretsProvider: options.secretsProvider,
      pulumiHome: options.pulumiHome,
      pulumiCommand: options.pulumiCommand,
    },
  );
  await stack.setAllConfig({ ...credentialsConfig(options.credentials), ...options.config });
  return stack;
}

/** `pulumi up` of the description: creates, updates and deletes until the services match it. */
export async function provision(options: ProvisioningStackOptions & ProgressOptions & { refresh?: boolean }): Promise<ProvisionResult> {
  const stack = await openProvisioningStack(options);
  const result = await stack.up({ onOutput: options.onOutput, onEvent: options.onEvent, refresh: options.refresh });
  return { outputs: provisionedOutputs(result.outputs), changes: result.summary.resourceChanges ?? {}, summary: result.summary };
}

/** `pulumi preview`: what `provision` would change, without changing anything. */
export async function previewProvisioning(options: ProvisioningStackOptions & ProgressOptions): Promise<{ changes: OpMap }> {
  const stack = await openProvisioningStack(options);
  const result = await stack.preview({ onOutput: options.onOutput, onEvent: options.onEvent });
  return { changes: result.changeSummary };
}

/** `pulumi destroy`: deletes everything the stack holds; `removeStack` then removes the stack as well. */
export async function destroyProvisioning(
  options: Omit<ProvisioningStackOptions, "description"> & ProgressOptions & { description?: ProvisioningDescription; removeStack?: boolean },
): Promise<{ changes: OpMap; summary: UpdateSummary }> {
  const stack = await openProvisioningStack({ ...options, description: options.description ?? {} });
  const result = await stack.destroy({ onOutput: options.onOutput, onEvent: options.onEvent });
  if (options.removeStack) await stack.workspace.removeStack(options.stackName);
  return { changes: result.summary.resourceChanges ?? {}, summary: result.summary };
}

/** The program's outputs as plain values. */
export function provisionedOutputs(outputs: OutputMap): ProvisionedOutputs {
  return {
    snapshots: outputs.snapshots?.value ?? {},
    runTasks: outputs.runTasks?.value ?? {},
    attachments: outputs.attachments?.value ?? {},
  };
}
