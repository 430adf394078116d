import { ProviderError } from "../../common/providerError";
import { RUNTASK_SETTING_KEYS } from "./settings";

/**
 * A create refused because the object exists (found by looking after a 422, never by the refusal's wording).
 */
export function refusedCreate(advice: string): ProviderError {
  return new ProviderError("conflict", advice);
}

/**
 * A 404 that could not be proven to mean "gone": the service answers 404 both for a missing object and for one
 * the token may not see, and the list that would have told them apart did not answer either. Refresh and delete
 * fail rather than forget the object (it may well still be there).
 */
export function notProvenGone(method: string, path: string, what: string, scope: string | undefined): ProviderError {
  const [key, env] = RUNTASK_SETTING_KEYS.token;
  const where = scope ? `, and the list of ${scope} did not answer either` : "";
  return new ProviderError(
    "not_found",
    `run task service: ${method} ${path} answered 404${where}: the ${what} may have been deleted, or the token may not see it ` +
      `(a 404 may mean missing permissions). Check the token (${key} / ${env}) and its permissions (Manage Run Tasks, ` +
      "Manage Workspace Run Tasks); the object is kept in the state until the service says it is gone",
  );
}
