/**
 * undici, loaded on first use: the plugin process starts for every `pulumi` command, and a preview (check and
 * diff only) never sends a request, so it need not pay for loading the HTTP client.
 */
let loaded: typeof import("undici") | undefined;

export function undici(): typeof import("undici") {
  return (loaded ??= require("undici") as typeof import("undici"));
}
