/**
 * Stable codes of failed calls, which callers branch on instead of a server's wording. `conflict` is also given
 * to a 422 once looking has shown that the object exists (the run task service says "taken" in English only).
 * `unexpected_answer` is a successful status whose body is not the API's answer (a proxy's page, an empty body).
 */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "invalid"
  | "rate_limited"
  | "client_error"
  | "server_error"
  | "timeout"
  | "network"
  | "tls"
  | "cancelled"
  | "unexpected_answer";

/** The code of an answer's status: the one place statuses become codes. */
export function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 409:
      return "conflict";
    case 422:
      return "invalid";
    case 408:
      return "timeout";
    case 429:
      return "rate_limited";
    default:
      return status >= 500 ? "server_error" : "client_error";
  }
}
