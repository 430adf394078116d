import type { ErrorCode } from "../http/errorCode";

/**
 * A failure the provider concluded from what the service answered (an object that exists, a 404 that cannot be
 * told from missing permissions), with the same stable `code` as a `ServiceError` and advice in its message.
 */
export class ProviderError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ProviderError";
  }
}
