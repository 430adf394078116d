/**
 * The clock of a request: the operation's bound and what is left of it, each attempt's signal (its timeout and
 * the engine's Cancel), and the waits between attempts.
 */

/**
 * The bound on a whole operation: no attempt runs past `deadline` (epoch milliseconds), whatever the per-request
 * timeout says; `ms` is the bound's length and `name` what set it, for messages.
 */
export interface OperationBound {
  deadline: number;
  ms: number;
  name?: string;
}

/** Milliseconds left of the operation's bound; Infinity without one. */
export function remainingMs(bound: OperationBound | undefined): number {
  return bound ? bound.deadline - Date.now() : Infinity;
}

/** A bound as messages give it: its length, and what set it where that is not the provider's own setting. */
export function boundText(bound: { ms: number; name?: string }): string {
  return bound.name ? `${seconds(bound.ms)} (${bound.name})` : seconds(bound.ms);
}

export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}

/** Whether `promise` settles within `ms` (the timer does not keep the process alive once it has). */
export async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  if (ms === Infinity) return promise.then(() => true);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The signal of one attempt: its timeout, and the engine's Cancel where there is one. Linked by a listener removed
 * once the attempt is over, so that the process-long Cancel signal does not gather one per request.
 */
export function attemptSignal(timeoutMs: number, cancel: AbortSignal | undefined): { signal: AbortSignal; dispose(): void } {
  const timeout = AbortSignal.timeout(timeoutMs);
  if (!cancel) return { signal: timeout, dispose: () => undefined };
  const linked = new AbortController();
  const onTimeout = () => linked.abort(timeout.reason);
  const onCancel = () => linked.abort(cancel.reason);
  if (cancel.aborted) onCancel();
  timeout.addEventListener("abort", onTimeout, { once: true });
  cancel.addEventListener("abort", onCancel, { once: true });
  return {
    signal: linked.signal,
    dispose: () => {
      timeout.removeEventListener("abort", onTimeout);
      cancel.removeEventListener("abort", onCancel);
    },
  };
}

/** Waits `ms`, or less when `signal` aborts (the caller then sees it aborted). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
