import { isBranded, SnapshotRunTaskError, type ErrorCode } from "./errors";

type Props = Record<string, unknown>;

/** Marks a `PartialFailure` of any copy of the package (see `SnapshotRunTaskError`). */
const kPartialFailure = Symbol.for("pulumi-snapshot-runtask.error.partial-failure");

/**
 * A create or update that failed after its object was made or changed: the engine's partial-failure answer
 * (`ErrorResourceInitFailed`). The engine records the object with `id` and `properties`, and `reasons` as its init
 * errors; the next `up` updates it whatever its diff, and a refresh reads it. So an object made is never left
 * unrecorded (a later `up` would be refused "already exists"), and a state never claims what the failure changed.
 * The SDK's dynamic provider plugin packs a thrown error that has `id`, `properties` and `reasons` this way; the
 * provider plugins do the same (plugin/server/server.ts).
 */
export class PartialFailure extends SnapshotRunTaskError {
  static override [Symbol.hasInstance](instance: unknown): boolean {
    return isBranded(instance, kPartialFailure);
  }

  readonly [kPartialFailure] = true;
  /** What the engine shows as the step's error (it drops the message for the reasons). */
  readonly reasons: string[];

  constructor(
    code: ErrorCode,
    message: string,
    /** The id a later Read, Update or Delete resolves. */
    readonly id: string,
    readonly properties: Props,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.name = "PartialFailure";
    this.reasons = [message];
  }
}

/**
 * Outputs as a partial failure reports them: with the resource's provider text where the call had one. The
 * dynamic provider plugin adds `__provider` to a create's answer but not to an error's properties, and the delete
 * of the recorded resource needs it.
 */
export function withProviderText(outputs: Props, inputs: Props): Props {
  return inputs.__provider === undefined ? outputs : { ...outputs, __provider: inputs.__provider };
}

/** The code of what failed, for the partial failure that reports it. */
export function codeOf(err: unknown): ErrorCode {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? (code as ErrorCode) : "server_error";
}
