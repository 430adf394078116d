import type { Dispatcher } from "undici";

/**
 * Whether undici wrote a request to a connection. A failure without an answer says by itself only sometimes
 * whether the server may have the request: a connection reset after the write is a system `ECONNRESET`, exactly
 * as one during the TLS handshake is. undici tells its handler when the whole request has been written
 * (`onRequestSent`, after the body's last byte went to the socket); this watch listens for it.
 */
export interface WriteWatch {
  /** What to send one request through: `dispatcher`, its handler watched (`Dispatcher#request` calls only `dispatch`). */
  readonly dispatcher: Pick<Dispatcher, "dispatch">;
  /** Whether the request was written to a connection: from then on the server may have acted on it. */
  readonly written: boolean;
}

export function watchWrites(dispatcher: Dispatcher): WriteWatch {
  let written = false;
  return {
    dispatcher: {
      dispatch: (options, handler) =>
        dispatcher.dispatch(
          options,
          watchedHandler(handler, () => (written = true)),
        ),
    },
    get written() {
      return written;
    },
  };
}

/** A handler as undici calls it: `onRequestSent` is part of its handler interface, though not of its typings. */
type WatchedHandler = Dispatcher.DispatchHandler & { onRequestSent?(): void };

/**
 * The handler as it is, but for `onRequestSent`, which also marks the request written. A proxy rather than a
 * wrapper class, so that every other callback undici calls (or checks for) stays the handler's own; each runs
 * bound to the handler, as undici would call it.
 */
function watchedHandler(handler: WatchedHandler, onWritten: () => void): WatchedHandler {
  return new Proxy(handler, {
    get(target, key) {
      if (key === "onRequestSent") {
        return () => {
          onWritten();
          return target.onRequestSent?.();
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
