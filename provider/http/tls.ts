import { readFileSync } from "node:fs";

/** TLS settings a real deployment needs: a private CA, and (tests only) skipping verification. */
export interface TlsSettings {
  /** Path of a PEM bundle of CA certificates to trust in addition to none (replaces the system roots). */
  caCertFile?: string;
  /** PEM text of CA certificates, for secret stores that hand out contents rather than files. */
  caCertPem?: string;
  /** Disables certificate verification. For test servers only. */
  skipVerify?: boolean;
}

export interface TlsConnectOptions {
  ca?: string;
  rejectUnauthorized?: boolean;
}

export function tlsConnectOptions(tls: TlsSettings): TlsConnectOptions {
  const options: TlsConnectOptions = {};
  if (tls.caCertFile) options.ca = readFileSync(tls.caCertFile, "utf8");
  else if (tls.caCertPem) options.ca = tls.caCertPem;
  if (tls.skipVerify) options.rejectUnauthorized = false;
  return options;
}

/** A stable key for caching one dispatcher per distinct TLS setting. */
export function tlsKey(tls: TlsSettings): string {
  return JSON.stringify([tls.caCertFile ?? "", tls.caCertPem ?? "", Boolean(tls.skipVerify)]);
}
