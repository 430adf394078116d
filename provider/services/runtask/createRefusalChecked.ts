import { hasCode, messageOf } from "../../common/errors";
import { providerContext } from "../../context";
import { ServiceError } from "../../http/serviceError";
import { createOnce } from "../createOnce";
import type { RunTaskHttp } from "./client";

/** How to create an object of the run task service, and how to look for it. */
export interface CheckedCreate<T> {
  post(): Promise<T>;
  /**
   * The object this create made, looked for when its outcome is unknown: of the same identity (a task by organization
   * and name), and, where objects of one identity may be several (associations of one task), not there before it.
   */
  find(): Promise<T | undefined>;
  /** The object of the same identity whenever made, which a refusal may be for. Default `find`. */
  existing?(): Promise<T | undefined>;
  /** Whether a found object is what this create would have made. */
  matches(found: T): boolean;
  /**
   * What comes of the object of its identity found in a create's way (its name taken, or found after a lost answer and
   * not what this create sent): the refusal, with advice, or the object taken over on proof that it is this
   * resource's own (takeover/alreadyExists.ts).
   */
  taken(found: T): Promise<T>;
}

/**
 * Creates without ever making a duplicate (`createOnce`, as often as the client retries), and looks into a
 * refusal (422) rather than reading it: when the object exists, what comes of it is `taken(found)` (a refusal, or
 * on proof that it is this resource's own, the object taken over), whatever the service's wording; otherwise the
 * service's own error stands.
 */
export async function createRefusalChecked<T>(http: RunTaskHttp, create: CheckedCreate<T>): Promise<T> {
  const refused = (err: unknown): err is ServiceError => err instanceof ServiceError && hasCode(err, "invalid", "conflict");
  try {
    return await createOnce(create.post, create.find, {
      matches: create.matches,
      foreign: create.taken,
      isConflict: refused,
      maxAttempts: http.createAttempts,
      stats: providerContext().tuning.stats?.creates,
    });
  } catch (err) {
    if (!refused(err)) throw err;
    let found: T | undefined;
    try {
      found = await (create.existing ?? create.find)();
    } catch (lookupFailure) {
      // Several objects of that identity (takeover/proof.ts): that is the conflict, and the refusal its cause.
      if (hasCode(lookupFailure, "conflict")) throw lookupFailure;
      throw withLookupFailure(err, lookupFailure);
    }
    if (found !== undefined) return await create.taken(found);
    throw err;
  }
}

/** The refusal stays the error; that looking into it failed too is said after it, and kept as its cause. */
function withLookupFailure(refusal: ServiceError, lookupFailure: unknown): ServiceError {
  const said = `looking whether the object exists failed too: ${messageOf(lookupFailure)}`;
  return refusal.with({ advice: refusal.advice ? `${refusal.advice}; ${said}` : said, cause: lookupFailure });
}
