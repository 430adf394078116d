import type { ConfigMap } from "@pulumi/pulumi/automation";
import { RUNTASK_SETTING_KEYS } from "../provider/services/runtask/settings";
import { SNAPSHOT_SETTING_KEYS } from "../provider/services/snapshot/settings";
import type { ProvisioningStackOptions, ServiceCredentials } from "./options";

/**
 * The oldest CLI the helper runs: 3.135 keeps a stack's secrets provider in its state from `stack init` on, which
 * PULUMI_FALLBACK_TO_STATE_SECRETS_MANAGER (3.134) reads back; 3.181 runs destroy with an inline program.
 */
export const MINIMUM_PULUMI_VERSION = "3.181.0";

/** Stack config for the credentials: addresses, the organization and the namespace, all plain. No token. */
export function credentialsConfig(credentials: ServiceCredentials = {}): ConfigMap {
  const config: ConfigMap = {};
  const { snapshot, runTask } = credentials;
  if (snapshot) {
    config[SNAPSHOT_SETTING_KEYS.address[0]] = { value: snapshot.address };
    if (snapshot.namespace !== undefined) config[SNAPSHOT_SETTING_KEYS.namespace[0]] = { value: snapshot.namespace };
  }
  if (runTask) {
    config[RUNTASK_SETTING_KEYS.address[0]] = { value: runTask.address };
    if (runTask.organization !== undefined) config[RUNTASK_SETTING_KEYS.organization[0]] = { value: runTask.organization };
  }
  return config;
}

/**
 * The tokens as the environment variables the provider falls back to (`SERVICE_TOKEN`, `RUNTASK_TOKEN`). The CLI
 * passes its environment on to the provider plugin; an environment is readable by its user only, where a command
 * line is readable by every user of the machine and is quoted whole in the Automation API's errors.
 */
export function credentialsEnvironment(credentials: ServiceCredentials = {}): Record<string, string> {
  const env: Record<string, string> = {};
  if (credentials.snapshot) env[SNAPSHOT_SETTING_KEYS.token[1]] = credentials.snapshot.token;
  if (credentials.runTask) env[RUNTASK_SETTING_KEYS.token[1]] = credentials.runTask.token;
  return env;
}

/**
 * The environment of every CLI call (and so of the provider plugin): the caller's `envVars`, then what the
 * helper decides, which wins. `PULUMI_BACKEND_URL` is the CLI's first choice of backend, ahead of the project's
 * `backend.url`, so an ambient one (a CI job's) would send the state elsewhere; the fallback flag makes the CLI
 * take the stack's secrets provider from its state when the stack settings file is missing, as it is in every
 * new work directory (pulumi/pulumi#8183).
 */
export function cliEnvironment(options: ProvisioningStackOptions): Record<string, string> {
  const env: Record<string, string> = {
    PULUMI_SKIP_UPDATE_CHECK: "true",
    ...options.envVars,
    ...credentialsEnvironment(options.credentials),
    PULUMI_BACKEND_URL: options.backendUrl,
    PULUMI_FALLBACK_TO_STATE_SECRETS_MANAGER: "true",
  };
  if (options.passphrase !== undefined) env.PULUMI_CONFIG_PASSPHRASE = options.passphrase;
  return env;
}

/** Whether `version` (`3.190.0`, `v3.190.0-alpha.x`) is at least `minimum`. */
export function versionAtLeast(version: string, minimum: string): boolean {
  const parse = (v: string) => (v.replace(/^v/, "").match(/^(\d+)\.(\d+)\.(\d+)/) ?? []).slice(1).map(Number);
  const [a, b] = [parse(version), parse(minimum)];
  if (a.length !== 3) return true; // unparsable: let the CLI speak for itself
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}
