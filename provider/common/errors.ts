/**
 * Stable codes of the package's errors, which callers branch on instead of a message's wording. Those of a
 * failed call come from its status (`provider/http/errorCode.ts`) or its transport failure; `conflict` is also
 * given to a 422 once looking has shown that the object exists (the run task service says "taken" in English
 * only); the others are the provider's own conclusions.
 */
export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "invalid",
  "rate_limited",
  "client_error",
  "server_error",
  "timeout",
  "network",
  "tls",
  "proxy",
  "cancelled",
  "missing_setting",
  "invalid_setting",
  "unsupported",
  "unexpected_answer",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Marks an instance of the package's errors. A registered symbol, as undici's errors carry one: `instanceof` then
 * holds across copies of the package (the provider's bundle, a program's own install, the plugins' bundle), where
 * each copy has a class of its own.
 */
const kSnapshotRunTaskError = Symbol.for("pulumi-snapshot-runtask.error");

/**
 * Every failure a user can meet from this package: a stable `code`, a message that names the argument or the
 * setting to fix, and the failure it came from as `cause` where there is one. A failed HTTP call is its subclass
 * `ServiceError`, which says which call and what the server answered.
 */
export class SnapshotRunTaskError extends Error {
  static override [Symbol.hasInstance](instance: unknown): boolean {
    return isBranded(instance, kSnapshotRunTaskError);
  }

  readonly [kSnapshotRunTaskError] = true;
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SnapshotRunTaskError";
    this.code = code;
  }
}

/** True for an error of this package (from any copy of it) with one of the given codes. */
export function hasCode(err: unknown, ...codes: ErrorCode[]): err is SnapshotRunTaskError {
  return err instanceof SnapshotRunTaskError && codes.includes(err.code);
}

/** Whether `instance` carries the brand `symbol` (set by a class of any copy of this package). */
export function isBranded(instance: unknown, symbol: symbol): boolean {
  return typeof instance === "object" && instance !== null && (instance as Record<symbol, unknown>)[symbol] === true;
}

/** The message of anything thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
