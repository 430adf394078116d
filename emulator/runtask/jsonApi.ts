import type { EmulatorResponse } from "../core/router";

export const JSON_API = "application/vnd.api+json";

export interface JsonApiError {
  status: string;
  title: string;
  detail?: string;
  /** What the error is about: a member of the body (`pointer`) or a query parameter (`parameter`). */
  source?: { pointer: string } | { parameter: string };
}

export function document(status: number, body: unknown): EmulatorResponse {
  return { status, body, contentType: JSON_API };
}

export function errors(status: number, ...errs: JsonApiError[]): EmulatorResponse {
  return { status, body: { errors: errs }, contentType: JSON_API };
}

/** The service answers 404 both for missing objects and for objects the token may not see. */
export function notFound(): EmulatorResponse {
  return errors(404, { status: "404", title: "not found" });
}

export function unauthorized(): EmulatorResponse {
  return errors(401, { status: "401", title: "unauthorized" });
}

export function invalid(pointer: string, detail: string, title = "invalid attribute"): JsonApiError {
  return { status: "422", title, detail, source: { pointer } };
}

/** A query parameter the server does not take as sent: 400 (as JSON:API advises) or another status. */
export function invalidParameter(parameter: string, detail: string, status = 400, title = "invalid query parameter"): EmulatorResponse {
  return errors(status, { status: String(status), title, detail, source: { parameter } });
}

export function unsupportedMediaType(received: string | undefined): EmulatorResponse {
  const detail = `requests with a body must have Content-Type ${JSON_API}${received ? `, not ${received}` : ""}`;
  return errors(415, { status: "415", title: "unsupported media type", detail });
}

/** Whether a Content-Type header names the JSON:API media type (parameters such as charset are tolerated). */
export function isJsonApi(contentType: string | undefined): boolean {
  return contentType?.split(";")[0].trim().toLowerCase() === JSON_API;
}
