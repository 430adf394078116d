import { isBranded, SnapshotRunTaskError, type ErrorCode } from "../common/errors";
import { codeOfStatus } from "./errorCode";

export interface ServiceErrorOptions {
  /** Name used in messages, e.g. "run task service". */
  service: string;
  method: string;
  path: string;
  /** The answer's status; absent when no answer came (the connection failed, or the time ran out). */
  status?: number;
  /** The server's messages, redacted. */
  messages?: string[];
  /** What the failure likely means and what to check, after the server's messages. */
  advice?: string;
  /** What went wrong without an answer (a transport failure), redacted. */
  detail?: string;
  /** Attempts made, retries included. */
  attempts?: number;
  /** Whether the request may have been acted on although no answer says so (see `ambiguous`). */
  ambiguous?: boolean;
  /** The stable code; by default the one of the status (or `network`). */
  code?: ErrorCode;
  cause?: unknown;
}

/** Marks a `ServiceError` of any copy of the package (see `SnapshotRunTaskError`). */
const kServiceError = Symbol.for("pulumi-snapshot-runtask.error.service");

/**
 * An HTTP call that failed: which call, what the server said, and a stable `code` callers branch on (never the
 * text of a message). Never carries a token: messages are redacted before the error is built.
 */
export class ServiceError extends SnapshotRunTaskError {
  static override [Symbol.hasInstance](instance: unknown): boolean {
    return isBranded(instance, kServiceError);
  }

  readonly [kServiceError] = true;
  readonly service: string;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly messages: string[];
  readonly advice: string | undefined;
  readonly detail: string | undefined;
  readonly attempts: number;
  /**
   * The request may have been acted on although no answer says so (the connection dropped or timed out after
   * it was sent, or a server or gateway failed while handling it). Set only for requests that are not safe to
   * repeat: only the caller can resolve it, by looking for what the request would have made.
   */
  readonly ambiguous: boolean;

  constructor(private readonly options: ServiceErrorOptions) {
    super(options.code ?? (options.status === undefined ? "network" : codeOfStatus(options.status)), ServiceError.format(options), {
      cause: options.cause,
    });
    this.name = "ServiceError";
    this.service = options.service;
    this.method = options.method;
    this.path = options.path;
    this.status = options.status;
    this.messages = options.messages ?? [];
    this.advice = options.advice;
    this.detail = options.detail;
    this.attempts = options.attempts ?? 1;
    this.ambiguous = options.ambiguous ?? false;
  }

  static format({ service, method, path, status, messages = [], advice, detail, attempts = 1 }: ServiceErrorOptions): string {
    const head = `${service}: ${method} ${path}`;
    const what = status === undefined ? (detail ?? "request failed") : `HTTP ${status}`;
    const tries = attempts > 1 ? `, ${attempts} attempts` : "";
    const said = [...messages, ...(advice ? [advice] : [])];
    const tail = said.length > 0 ? `: ${said.join("; ")}` : detail && status !== undefined ? `: ${detail}` : "";
    return `${head} failed (${what}${tries})${tail}`;
  }

  /** The same failure with some options changed (attempts counted, ambiguity known, advice added). */
  with(changes: Partial<ServiceErrorOptions>): ServiceError {
    return new ServiceError({ ...this.options, ...changes });
  }
}

/**
 * Whether a failed write may have been carried out all the same: no answer came (but a connection that could not
 * be made secure, or a proxy's refusal, which sent nothing), a server or gateway failed while handling it, or it was
 * answered as a success without the document the API answers (the service, or whatever answered for it, said it was
 * done). Only a read can tell then.
 */
export function mayHaveBeenCarriedOut(err: unknown): boolean {
  if (!(err instanceof ServiceError) || err.code === "tls" || err.code === "proxy") return false;
  return err.status === undefined || err.status >= 500 || (err.code === "unexpected_answer" && err.status < 300);
}
