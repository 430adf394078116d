import { SnapshotRunTaskError } from "../common/errors";

/**
 * The one check of a service's base address: an http or https URL, with its scheme. `setting` names where the value
 * came from (its stack config key or environment variable). A path that already ends with the API's
 * prefix (`https://runs.example.com/api/v2`, as users copy it from the API docs) is taken as the base address
 * without it, so that requests do not go to `/api/v2/api/v2/...` and come back as 404s.
 */
export function serviceAddress(setting: string, address: string, apiPrefix: string, example: string): string {
  // Without a scheme, `host:port` would parse as a URL of the scheme `host:`: refused in one wording whatever it
  // holds, with the user's own address as it would be written.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(address)) {
    throw invalid(`${setting}: "${address}" has no http:// or https:// scheme; write it as e.g. https://${address.trim().replace(/^\/+/, "")}`);
  }
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw invalid(`${setting}: "${address}" is not a URL; expected e.g. ${example}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(`${setting}: "${address}" is not an http:// or https:// address; expected e.g. ${example}`);
  }
  if (url.search || url.hash) throw invalid(`${setting}: expected a base address without query or fragment, got "${address}"`);
  const path = url.pathname.replace(/\/+$/, "");
  const base = path.endsWith(apiPrefix) ? path.slice(0, -apiPrefix.length) : path;
  return `${url.origin}${base}`;
}

function invalid(message: string): SnapshotRunTaskError {
  return new SnapshotRunTaskError("invalid_setting", message);
}
