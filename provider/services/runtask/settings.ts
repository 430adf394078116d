import { setting, type ConfigLookup } from "../../config/lookup";
import { commonSettings, resolveServiceSettings, settingKeys, type ServiceDescription, type ServiceSettings } from "../../config/serviceSettings";
import { TERRAFORM_SOURCES } from "./terraformCredentials";

/**
 * The run task service's settings: stack config `runtask:*`, environment `RUNTASK_*`, then the address and the tokens
 * Terraform's users keep (`terraformCredentials.ts`).
 */
export const RUNTASK_SERVICE: ServiceDescription<"organization"> = {
  service: "run task service",
  namespace: "runtask",
  apiPrefix: "/api/v2",
  example: "https://runs.example.com",
  tokenNeeds: "an API token with the Manage Run Tasks permission",
  settings: {
    ...commonSettings(
      "runtask",
      {
        address: "RUNTASK_ADDR",
        token: "RUNTASK_TOKEN",
        caCert: "RUNTASK_CACERT",
        caCertPem: "RUNTASK_CACERT_BYTES",
        skipTlsVerify: "RUNTASK_SKIP_VERIFY",
        requestTimeout: "RUNTASK_REQUEST_TIMEOUT",
        maxRetries: "RUNTASK_MAX_RETRIES",
        operationTimeout: "RUNTASK_OPERATION_TIMEOUT",
        proxy: "RUNTASK_PROXY_ADDR",
      },
      "Base address of the run task service (the API lives under `/api/v2`).",
      "API token, sent as `Authorization: Bearer`.",
    ),
    organization: { key: "runtask:organization", env: "RUNTASK_ORGANIZATION", doc: "Default organization of `RunTask` and of the functions." },
  },
  vendorSources: TERRAFORM_SOURCES,
};

/** Stack config keys and the environment variables they fall back to. */
export const RUNTASK_SETTING_KEYS = settingKeys(RUNTASK_SERVICE.settings);

export type RunTaskSettings = ServiceSettings;

export function resolveRunTaskSettings(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): RunTaskSettings {
  return resolveServiceSettings(RUNTASK_SERVICE, lookup, env);
}

/** The default organization: stack config `runtask:organization`, then `RUNTASK_ORGANIZATION`. */
export function defaultOrganization(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return setting(lookup, RUNTASK_SETTING_KEYS.organization[0], RUNTASK_SETTING_KEYS.organization[1], env);
}
