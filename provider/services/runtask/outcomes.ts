import { ProviderError } from "../../common/providerError";

/** A 404 that could not be proven to mean "gone": refresh and delete fail and keep the object in the state. */
export function notProvenGone(message: string, cause?: unknown): ProviderError {
  return new ProviderError("not_found", message, cause === undefined ? undefined : { cause });
}
