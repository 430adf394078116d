/**
 * An HTTP call that failed: which call, what the server said. Never carries a token: messages are redacted by
 * the client before the error is built.
 */
export class ServiceError extends Error {
  /**
   * The request may have been acted on although no answer says so (the connection dropped or timed out after
   * it was sent, or a server or gateway failed while handling it). Set only for requests that are not safe to
   * repeat: only the caller can resolve it, by looking for what the request would have made.
   */
  ambiguous = false;

  constructor(
    readonly service: string,
    readonly method: string,
    readonly path: string,
    readonly status: number | undefined,
    readonly messages: string[],
    readonly detail?: string,
    /** Attempts made, retries included. */
    readonly attempts = 1,
  ) {
    super(ServiceError.format(service, method, path, status, messages, detail, attempts));
    this.name = "ServiceError";
  }

  static format(
    service: string,
    method: string,
    path: string,
    status: number | undefined,
    messages: string[],
    detail?: string,
    attempts = 1,
  ): string {
    const head = `${service}: ${method} ${path}`;
    const what = status === undefined ? detail ?? "request failed" : `HTTP ${status}`;
    const tries = attempts > 1 ? `, ${attempts} attempts` : "";
    const tail = messages.length > 0 ? `: ${messages.join("; ")}` : detail && status !== undefined ? `: ${detail}` : "";
    return `${head} failed (${what}${tries})${tail}`;
  }

  /** The same failure, counted over `attempts` attempts. */
  withAttempts(attempts: number): ServiceError {
    if (attempts === this.attempts) return this;
    const again = new ServiceError(this.service, this.method, this.path, this.status, this.messages, this.detail, attempts);
    again.ambiguous = this.ambiguous;
    return again;
  }
}

/** True for a ServiceError with one of the given statuses. */
export function isStatus(err: unknown, ...statuses: number[]): err is ServiceError {
  return err instanceof ServiceError && err.status !== undefined && statuses.includes(err.status);
}
