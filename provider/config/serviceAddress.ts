/**
 * The one check of a service's base address: an http or https URL. A path that already ends with the API's
 * prefix (`https://runs.example.com/api/v2`, as users copy it from the API docs) is taken as the base address
 * without it, so that requests do not go to `/api/v2/api/v2/...` and come back as 404s.
 */
export function serviceAddress(setting: string, address: string, apiPrefix: string, example: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new Error(`${setting}: "${address}" is not a URL; expected e.g. ${example}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${setting}: expected an http or https URL, got "${address}"`);
  if (url.search || url.hash) throw new Error(`${setting}: expected a base address without query or fragment, got "${address}"`);
  const path = url.pathname.replace(/\/+$/, "");
  const base = path.endsWith(apiPrefix) ? path.slice(0, -apiPrefix.length) : path;
  return `${url.origin}${base}`;
}
