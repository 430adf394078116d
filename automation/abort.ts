/**
 * The signal of one CLI run that the Automation API turns into a SIGINT to the CLI: aborted when `parent` is, unless
 * the CLI says within `graceMs` that it received a SIGINT already (`alreadyInterrupted`). A Ctrl-C in a terminal
 * reaches the CLI itself, which runs in the caller's process group, as well as the caller, whose abort would send
 * a second one: the CLI takes a second SIGINT for "terminate at once", and stops without waiting for the resource
 * operations in flight, leaving them pending in the state. A parent aborted before the run starts aborts at once.
 * Each run gets its own, its listener removed by `dispose`: the Automation API adds an abort listener to the signal
 * it is given and never removes it, so passing a long-lived signal of the caller's straight through would gather
 * one listener per CLI run.
 */
export function linkedInterrupt(
  parent: AbortSignal | undefined,
  alreadyInterrupted: () => boolean,
  graceMs: number,
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  if (!parent) return { signal: controller.signal, dispose: () => undefined };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  let timer: NodeJS.Timeout | undefined;
  const abort = () => {
    timer = setTimeout(() => {
      if (!alreadyInterrupted()) controller.abort(parent.reason);
    }, graceMs);
  };
  parent.addEventListener("abort", abort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener("abort", abort);
    },
  };
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts (the promise itself runs on). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}
