import { untilAborted } from "./abort";

/** The last call queued for each stack: a call starts when the one before it has settled. */
const tails = new Map<string, Promise<void>>();

/**
 * Runs `fn` when every call queued before it for the same stack (`key`) has finished, so that two calls of this
 * process never run the CLI on one stack at once (the second would fail on the stack's lock, or on creating a
 * stack the first is creating). `onWait` is told when the call has to wait; an abort while waiting gives up the
 * turn without running `fn`, and the calls behind still wait for the ones ahead.
 */
export async function inStackTurn<T>(key: string, signal: AbortSignal | undefined, onWait: () => void, fn: () => Promise<T>): Promise<T> {
  const ahead = tails.get(key);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = (ahead ?? Promise.resolve()).then(() => mine);
  tails.set(key, tail);
  try {
    if (ahead) {
      onWait();
      await untilAborted(ahead, signal);
    }
    return await fn();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
