import type { ErrorCode } from "../common/errors";

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
