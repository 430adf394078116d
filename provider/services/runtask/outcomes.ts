import { ProviderError } from "../../common/providerError";
import { RUNTASK_SETTING_KEYS } from "./settings";

/**
 * A create refused because the object exists (found by looking after a 422, never by the refusal's wording).
 */
export function refusedCreate(advice: string): ProviderError {
  return new ProviderError("conflict", advice);
}

/** What answered 404, for the message when that cannot be proven to mean "gone". */
export interface NotFound {
  method: string;
  path: string;
  /** "run task", "association". */
  what: string;
  /** The list that would tell, e.g. `organization "acme"`; undefined where there is none to ask. */
  scope?: string;
}

/**
 * After a 404: resolves when the list of the object's scope answers the same token (the object is gone), and
 * fails with advice otherwise. One request, made only when there is a list to ask.
 */
export async function requireGone(listAnswers: (() => Promise<boolean>) | undefined, notFound: NotFound): Promise<void> {
  if (listAnswers && (await listAnswers())) return;
  throw notProvenGone(notFound);
}

/**
 * A 404 that could not be proven to mean "gone": the service answers 404 both for a missing object and for one
 * the token may not see, and the list that would have told them apart did not answer either. Refresh and delete
 * fail rather than forget the object (it may well still be there).
 */
function notProvenGone({ method, path, what, scope }: NotFound): ProviderError {
  const [key, env] = RUNTASK_SETTING_KEYS.token;
  const where = scope ? `, and the list of ${scope} did not answer either` : "";
  return new ProviderError(
    "not_found",
    `run task service: ${method} ${path} answered 404${where}: the ${what} may have been deleted, or the token may not see it ` +
      `(a 404 may mean missing permissions). Check the token (${key} / ${env}) and its permissions (Manage Run Tasks, ` +
      "Manage Workspace Run Tasks); the object is kept in the state until the service says it is gone",
  );
}
