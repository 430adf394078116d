import {
  LocalWorkspace,
  Stack,
  StackAlreadyExistsError,
  StackNotFoundError,
  type EngineEvent,
  type OpMap,
  type OutputMap,
  type UpdateSummary,
  type UpResult,
} from "@pulumi/pulumi/automation";
import { linkedInterrupt } from "./abort";
import { cliEnvironment, credentialsConfig, MINIMUM_PULUMI_VERSION, versionAtLeast } from "./cliEnvironment";
import { concurrentUpdateBound, waitingOutConcurrentUpdates } from "./concurrentUpdates";
import type { ProvisioningDescription } from "./description";
import { missingStackMessage, ProvisioningError, provisioningError, type CallContext, type ProvisioningOperation } from "./errors";
import { FailureCollector } from "./failures";
import { DEFAULT_PROJECT_NAME, type ProgressOptions, type ProvisioningStackOptions, type ProvisionOptions, type RunOptions } from "./options";
import { ADOPT_PENDING_CREATES } from "../provider/takeover/pendingCreates";
import { assertPackageInstalledFrom } from "./packageLocation";
import { provisioningProgram, type ProvisionedOutputs } from "./program";
import { findPulumiCli, missingPulumiCliMessage } from "./pulumiCli";
import { redact, redactError, redactEvent, secretsOf } from "./redaction";
import { setSecretConfig } from "./secretConfig";
import { inStackTurn } from "./stackTurns";
import { inWorkDirectory } from "./workDirectory";
import { pendingCreates, unrecordedPendingCreates } from "../provider/takeover/stackStates";

export interface ProvisionResult {
  outputs: ProvisionedOutputs;
  /** Resource steps by kind, e.g. `{ create: 3, same: 1 }`. */
  changes: OpMap;
  summary: UpdateSummary;
}

type Call = ProvisioningStackOptions & RunOptions;

/**
 * How long an aborted call waits for the CLI to say that a SIGINT reached it already (a Ctrl-C in a terminal
 * reaches the CLI and the caller at once) before it interrupts the CLI itself (see `linkedInterrupt`).
 */
const CTRL_C_GRACE_MS = 1_500;

/**
 * Up and destroy read their summary without secrets: the Automation API reads it with `stack history
 * --show-secrets` unless told otherwise, and the summary's `config` would then hold each secret config value in
 * plain text. Without it the CLI gives a secret entry as `{ secret: true }`, with no value.
 */
const SUMMARY_WITHOUT_SECRETS = { showSecrets: false } as const;

/** One call's state: what the error mapping reads, and the progress callbacks with secrets taken out. */
interface CallState extends CallContext {
  options: Call;
  notice: (line: string) => void;
  onOutput?: (text: string) => void;
}

/**
 * Runs `body` on the stack: checks what can be checked before the CLI runs, waits for this process's earlier
 * calls on the same stack, opens the stack in a temporary work directory (selecting it, creating it when
 * `create` says so, or selecting it after all when a racing call created it first), sets its config, and
 * removes the directory at the end. Every error leaves as a `ProvisioningError` free of secrets.
 */
async function onStack<T>(
  operation: ProvisioningOperation,
  options: Call,
  create: boolean,
  body: (stack: Stack, state: CallState) => Promise<T>,
): Promise<T> {
  const env = cliEnvironment(options);
  if (!options.pulumiCommand && !findPulumiCli({ ...process.env, ...env })) {
    throw new Error(missingPulumiCliMessage("Provisioning through the Automation API"));
  }
  const programDir = options.programDir ?? process.cwd();
  assertPackageInstalledFrom(programDir);
  const program = provisioningProgram(options.description);
  concurrentUpdateBound(options.concurrentUpdateWait);
  const projectName = options.projectName ?? DEFAULT_PROJECT_NAME;
  const secrets = secretsOf(options);
  const state: CallState = {
    operation,
    stackName: options.stackName,
    backendUrl: options.backendUrl,
    signal: options.signal,
    secrets,
    options,
    notice: (line) => options.onNotice?.(`stack "${options.stackName}": ${line}`),
    onOutput: options.onOutput && ((text) => options.onOutput!(redact(text, secrets))),
  };
  const key = JSON.stringify([options.backendUrl, projectName, options.stackName]);
  try {
    options.signal?.throwIfAborted();
    return await inStackTurn(
      key,
      options.signal,
      () => state.notice("waiting for another call on this stack in this process to finish"),
      () =>
        inWorkDirectory({ projectName, pulumiHome: options.pulumiHome ?? env.PULUMI_HOME }, async (workDir) => {
          state.step = "select";
          const workspace = await LocalWorkspace.create({
            workDir,
            program,
            // `main` is where the language host and the provider plugin run.
            projectSettings: { name: projectName, runtime: "nodejs", main: programDir, backend: { url: options.backendUrl } },
            envVars: env,
            secretsProvider: options.secretsProvider,
            pulumiHome: options.pulumiHome,
            pulumiCommand: options.pulumiCommand,
          });
          requireCliVersion(workspace);
          options.signal?.throwIfAborted();
          const stack = await selectStack(workspace, state, create);
          options.signal?.throwIfAborted();
          state.step = "config";
          await setConfig(workspace, stack, options);
          options.signal?.throwIfAborted();
          return await body(stack, state);
        }),
    );
  } catch (err) {
    // An error of the caller's own code in `withProvisioningStack` leaves as it came.
    if (err instanceof PassThrough) throw err.error;
    throw provisioningError(err, state);
  }
}

/** Carries an error of the caller's `fn` (in `withProvisioningStack`) through the helper's error mapping. */
class PassThrough {
  constructor(readonly error: unknown) {}
}

function requireCliVersion(workspace: LocalWorkspace): void {
  let version: string;
  try {
    version = workspace.pulumiVersion;
  } catch {
    return; // unknown (the version check was skipped): let the CLI speak for itself
  }
  if (!versionAtLeast(version, MINIMUM_PULUMI_VERSION)) {
    throw new Error(
      `the Pulumi CLI is version ${version}; provisioning needs ${MINIMUM_PULUMI_VERSION} or later (it keeps a stack's secrets provider ` +
        "from run to run, and destroys with an inline program). Upgrade it: https://www.pulumi.com/docs/install/",
    );
  }
}

/** Selects the stack; creates it if asked and missing; selects it after all when a racing call created it first. */
async function selectStack(workspace: LocalWorkspace, state: CallState, create: boolean): Promise<Stack> {
  try {
    return await Stack.select(state.stackName, workspace);
  } catch (err) {
    if (!(err instanceof StackNotFoundError)) throw err;
    if (!create) {
      redactError(err, state.secrets);
      throw new ProvisioningError("stack-not-found", state.operation, state.stackName, "select", missingStackMessage(state), [], { cause: err });
    }
  }
  state.step = "create";
  try {
    return await Stack.create(state.stackName, workspace);
  } catch (err) {
    if (!(err instanceof StackAlreadyExistsError)) throw err;
    state.step = "select";
    return await Stack.select(state.stackName, workspace);
  }
}

/**
 * Plain values in one `config set-all`; each secret value through the CLI's standard input. The work directory
 * is new, so the stack's settings file holds exactly this config.
 */
async function setConfig(workspace: LocalWorkspace, stack: Stack, options: ProvisioningStackOptions): Promise<void> {
  const config = { ...credentialsConfig(options.credentials), ...options.config };
  const plain = Object.fromEntries(Object.entries(config).filter(([, v]) => !v.secret));
  if (Object.keys(plain).length > 0) await stack.setAllConfig(plain);
  for (const [key, { value, secret }] of Object.entries(config)) {
    if (secret) await setSecretConfig(workspace, stack.name, key, value);
  }
}

/**
 * One run of the engine (`up`, `preview`, `destroy`): its events gathered for the failure summary as well as
 * passed on, an update run elsewhere waited out, and the caller's signal linked for this run only.
 */
async function engineRun<T>(
  state: CallState,
  step: "up" | "preview" | "destroy" | "refresh",
  run: (progress: { signal: AbortSignal; onEvent: (event: EngineEvent) => void; onOutput?: (text: string) => void }) => Promise<T>,
): Promise<T> {
  state.step = step;
  const options = state.options;
  return waitingOutConcurrentUpdates(
    async () => {
      const failures = new FailureCollector();
      state.failures = () => failures.failures();
      state.generalErrors = () => failures.generalErrors();
      let interrupted = false;
      const link = linkedInterrupt(options.signal, () => interrupted, CTRL_C_GRACE_MS);
      try {
        return await run({
          signal: link.signal,
          onEvent: (event) => {
            const clean = redactEvent(event, state.secrets);
            failures.onEvent(clean);
            options.onEvent?.(clean);
          },
          onOutput: (text) => {
            // The CLI's word that a SIGINT reached it (a Ctrl-C in the caller's terminal): "^C received; cancelling."
            if (text.includes("^C received")) interrupted = true;
            state.onOutput?.(text);
          },
        });
      } finally {
        link.dispose();
      }
    },
    {
      boundMs: concurrentUpdateBound(options.concurrentUpdateWait),
      signal: options.signal,
      notice: state.notice,
      waited: (ms) => (state.waitedMs = ms),
    },
  );
}

/**
 * `pulumi up` of the description: creates the stack if needed, then creates, updates and deletes until the
 * services match the description. Calls for one stack in this process run one after the other.
 */
export async function provision(options: ProvisioningStackOptions & ProvisionOptions): Promise<ProvisionResult> {
  return onStack("provision", options, true, async (stack, state) => {
    const pending = options.adoptPendingCreates ? await pendingCreatesOf(stack) : [];
    // The provider's recovery of an up that was stopped (provider/takeover/pendingCreates.ts), for these resources only.
    if (pending.length > 0) stack.workspace.envVars[ADOPT_PENDING_CREATES] = pending.join(" ");
    let result: UpResult;
    try {
      result = await engineRun(state, "up", (progress) =>
        stack.up({ ...progress, parallel: options.parallel, message: options.message, refresh: options.refresh, ...SUMMARY_WITHOUT_SECRETS }),
      );
    } finally {
      delete stack.workspace.envVars[ADOPT_PENDING_CREATES];
    }
    // The resources are recorded now: the pending creates go, so that no later command warns of them. The engine
    // drops every pending create of the stack whatever `target` says: only once each one's resource is recorded, so
    // that the object of a create whose resource the description no longer has is never forgotten without a word
    // (the engine's warning of it stays).
    if (pending.length > 0 && (await everyPendingCreateRecorded(stack))) {
      await engineRun(state, "refresh", (progress) => stack.refresh({ ...progress, clearPendingCreates: true, target: pending }));
    }
    return { outputs: provisionedOutputs(result.outputs), changes: result.summary.resourceChanges ?? {}, summary: result.summary };
  });
}

/** The URNs of this package's resources whose create the stack's state holds as pending (an up that was stopped). */
async function pendingCreatesOf(stack: Stack): Promise<string[]> {
  return pendingCreates((await stack.exportStack()).deployment)
    .filter((create) => DYNAMIC_TYPES.has(create.type))
    .map((create) => create.urn);
}

/** Whether the stack's state records the resource of each of its pending creates, of whatever type. */
async function everyPendingCreateRecorded(stack: Stack): Promise<boolean> {
  return unrecordedPendingCreates((await stack.exportStack()).deployment).length === 0;
}

/** The type tokens of the resources the helper's program makes (sdk/: the dynamic resources). */
const DYNAMIC_TYPES = new Set([
  "pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig",
  "pulumi-nodejs:dynamic/runtask:RunTask",
  "pulumi-nodejs:dynamic/runtask:WorkspaceRunTask",
]);

/** `pulumi preview`: what `provision` would change, without changing anything. The stack must exist. */
export async function previewProvisioning(options: ProvisioningStackOptions & RunOptions): Promise<{ changes: OpMap }> {
  return onStack("preview", options, false, async (stack, state) => {
    const result = await engineRun(state, "preview", (progress) =>
      stack.preview({ ...progress, parallel: options.parallel, message: options.message, refresh: options.refresh }),
    );
    return { changes: result.changeSummary };
  });
}

/**
 * `pulumi destroy`: deletes everything the stack holds; `removeStack` then removes the stack as well. The stack
 * must exist.
 */
export async function destroyProvisioning(
  options: Omit<ProvisioningStackOptions, "description"> & RunOptions & { description?: ProvisioningDescription; removeStack?: boolean },
): Promise<{ changes: OpMap; summary: UpdateSummary }> {
  return onStack("destroy", { ...options, description: options.description ?? {} }, false, async (stack, state) => {
    const result = await engineRun(state, "destroy", (progress) =>
      stack.destroy({ ...progress, parallel: options.parallel, message: options.message, refresh: options.refresh, ...SUMMARY_WITHOUT_SECRETS }),
    );
    if (options.removeStack) {
      state.step = "remove";
      await stack.workspace.removeStack(options.stackName);
    }
    return { changes: result.summary.resourceChanges ?? {}, summary: result.summary };
  });
}

/**
 * The Automation API `Stack`, for anything else (refresh, export, history): `fn` runs with the stack selected
 * and its config set, in this process's turn on the stack, and the work directory is removed when it settles.
 * The stack must exist unless `createIfMissing`. Errors of the CLI that `fn` lets through have their secrets
 * replaced.
 */
export async function withProvisioningStack<T>(
  options: ProvisioningStackOptions & Pick<RunOptions, "signal"> & Pick<ProgressOptions, "onNotice"> & { createIfMissing?: boolean },
  fn: (stack: Stack) => Promise<T>,
): Promise<T> {
  return onStack("open", options, options.createIfMissing ?? false, async (stack, state) => {
    try {
      return await fn(stack);
    } catch (err) {
      redactError(err, state.secrets);
      throw new PassThrough(err);
    }
  });
}

/** The program's outputs as plain values. */
export function provisionedOutputs(outputs: OutputMap): ProvisionedOutputs {
  return {
    snapshots: outputs.snapshots?.value ?? {},
    runTasks: outputs.runTasks?.value ?? {},
    attachments: outputs.attachments?.value ?? {},
  };
}
