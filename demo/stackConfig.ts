import type { ConfigMap } from "@pulumi/pulumi/automation";
import { credentialsConfig } from "../automation/cliEnvironment";
import type { ServiceCredentials } from "../automation/options";

/** What the demo's program needs from its stack. */
export interface DemoSettings {
  credentials: Required<ServiceCredentials>;
  /** The workspace the run task is attached to (`ws-...`). */
  workspaceId: string;
  /** The directory the snapshot service writes the demo's snapshots to. */
  snapshotPath: string;
  hmacKey: string;
  /** Default 5s. */
  snapshotInterval?: string;
  /** Whether the task is enabled on every workspace (needs the organization's global run tasks). Default true. */
  globalEnabled?: boolean;
}

/**
 * The services' stack config: addresses and names plain, tokens as secrets. (The Automation API helper's
 * `credentialsConfig` leaves the tokens out, for the CLI's environment; the demo keeps its stack's as config.)
 */
export function serviceConfig(credentials: Required<ServiceCredentials>): ConfigMap {
  return {
    ...credentialsConfig(credentials),
    "snapshot:token": { value: credentials.snapshot.token, secret: true },
    "runtask:token": { value: credentials.runTask.token, secret: true },
  };
}

/** The demo stack's config: service credentials (tokens secret), and the demo's settings (the HMAC key secret). */
export function demoStackConfig(s: DemoSettings): ConfigMap {
  const config: ConfigMap = {
    ...serviceConfig(s.credentials),
    "demo:workspaceId": { value: s.workspaceId },
    "demo:snapshotPath": { value: s.snapshotPath },
    "demo:hmacKey": { value: s.hmacKey, secret: true },
  };
  if (s.snapshotInterval !== undefined) config["demo:snapshotInterval"] = { value: s.snapshotInterval };
  if (s.globalEnabled !== undefined) config["demo:globalEnabled"] = { value: String(s.globalEnabled) };
  return config;
}

/** `--proxy`: both services' proxy setting, as secrets (the URL may hold a password). */
export function proxyConfig(proxy: string): ConfigMap {
  return { "snapshot:proxy": { value: proxy, secret: true }, "runtask:proxy": { value: proxy, secret: true } };
}
