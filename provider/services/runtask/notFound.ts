import type { HttpResponse } from "../../http/client";
import { RUNTASK_SETTING_KEYS } from "./settings";

/**
 * The spec answers 404 with a JSON:API error object (`{"errors": [{...}, ...]}`, error objects rather than strings)
 * both for a missing object and for a user without permission.
 * A 404 in any other shape (no body, a page of text) does not come from the run task API at all: the address,
 * its path or a proxy in front of it is wrong, and no probe of the API can say more.
 */
export function isJsonApiErrorDocument(body: unknown): boolean {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const errors = (body as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.every((e) => e !== null && typeof e === "object" && !Array.isArray(e));
}

/** Request options that return the service's own 404 to the caller; any other 404 fails with the address advice. */
export const SERVICE_NOT_FOUND = { allowStatus: [404], allowAnswer: (res: HttpResponse) => isJsonApiErrorDocument(res.body) };

/** The settings messages name, as `stack config key / environment variable`. */
export const TOKEN_SETTING = RUNTASK_SETTING_KEYS.token.join(" / ");
export const ORGANIZATION_SETTING = RUNTASK_SETTING_KEYS.organization.join(" / ");
export const ADDRESS_SETTING = RUNTASK_SETTING_KEYS.address.join(" / ");

/** Advice on a 404 that is not a JSON:API error object. */
export const ADDRESS_ADVICE =
  `the answer is not the run task service's (a 404 without a JSON:API error object): check ${ADDRESS_SETTING}, ` +
  "the service's base address (e.g. https://runs.example.com; the API lives under /api/v2)";

/** Advice on the service's own 404 where nothing was probed (the functions). */
export const MISSING_OR_FORBIDDEN_ADVICE =
  "missing or not authorized: the service answers 404 both when the object does not exist and when the token lacks the " +
  `permission (owner to create tasks, Manage Run Tasks, Manage Workspace Run Tasks; ${TOKEN_SETTING})`;

/** How to forget an object whose parent is gone for certain, when nothing the service answers can prove it. */
export const FORGET_ADVICE = "forget it with `pulumi state delete <URN>` (`pulumi stack --show-urns` lists the URNs)";
