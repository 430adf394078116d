import type { ServiceDescription, ServiceSettings } from "../config/serviceSettings";
import { callBound, cancelSignal, secretsOfCall } from "../context";
import { HttpClient, type HttpClientOptions } from "../http/client";
import { retryPolicy, retrySettings, type RetrySettings } from "../http/retry";
import type { ClientTuning } from "./tuning";

/** What a service adds to the shared client: its authentication headers and its advice on failed statuses. */
export interface ServiceHttp {
  headers: Record<string, string>;
  hint?: HttpClientOptions["hint"];
}

/**
 * The HTTP client of one operation against a service: the settings' address with the API prefix, TLS, timeouts,
 * and a retry policy whose budget bounds the operation (one client per operation). The token, and the values the
 * engine marked secret in the call, are redacted from anything the client reports.
 */
export function serviceHttpClient<N extends string>(
  service: ServiceDescription<N>,
  settings: ServiceSettings,
  http: ServiceHttp,
  tuning: ClientTuning = {},
): HttpClient {
  return new HttpClient({
    service: service.service,
    baseUrl: `${settings.address}${service.apiPrefix}`,
    headers: http.headers,
    tls: settings.tls,
    proxy: settings.proxy,
    timeoutMs: settings.timeoutMs,
    // The token, and what the engine marked secret in the call the operation serves (the client is the operation's).
    secrets: [settings.token, ...secretsOfCall()],
    addressSetting: settings.addressFrom ?? `${service.settings.address.key} / ${service.settings.address.env}`,
    retry: retryPolicy({ ...operationRetry(settings, tuning), stats: tuning.stats?.retries }),
    signal: cancelSignal(),
    hint: http.hint,
  });
}

/**
 * The retry settings of an operation: the defaults, then the tuning, then what the user set, then the bound the
 * engine gave this call (a resource's `customTimeouts`), which wins.
 */
export function operationRetry(settings: ServiceSettings, tuning: ClientTuning = {}): RetrySettings {
  const bound = callBound();
  return retrySettings(
    tuning.retry ?? {},
    { maxRetries: settings.maxRetries, budgetMs: settings.operationTimeoutMs },
    bound ? { budgetMs: bound.ms, budgetName: bound.name } : {},
  );
}
