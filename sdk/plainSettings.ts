import * as pulumi from "@pulumi/pulumi";
import * as runtimeConfig from "@pulumi/pulumi/runtime/config";
import { proxyRoute } from "../provider/http/proxyRoute";
import { RUNTASK_SETTING_KEYS } from "../provider/services/runtask/settings";
import { SNAPSHOT_SETTING_KEYS } from "../provider/services/snapshot/settings";
import { programConfig } from "./programConfig";

declare module "@pulumi/pulumi/runtime/config" {
  /**
   * Whether a stack config key holds a secret, as the SDK itself tells (its `Config` warns by it): left out of the
   * SDK's declarations, and so declared here; looked for before it is called.
   */
  export function isConfigSecret(key: string): boolean;
}

/** The proxy settings, by stack config key, with the variable that holds the same out of any state. */
const PROXY_SETTINGS = [SNAPSHOT_SETTING_KEYS.proxy, RUNTASK_SETTING_KEYS.proxy];

let warned = false;

/**
 * Warns, once a program, of a proxy password in plain stack config: the dynamic resources' default provider records
 * the whole stack config in the state as it is, so a `snapshot:proxy` or `runtask:proxy` that holds credentials and
 * is not a secret is stored there in clear text (docs/behaviour.md, "Proxies"). The warning names the key, never
 * the value; a value that does not parse is the provider's to refuse, when it is configured.
 */
export function warnOfPlainProxyPasswords(): void {
  if (warned) return;
  warned = true;
  for (const [key, variable] of PROXY_SETTINGS) {
    const value = programConfig(key);
    if (!value || typeof runtimeConfig.isConfigSecret !== "function" || runtimeConfig.isConfigSecret(key)) continue;
    let holdsPassword: boolean;
    try {
      holdsPassword = proxyRoute(key, value).secrets.length > 0;
    } catch {
      continue;
    }
    if (!holdsPassword) continue;
    pulumi.log.warn(
      `${key} holds a proxy password, and is not a secret of the stack config: the state records the stack config as it is, ` +
        `so it holds that password in clear text. Set it as a secret (\`pulumi config set --secret ${key} <url>\`), or give ` +
        `${variable} in the environment, which no state records`,
    );
  }
}
