import { messageOf, SnapshotRunTaskError } from "../common/errors";
import { ServiceError } from "../http/serviceError";
import type { CreateStats } from "./tuning";

export interface CreateOnceOptions<T> {
  /** Whether an object found after a lost answer is what this create would have made. */
  matches(found: T): boolean;
  /**
   * What comes of an object found that is not what this create would have made: the error it fails with (someone
   * else's), or the object, taken over on proof of its own (an earlier create of this resource's that was stopped).
   */
  foreign(found: T): Promise<T>;
  /**
   * Whether an error may mean the object exists already (what a create sent again after a lost answer may get),
   * decided by its code, never by the wording of a message.
   */
  isConflict(err: unknown): boolean;
  /** POSTs sent at most; the client's `createAttempts` (one more than its `maxRetries`). Default 4. */
  maxAttempts?: number;
  /** Where to count creates whose answer was lost, objects found after one, and POSTs sent again. */
  stats?: CreateStats;
}

/**
 * Creates through a POST that is not safe to repeat, without ever making a duplicate. When the outcome is
 * unknown (the connection dropped or timed out after the request was sent, or the server failed while handling
 * it: `ServiceError.ambiguous`), `find` looks for what the request would have created. A match is taken as
 * the result; an object of the same identity that does not match is someone else's, and fails the create as
 * any existing object does; when nothing is found the POST is sent again. A conflict answered to a POST sent
 * again means the lost one did get through (the object just was not visible yet): it is looked for once more.
 */
export async function createOnce<T>(create: () => Promise<T>, find: () => Promise<T | undefined>, options: CreateOnceOptions<T>): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 4;
  const stats = options.stats ?? { ambiguous: 0, adopted: 0, resent: 0 };
  let uncertain = false;
  for (let attempt = 1; ; attempt++) {
    let failure: unknown;
    try {
      return await create();
    } catch (err) {
      failure = err;
    }
    const ambiguous = failure instanceof ServiceError && failure.ambiguous;
    if (!ambiguous && !(uncertain && options.isConflict(failure))) throw failure;
    if (ambiguous) stats.ambiguous++;
    uncertain = true;
    const found = await lookUp(find, failure);
    if (found !== undefined) {
      if (!options.matches(found)) return await options.foreign(found);
      stats.adopted++;
      return found;
    }
    if (!ambiguous || attempt >= maxAttempts) throw failure;
    stats.resent++;
  }
}

/**
 * `find`, or the create's failure (its code kept) saying that its outcome is unknown and that looking for it
 * failed too, with the lookup's failure as its cause.
 */
async function lookUp<T>(find: () => Promise<T | undefined>, failure: unknown): Promise<T | undefined> {
  try {
    return await find();
  } catch (err) {
    // What gets here is an unknown outcome (a ServiceError) or what `isConflict` took for a conflict.
    const code = failure instanceof SnapshotRunTaskError ? failure.code : "conflict";
    const said = `whether it created anything is unknown, and looking for it failed too: ${messageOf(err)}`;
    throw new SnapshotRunTaskError(code, `${messageOf(failure)}; ${said}`, { cause: err });
  }
}
