import { ConcurrentUpdateError, StackNotFoundError } from "@pulumi/pulumi/automation";
import ms from "ms";
import type { ResourceFailure } from "./failures";
import { redact, redactError } from "./redaction";

/** What a call of the helper was doing: the public function that was called. */
export type ProvisioningOperation = "provision" | "preview" | "destroy" | "open";

/** Where in the call it failed. */
export type ProvisioningStep = "select" | "create" | "config" | "up" | "preview" | "destroy" | "refresh" | "remove";

/**
 * - `stack-not-found`: preview, destroy or `withProvisioningStack` of a stack the backend does not hold
 *   (nothing was created);
 * - `concurrent-update`: an update run elsewhere held the stack for longer than `concurrentUpdateWait`;
 * - `cancelled`: the caller's signal aborted the call;
 * - `resources-failed`: the engine ran, and the resources in `failures` failed;
 * - `failed`: anything else the CLI refused (a missing passphrase, backend credentials, a program error...).
 */
export type ProvisioningErrorKind = "stack-not-found" | "concurrent-update" | "cancelled" | "resources-failed" | "failed";

/**
 * What the helper throws. The message says what failed and why, free of secrets; `failures` lists the resources
 * that failed; `cause` keeps the CLI's error with its whole output (secrets replaced by `[secret]`).
 */
export class ProvisioningError extends Error {
  constructor(
    readonly kind: ProvisioningErrorKind,
    readonly operation: ProvisioningOperation,
    readonly stackName: string,
    readonly step: ProvisioningStep | undefined,
    message: string,
    readonly failures: ResourceFailure[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ProvisioningError";
  }
}

/** What the error mapping needs to know about the call. */
export interface CallContext {
  operation: ProvisioningOperation;
  stackName: string;
  backendUrl: string;
  step?: ProvisioningStep;
  signal?: AbortSignal;
  /** How long the call waited for an update run elsewhere before giving up. */
  waitedMs?: number;
  secrets: readonly string[];
  failures?: () => ResourceFailure[];
  generalErrors?: () => string[];
}

const STEP_WORDS: Record<ProvisioningStep, string> = {
  select: "while selecting the stack",
  create: "while creating the stack",
  config: "while setting the stack's config",
  up: "",
  preview: "",
  destroy: "",
  refresh: "while dropping the pending creates it recovered",
  remove: "while removing the stack",
};

/** The CLI's stdout and stderr, from the Automation API's CommandError or the helper's own CLI runs. */
function cliOutput(err: unknown): { stdout: string; stderr: string } {
  const e = err as { commandResult?: { stdout?: unknown; stderr?: unknown }; stdout?: unknown; stderr?: unknown };
  const source = e?.commandResult ?? e ?? {};
  return { stdout: String(source.stdout ?? ""), stderr: String(source.stderr ?? "") };
}

/**
 * The CLI's own error lines (`error: ...`), which say what it refused and why. The process error's first line
 * (`Command failed with exit code 255: pulumi ...`) is left out: it is the command line.
 */
export function cliErrorLines(err: unknown): string[] {
  const { stdout, stderr } = cliOutput(err);
  const lines = `${stderr}\n${stdout}`
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^error: /.test(l))
    .map((l) => l.replace(/^error: /, ""));
  return [...new Set(lines)];
}

function describeStack(ctx: Pick<CallContext, "operation" | "stackName">): string {
  return ctx.operation === "open" ? `opening stack "${ctx.stackName}"` : `${ctx.operation} of stack "${ctx.stackName}"`;
}

function failureLines(failures: ResourceFailure[]): string {
  return failures.map((f) => `\n  ${f.op ? `${f.op} ` : ""}${f.kind} ${f.name}: ${f.message}`).join("");
}

/** The helper's error for whatever a call threw, secrets replaced, the original kept as its cause. */
export function provisioningError(err: unknown, ctx: CallContext): ProvisioningError {
  if (err instanceof ProvisioningError) return err;
  redactError(err, ctx.secrets);
  const clean = (text: string) => redact(text, ctx.secrets);
  const what = describeStack(ctx);
  const where = ctx.step ? STEP_WORDS[ctx.step] : "";
  const failures = (ctx.failures?.() ?? []).map((f) => ({ ...f, message: clean(f.message) }));
  // The CLI's closing "update failed" says nothing the other reasons do not.
  const all = [...new Set([...(ctx.generalErrors?.() ?? []), ...cliErrorLines(err)].map(clean))];
  const said = all.filter((r) => !GENERIC_FAILURE.test(r));
  const reasons = said.length > 0 ? said : all;
  const make = (kind: ProvisioningErrorKind, message: string) =>
    new ProvisioningError(kind, ctx.operation, ctx.stackName, ctx.step, message, failures, { cause: err });

  if (ctx.signal?.aborted) {
    const running = ctx.step === "up" || ctx.step === "destroy" || ctx.step === "preview" || ctx.step === "refresh";
    return make(
      "cancelled",
      `${what} cancelled${where ? ` ${where}` : ""}` +
        (running ? ": the CLI was interrupted; it stopped after the steps in flight, which the state records" : "") +
        failureLines(failures),
    );
  }
  if (err instanceof ConcurrentUpdateError) {
    const waited = ctx.waitedMs ? ` and was still running after ${ms(ctx.waitedMs, { long: true })} of waiting` : "";
    return make(
      "concurrent-update",
      `${what}: another update of the stack holds its lock${waited}. Run again once it has finished (concurrentUpdateWait sets how ` +
        `long to wait); if none is running (a run that was killed keeps its lock), \`pulumi cancel --stack ${ctx.stackName}\` releases it`,
    );
  }
  if (err instanceof StackNotFoundError) {
    return make("stack-not-found", missingStackMessage(ctx));
  }
  if (failures.length > 0) {
    const more = reasons.filter((r) => !failures.some((f) => f.message.includes(r)) && !GENERIC_FAILURE.test(r));
    return make(
      "resources-failed",
      `${what} failed: ${failures.length} resource${failures.length === 1 ? "" : "s"} failed` +
        failureLines(failures) +
        more.map((r) => `\n  ${r}`).join(""),
    );
  }
  const why = reasons.length > 0 ? reasons.join("; ") : clean(firstLine(err));
  return make("failed", `${what} failed${where ? ` ${where}` : ""}: ${why}`);
}

const GENERIC_FAILURE = /^(update|preview|destroy|refresh) failed$/i;

function firstLine(err: unknown): string {
  const { stderr } = cliOutput(err);
  const last = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^Command failed with exit code/.test(l))
    .pop();
  if (last) return last;
  return err instanceof Error ? (err.message.split("\n")[0] ?? String(err)) : String(err);
}

/** What to say when the backend holds no such stack. */
export function missingStackMessage(ctx: Pick<CallContext, "operation" | "stackName" | "backendUrl">): string {
  return (
    `${describeStack(ctx)}: the backend ${ctx.backendUrl} holds no stack "${ctx.stackName}" (nothing was created). ` +
    "Check stackName, projectName and backendUrl; provision creates the stack"
  );
}
