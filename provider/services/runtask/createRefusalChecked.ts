import { providerContext } from "../../context";
import { hasCode } from "../../http/serviceError";
import { createOnce } from "../createOnce";
import type { RunTaskHttp } from "./client";

/** How to create an object of the run task service, and how to look for it. */
export interface CheckedCreate<T> {
  post(): Promise<T>;
  /** The object of the same identity (a task by organization and name, an association by workspace and task). */
  find(): Promise<T | undefined>;
  /** Whether a found object is what this create would have made. */
  matches(found: T): boolean;
  /** The error, with advice, for an object that exists already. */
  exists(): Error;
}

/**
 * Creates without ever making a duplicate (`createOnce`, as often as the client retries), and looks into a
 * refusal (422) rather than reading it: when the object exists, the answer is `exists()`, whatever the service's
 * wording; otherwise the service's own error stands.
 */
export async function createRefusalChecked<T>(http: RunTaskHttp, create: CheckedCreate<T>): Promise<T> {
  const refused = (err: unknown) => hasCode(err, "invalid", "conflict");
  try {
    return await createOnce(create.post, create.find, {
      matches: create.matches,
      foreign: create.exists,
      isConflict: refused,
      maxAttempts: http.createAttempts,
      stats: providerContext().tuning.stats?.creates,
    });
  } catch (err) {
    if (refused(err) && (await create.find()) !== undefined) throw create.exists();
    throw err;
  }
}
