import { ConcurrentUpdateError } from "@pulumi/pulumi/automation";
import ms from "ms";
import { sleep } from "./abort";
import { DEFAULT_CONCURRENT_UPDATE_WAIT } from "./options";

/** Pauses between attempts: short at first (most updates that collide are short), then every 15 seconds. */
const FIRST_PAUSE_MS = 1_000;
const LONGEST_PAUSE_MS = 15_000;

/** `concurrentUpdateWait` in milliseconds; throws, naming the option, on a value `ms` cannot read. */
export function concurrentUpdateBound(value: number | string | undefined): number {
  const bound = typeof value === "number" ? value : ms((value ?? DEFAULT_CONCURRENT_UPDATE_WAIT) as ms.StringValue);
  if (typeof bound !== "number" || !Number.isFinite(bound) || bound < 0) {
    throw new Error(`concurrentUpdateWait: ${JSON.stringify(value)} is not a duration: give milliseconds or a duration such as "10m"`);
  }
  return bound;
}

/**
 * Runs `attempt`, and again while it fails because another update holds the stack's lock, until `boundMs` has
 * passed. Retrying is safe: the CLI checks the lock before it changes anything. `waited` is told how long the
 * call waited, for the error that ends the wait.
 */
export async function waitingOutConcurrentUpdates<T>(
  attempt: () => Promise<T>,
  options: { boundMs: number; signal?: AbortSignal; notice: (line: string) => void; waited: (ms: number) => void },
): Promise<T> {
  const started = Date.now();
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ConcurrentUpdateError) || options.signal?.aborted) throw err;
      const waited = Date.now() - started;
      options.waited(waited);
      const left = options.boundMs - waited;
      if (left <= 0) throw err;
      const next = Math.min(pause, left);
      options.notice(
        `another update of the stack is running; trying again in ${ms(next, { long: true })} ` +
          `(waited ${ms(waited, { long: true })} of ${ms(options.boundMs, { long: true })})`,
      );
      await sleep(next, options.signal);
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }
}
