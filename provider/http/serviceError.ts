/**
 * An HTTP call that failed: which call, what the server said. Never carries a token: messages are redacted by
 * the client before the error is built.
 */
export class ServiceError extends Error {
  /**
   * The request may have been acted on although no answer says so (the connection dropped or timed out after
   * it was sent, or a gateway failed). Only a caller can resolve that, by looking for what the request made.
   */
  ambiguous = false;

  constructor(
    readonly service: string,
    readonly method: string,
    readonly path: string,
    readonly status: number | undefined,
    readonly messages: string[],
    detail?: string,
  ) {
    super(ServiceError.format(service, method, path, status, messages, detail));
    this.name = "ServiceError";
  }

  static format(
    service: string,
    method: string,
    path: string,
    status: number | undefined,
    messages: string[],
    detail?: string,
  ): string {
    const head = `${service}: ${method} ${path}`;
    const what = status === undefined ? detail ?? "request failed" : `HTTP ${status}`;
    const tail = messages.length > 0 ? `: ${messages.join("; ")}` : detail && status !== undefined ? `: ${detail}` : "";
    return `${head} failed (${what})${tail}`;
  }
}

/** True for a ServiceError with one of the given statuses. */
export function isStatus(err: unknown, ...statuses: number[]): err is ServiceError {
  return err instanceof ServiceError && err.status !== undefined && statuses.includes(err.status);
}
