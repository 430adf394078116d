import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN, startEmulator, type Emulator } from "../../emulator";
import { checkSettings } from "../../provider/config/configuredSettings";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { runTaskProvider } from "../../provider/runTask/provider";
import { resolveRunTaskSettings } from "../../provider/services/runtask/settings";
import { tokenVariableOf } from "../../provider/services/runtask/terraformCredentials";
import { resolveSnapshotSettings } from "../../provider/services/snapshot/settings";
import { snapshotAutoConfigProvider } from "../../provider/snapshotAutoConfig/provider";
import { checkedInputs } from "../support/checkedInputs";
import { configureProvider } from "../support/providerConfig";

/**
 * The settings the vendors' own tools keep, read after the package's own and named as the source wherever a value is
 * reported: for the run task service terraform-provider-tfe's `TFE_HOSTNAME`, `TFE_TOKEN`, `TF_TOKEN_<host>` and the
 * Terraform CLI's credentials (`TF_CLI_CONFIG_FILE` or `~/.terraformrc`, `~/.terraform.d/credentials.tfrc.json`); for
 * the snapshot service Vault's client's `VAULT_ADDR`, `VAULT_TOKEN`, `~/.vault-token`, `VAULT_CACERT`,
 * `VAULT_SKIP_VERIFY` and `VAULT_NAMESPACE`. A token is never in a message.
 */
const config = (values: Record<string, string>) => (key: string) => values[key];
const none = config({});

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "vendor-settings-home-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** Writes a file under the test's home folder. */
function inHome(path: string, text: string): string {
  const file = join(home, path);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** What a service's settings read, as the address and where the token came from. */
const runTask = (env: NodeJS.ProcessEnv, values: Record<string, string> = {}) => {
  const s = resolveRunTaskSettings(config(values), { HOME: home, ...env });
  return { address: s.address, addressFrom: s.addressFrom, token: s.token };
};

describe("the run task service: after runtask:* and RUNTASK_*, terraform-provider-tfe's settings", () => {
  test("TFE_HOSTNAME is a host reached over https (an address with a scheme as it is), TFE_TOKEN its token", () => {
    expect(runTask({ TFE_HOSTNAME: "tfe.example.com", TFE_TOKEN: "tfe-token-1" })).toEqual({
      address: "https://tfe.example.com",
      addressFrom: "TFE_HOSTNAME",
      token: "tfe-token-1",
    });
    expect(runTask({ TFE_HOSTNAME: "http://127.0.0.1:8080", TFE_TOKEN: "t" }).address).toBe("http://127.0.0.1:8080");
  });

  test("the package's own settings come first, each on its own", () => {
    const env = { TFE_HOSTNAME: "tfe.example.com", TFE_TOKEN: "tfe-token", RUNTASK_TOKEN: "own-token" };
    expect(runTask(env)).toMatchObject({ addressFrom: "TFE_HOSTNAME", token: "own-token" });
    expect(runTask(env, { "runtask:address": "https://runs.example.com" })).toMatchObject({ addressFrom: "runtask:address", token: "own-token" });
    expect(runTask({ ...env, RUNTASK_TOKEN: undefined }, { "runtask:address": "https://runs.example.com" }).token).toBe("tfe-token");
  });

  test("TF_TOKEN_<host>, the host's dots as _ and dashes as __, matched whatever its case; after TFE_TOKEN", () => {
    expect(tokenVariableOf("app.terraform.io")).toBe("TF_TOKEN_app_terraform_io");
    expect(tokenVariableOf("my-tfe.example.com")).toBe("TF_TOKEN_my__tfe_example_com");
    expect(tokenVariableOf("tfe.example.com:8443")).toBeUndefined();
    expect(runTask({ TFE_HOSTNAME: "my-tfe.example.com", TF_TOKEN_MY__TFE_EXAMPLE_COM: "host-token" }).token).toBe("host-token");
    expect(() => runTask({ TFE_HOSTNAME: "my-tfe.example.com", TF_TOKEN_other_example_com: "other" })).toThrow(/token is not set/);
  });

  test("the CLI's credentials: TF_CLI_CONFIG_FILE (else ~/.terraformrc), then ~/.terraform.d/credentials.tfrc.json", () => {
    inHome(".terraform.d/credentials.tfrc.json", JSON.stringify({ credentials: { "tfe.example.com": { token: "login-token" } } }));
    expect(runTask({ TFE_HOSTNAME: "tfe.example.com" }).token).toBe("login-token");
    inHome(
      ".terraformrc",
      `# the CLI configuration\nplugin_cache_dir = "$HOME/.terraform.d/plugin-cache"\ncredentials "TFE.example.com" {\n  token = "rc-token"\n}\n`,
    );
    expect(runTask({ TFE_HOSTNAME: "tfe.example.com" }).token).toBe("rc-token");
    const elsewhere = inHome("ci/terraform.tfrc.json", JSON.stringify({ credentials: { "tfe.example.com": { token: "ci-token" } } }));
    expect(runTask({ TFE_HOSTNAME: "tfe.example.com", TF_CLI_CONFIG_FILE: elsewhere }).token).toBe("ci-token");
    // The token of the address's host alone, from whichever setting the address came.
    expect(runTask({}, { "runtask:address": "https://tfe.example.com:443/api/v2" }).token).toBe("rc-token");
    expect(() => runTask({}, { "runtask:address": "https://runs.example.com" })).toThrow(/token is not set/);
    expect(runTask({ TFE_HOSTNAME: "tfe.example.com", TF_TOKEN_tfe_example_com: "env-token" }).token).toBe("env-token");
  });

  test("a token missing from every source: the message lists them all, in the order read", () => {
    expect(() => resolveRunTaskSettings(none, { HOME: home, TFE_HOSTNAME: "tfe.example.com" })).toThrow(
      "run task service token is not set: run `pulumi config set runtask:token --secret <value>` (an API token with the Manage Run Tasks " +
        "permission), or set the environment variable RUNTASK_TOKEN (after these, TFE_TOKEN, TF_TOKEN_<host>, the CLI configuration's " +
        "credentials (TF_CLI_CONFIG_FILE, ~/.terraformrc), ~/.terraform.d/credentials.tfrc.json are read, and none holds one)",
    );
  });

  test("a wrong value names its source, and no token", () => {
    const problems = () => checkSettings(none, { HOME: home, TFE_HOSTNAME: "bad host name", TFE_TOKEN: "canary-tfe-token" })("runtask");
    expect(problems).toThrow('the provider\'s settings are wrong: TFE_HOSTNAME: "https://bad host name" is not a URL');
    expect(problems).not.toThrow(/canary-tfe-token/);
  });
});

describe("the snapshot service: after snapshot:* and SERVICE_*, Vault's client's settings", () => {
  const snapshot = (env: NodeJS.ProcessEnv, values: Record<string, string> = {}) => resolveSnapshotSettings(config(values), { HOME: home, ...env });

  test("VAULT_ADDR and VAULT_TOKEN, then the token file ~/.vault-token, trimmed", () => {
    expect(snapshot({ VAULT_ADDR: "https://vault.example.com:8200", VAULT_TOKEN: "vault-token" })).toMatchObject({
      address: "https://vault.example.com:8200",
      addressFrom: "VAULT_ADDR",
      token: "vault-token",
    });
    inHome(".vault-token", "file-token\n");
    expect(snapshot({ VAULT_ADDR: "https://vault.example.com:8200" }).token).toBe("file-token");
    expect(snapshot({ VAULT_ADDR: "https://vault.example.com:8200", SERVICE_TOKEN: "own" }).token).toBe("own");
    expect(snapshot({ SERVICE_ADDR: "https://snap.example.com", VAULT_ADDR: "https://vault.example.com" }).addressFrom).toBe("SERVICE_ADDR");
  });

  test("VAULT_CACERT and VAULT_SKIP_VERIFY, each named when wrong", () => {
    const ca = inHome("ca.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    expect(snapshot({ VAULT_ADDR: "https://v.example.com", VAULT_TOKEN: "t", VAULT_CACERT: ca, VAULT_SKIP_VERIFY: "true" }).tls).toEqual({
      caCertPem: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
      skipVerify: true,
    });
    const problems = () => checkSettings(none, { HOME: home, VAULT_CACERT: "/nonexistent/vault-ca.pem", VAULT_SKIP_VERIFY: "maybe" })("snapshot");
    expect(problems).toThrow('VAULT_CACERT: cannot read the CA bundle "/nonexistent/vault-ca.pem" (ENOENT)');
    expect(problems).toThrow('VAULT_SKIP_VERIFY: expected true or false, got "maybe"');
  });

  test("VAULT_NAMESPACE other than root is refused as snapshot:namespace is, naming it; root is taken", () => {
    const env = { VAULT_ADDR: "https://v.example.com", VAULT_TOKEN: "canary-vault-token" };
    expect(() => snapshot({ ...env, VAULT_NAMESPACE: "team-a/" })).toThrow(
      'snapshot namespace is "team-a/" (from VAULT_NAMESPACE), but the automated snapshot endpoints are restricted to the root namespace: ' +
        "unset VAULT_NAMESPACE for these resources",
    );
    expect(() => checkSettings(none, { ...env, VAULT_NAMESPACE: "team-a/" })("snapshot")).toThrow(/\(from VAULT_NAMESPACE\)/);
    expect(snapshot({ ...env, VAULT_NAMESPACE: "root" }).namespace).toBe("root");
    expect(snapshot({ ...env, VAULT_NAMESPACE: "team-a/" }, { "snapshot:namespace": "root" }).namespace).toBe("root");
  });
});

describe("against the emulator, with the vendors' settings alone", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  });
  afterAll(async () => {
    await emulator.close();
    await closeSharedDispatchers();
  });

  test("a configuration and a task are made with the address and tokens of VAULT_*, a credentials file and TFE_HOSTNAME", async () => {
    const host = new URL(emulator.url).host;
    inHome(".terraform.d/credentials.tfrc.json", JSON.stringify({ credentials: { [host]: { token: DEFAULT_RUNTASK_TOKEN } } }));
    const env = { HOME: home, VAULT_ADDR: emulator.url, VAULT_TOKEN: DEFAULT_SNAPSHOT_TOKEN, TFE_HOSTNAME: emulator.url };
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      configureProvider({ "runtask:organization": "emulator-org" });
      await snapshotAutoConfigProvider.create(
        await checkedInputs(snapshotAutoConfigProvider, {
          name: "from-vault-settings",
          interval: "1h",
          storageType: "local",
          pathPrefix: "/tmp/s",
          localMaxSpace: 1000,
        }),
      );
      await runTaskProvider.create(await checkedInputs(runTaskProvider, { name: "from-terraform-credentials", url: "https://hooks.example.com/x" }));
    } finally {
      for (const k of Object.keys(env)) delete process.env[k];
      Object.assign(process.env, saved);
    }
    expect([...emulator.snapshot.configs.keys()]).toEqual(["from-vault-settings"]);
    expect(emulator.runTask.tasks().map((t) => t.name)).toEqual(["from-terraform-credentials"]);
  });
});
