import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SettingValue } from "../../config/lookup";
import type { VendorSource } from "../../config/serviceSettings";

/**
 * Where users of Terraform and terraform-provider-tfe keep the run task service's address and tokens, read as that
 * provider reads them (its `internal/client/config.go`, and Terraform's own credentials source), after the
 * package's settings: `TFE_HOSTNAME` (a host, reached over https), `TFE_TOKEN`, then the token of the address's host
 * in `TF_TOKEN_<host>`, in a `credentials "<host>"` block of the CLI configuration (`TF_CLI_CONFIG_FILE`, else
 * `~/.terraformrc`), and in `~/.terraform.d/credentials.tfrc.json`, which `terraform login` writes.
 */
export const TERRAFORM_SOURCES: { address: VendorSource[]; token: VendorSource[] } = {
  address: [
    {
      name: "TFE_HOSTNAME",
      read: (env) => {
        const host = env.TFE_HOSTNAME?.trim();
        if (!host) return undefined;
        // A host, as the provider takes it; an address with its scheme is taken as it is.
        return { value: /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `https://${host}`, from: "TFE_HOSTNAME" };
      },
    },
  ],
  token: [
    { name: "TFE_TOKEN", read: (env) => (env.TFE_TOKEN ? { value: env.TFE_TOKEN, from: "TFE_TOKEN" } : undefined) },
    { name: "TF_TOKEN_<host>", read: (env, address) => withHost(address, (host) => hostVariable(env, host)) },
    {
      name: "the CLI configuration's credentials (TF_CLI_CONFIG_FILE, ~/.terraformrc)",
      read: (env, address) => withHost(address, (host) => cliConfigToken(env, host)),
    },
    { name: "~/.terraform.d/credentials.tfrc.json", read: (env, address) => withHost(address, (host) => credentialsFileToken(env, host)) },
  ],
};

/** The host (with its port, where it has one) of an address, lowercase, as Terraform keys credentials; undefined if none. */
function withHost(address: string | undefined, read: (host: string) => SettingValue | undefined): SettingValue | undefined {
  if (!address) return undefined;
  try {
    const host = new URL(address).host.toLowerCase();
    return host ? read(host) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `TF_TOKEN_<host>`: the host with each `.` written `_` and each `-` written `__`, as Terraform encodes it, matched
 * without regard to case. A host with a port has no such variable (a name holds no `:`).
 */
export function tokenVariableOf(host: string): string | undefined {
  if (host.includes(":")) return undefined;
  return `TF_TOKEN_${host.replace(/-/g, "__").replace(/\./g, "_")}`;
}

function hostVariable(env: NodeJS.ProcessEnv, host: string): SettingValue | undefined {
  const wanted = tokenVariableOf(host);
  if (!wanted) return undefined;
  const name = Object.keys(env).find((k) => k.toLowerCase() === wanted.toLowerCase() && env[k]);
  return name ? { value: env[name]!, from: name } : undefined;
}

/** The user's home folder as Terraform finds it: `HOME` (`APPDATA` for its files on Windows); undefined where unset. */
function terraformHome(env: NodeJS.ProcessEnv): { home: string; windows: boolean } | undefined {
  if (process.platform === "win32" && env.APPDATA) return { home: env.APPDATA, windows: true };
  return env.HOME ? { home: env.HOME, windows: false } : undefined;
}

/** A `credentials "<host>"` block's token in the CLI configuration, HCL or JSON. */
function cliConfigToken(env: NodeJS.ProcessEnv, host: string): SettingValue | undefined {
  const place = terraformHome(env);
  const file = env.TF_CLI_CONFIG_FILE || (place && join(place.home, place.windows ? "terraform.rc" : ".terraformrc"));
  const text = file && readIfThere(file);
  if (!text) return undefined;
  const token = file.endsWith(".json") ? jsonCredential(text, host) : hclCredential(text, host);
  return token ? { value: token, from: `${env.TF_CLI_CONFIG_FILE ? "TF_CLI_CONFIG_FILE" : file} (credentials "${host}")` } : undefined;
}

/** The token of `host` in credentials.tfrc.json, as `terraform login` writes it. */
function credentialsFileToken(env: NodeJS.ProcessEnv, host: string): SettingValue | undefined {
  const place = terraformHome(env);
  if (!place) return undefined;
  const file = join(place.home, place.windows ? "terraform.d" : ".terraform.d", "credentials.tfrc.json");
  const text = readIfThere(file);
  const token = text && jsonCredential(text, host);
  return token
    ? { value: token, from: `${place.windows ? "%APPDATA%\\terraform.d" : "~/.terraform.d"}/credentials.tfrc.json (credentials "${host}")` }
    : undefined;
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** `{"credentials": {"<host>": {"token": "..."}}}`, hosts compared without regard to case. */
function jsonCredential(text: string, host: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const credentials = (parsed as { credentials?: Record<string, { token?: unknown }> } | null)?.credentials;
  if (!credentials || typeof credentials !== "object") return undefined;
  const key = Object.keys(credentials).find((k) => k.toLowerCase() === host);
  const token = key === undefined ? undefined : credentials[key]?.token;
  return typeof token === "string" ? token : undefined;
}

/** `credentials "<host>" { token = "..." }` in HCL, the CLI configuration's own syntax; comments and other blocks ignored. */
function hclCredential(text: string, host: string): string | undefined {
  const uncommented = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)(#|\/\/).*$/gm, "$1");
  for (const block of uncommented.matchAll(/credentials\s+"([^"]+)"\s*\{([^}]*)\}/g)) {
    if (block[1].toLowerCase() !== host) continue;
    const token = /token\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(block[2]);
    if (token) return JSON.parse(`"${token[1]}"`) as string;
  }
  return undefined;
}
