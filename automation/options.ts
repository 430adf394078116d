import type { ConfigMap, EngineEvent, PulumiCommand } from "@pulumi/pulumi/automation";
import type { ProvisioningDescription } from "./description";

/**
 * Where the services are and the credentials to use. Addresses, the organization and the namespace become plain
 * stack config; the tokens reach the provider through the CLI's environment (`SERVICE_TOKEN`, `RUNTASK_TOKEN`),
 * never a command line or the stack's config.
 */
export interface ServiceCredentials {
  snapshot?: { address: string; token: string; namespace?: string };
  runTask?: { address: string; token: string; organization?: string };
}

export interface ProvisioningStackOptions {
  /** The stack, e.g. `platform-production`. `provision` creates it on first use. */
  stackName: string;
  /** Default `snapshot-runtask-provisioning`. Stacks are named within a project. */
  projectName?: string;
  /**
   * Where state is kept: `file:///var/lib/pulumi-state`, `s3://bucket/prefix`, `https://api.pulumi.com`... Every
   * CLI call uses it, whatever `PULUMI_BACKEND_URL` the process's environment holds.
   */
  backendUrl: string;
  description: ProvisioningDescription;
  credentials?: ServiceCredentials;
  /**
   * Further stack config, e.g. `{ "snapshot:requestTimeout": { value: "60s" } }`. Entries marked `secret` are
   * handed to the CLI on its standard input, never on its command line.
   */
  config?: ConfigMap;
  /** Passphrase of the passphrase secrets provider (the default of file and object storage backends). */
  passphrase?: string;
  /**
   * The secrets provider of a stack this call creates, e.g. `awskms://alias/pulumi`. A stack keeps the provider it
   * was created with, read from its state on every run; `pulumi stack change-secrets-provider` changes it.
   */
  secretsProvider?: string;
  /**
   * The directory the provider plugin runs in; `pulumi-snapshot-runtask` must be installed there (in its
   * node_modules or above). Default: the current directory.
   */
  programDir?: string;
  /** Isolates the CLI's own state (plugins, credentials). Default: the CLI's (~/.pulumi). */
  pulumiHome?: string;
  /** Extra environment for the CLI and the provider plugin, e.g. `PULUMI_ACCESS_TOKEN` or cloud credentials. */
  envVars?: Record<string, string>;
  /** A specific CLI; default: `pulumi` on PATH. */
  pulumiCommand?: PulumiCommand;
}

export interface ProgressOptions {
  /** The CLI's text output, as it comes. */
  onOutput?: (text: string) => void;
  /** Structured engine events; `describeEngineEvent` turns them into one line each. */
  onEvent?: (event: EngineEvent) => void;
  /** What the helper itself is doing when it waits: for another call on the stack, or an update run elsewhere. */
  onNotice?: (line: string) => void;
}

/** How one run of the engine goes. */
export interface RunOptions extends ProgressOptions {
  /**
   * Cancels the call: before the CLI starts, nothing is run; while it runs, the CLI is interrupted as by Ctrl-C
   * (it finishes the steps in flight, records them, and stops). The call then fails with kind `cancelled`.
   */
  signal?: AbortSignal;
  /** Resource operations run at once (the CLI's `--parallel`). */
  parallel?: number;
  /** The message of the update in the stack's history (the CLI's `--message`). */
  message?: string;
  /** Refresh the state from the services first (the CLI's `--refresh`). */
  refresh?: boolean;
  /**
   * How long to wait out an update of the stack run from elsewhere (another process or machine holds the stack's
   * lock) before failing with kind `concurrent-update`: milliseconds, or a duration such as `"10m"`. Default
   * 10 minutes; 0 fails at once.
   */
  concurrentUpdateWait?: number | string;
}

/** How `provision` goes, besides how every run goes. */
export interface ProvisionOptions extends RunOptions {
  /**
   * Recover from an up whose CLI was killed while creating (SIGKILL, a CI runner's timeout: the object was made,
   * and the state holds a pending create): each resource the stack's state holds a pending create of takes over the
   * object of its identity, if there is one, instead of being refused "already exists", and the pending creates are
   * dropped after, once the state records the resource of every one (the engine drops them all at once: one whose
   * resource the description no longer has stays, and the engine goes on warning of it). Only those resources, and never an object another resource of the stack holds. A killed CLI also
   * leaves the stack locked on a file or object storage backend: cancel that first
   * (`withProvisioningStack(options, (stack) => stack.cancel())`) once no other update is running. Default false.
   */
  adoptPendingCreates?: boolean;
}

export const DEFAULT_PROJECT_NAME = "snapshot-runtask-provisioning";
export const DEFAULT_CONCURRENT_UPDATE_WAIT = "10m";
