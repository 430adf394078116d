import type { EmulatorResponse } from "../core/router";

/**
 * The service's error bodies: `{"errors": [messages]}`, plain strings rather than JSON:API objects. A read,
 * list or delete that finds nothing is 404 with an empty list.
 */
const UNSUPPORTED_PATH = "1 error occurred:\n\t* unsupported path\n\n";
const UNSUPPORTED_OPERATION = "1 error occurred:\n\t* unsupported operation\n\n";

export function failure(status: number, ...messages: string[]): EmulatorResponse {
  return { status, body: { errors: messages } };
}

/**
 * How the answer to a name the service does not hold looks: `"errors"`, `{"errors": []}`, the service's own
 * (an error list with nothing in it); or what a proxy or another mount in front of it may answer instead: no
 * body (`"empty"`), `{}` (`"emptyObject"`), `{"errors": null}` (`"nullErrors"`), `{"errors": [""]}` (`"blankError"`).
 */
export const NOT_FOUND_BODIES = ["errors", "empty", "emptyObject", "nullErrors", "blankError"] as const;
export type NotFoundBody = (typeof NOT_FOUND_BODIES)[number];

/** Nothing under that name (or no names at all, for a list). */
export function noEntry(body: NotFoundBody = "errors"): EmulatorResponse {
  switch (body) {
    case "errors":
      return failure(404);
    case "empty":
      return { status: 404 };
    case "emptyObject":
      return { status: 404, body: {} };
    case "nullErrors":
      return { status: 404, body: { errors: null } };
    case "blankError":
      return { status: 404, body: { errors: [""] } };
  }
}

/** A path the service does not have, optionally saying why (a namespace, the license). */
export function unsupportedPath(reason?: string): EmulatorResponse {
  return failure(404, reason ? `${UNSUPPORTED_PATH.trimEnd()} (${reason})` : UNSUPPORTED_PATH);
}

export function unsupportedOperation(): EmulatorResponse {
  return failure(405, UNSUPPORTED_OPERATION);
}

export function permissionDenied(detail?: string): EmulatorResponse {
  return failure(403, detail ? `permission denied: ${detail}` : "permission denied");
}

export function badRequest(messages: string[]): EmulatorResponse {
  return failure(400, ...messages);
}
