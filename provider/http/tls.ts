/** TLS settings a real deployment needs: a private CA, and (tests only) skipping verification. */
export interface TlsSettings {
  /**
   * PEM text of the CA certificates to trust instead of the system's: given as text, or read from the file a
   * setting names (read when the settings are, so that a missing file names its setting).
   */
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
  if (tls.caCertPem) options.ca = tls.caCertPem;
  if (tls.skipVerify) options.rejectUnauthorized = false;
  return options;
}

/** A stable key for caching one dispatcher per distinct TLS setting. */
export function tlsKey(tls: TlsSettings): string {
  return JSON.stringify([tls.caCertPem ?? "", Boolean(tls.skipVerify)]);
}
