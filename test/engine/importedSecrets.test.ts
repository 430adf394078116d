import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { RUNTASK_TOKEN } from "../support/emulatorStack";
import { engineSuite, scenarioEmulator } from "../support/engine/engineSuite";
import { opsByName, type EngineStack } from "../support/engine/engineStack";
import { nameOf } from "../support/engine/stateFile";

/**
 * Write-only values after `pulumi import --file` with `inputs`, through the Pulumi engine, on a service that hides
 * credentials: the engine records the supplied HMAC key and credentials in the state's inputs only (its outputs are
 * the Read's, which never holds them), and the provider plugins compare the program with what the import recorded,
 * not with their absence. So the program that gives the imported values is `same` and its `up` sends nothing; a
 * refresh keeps them; a new key is sent once; a credential the program drops is cleared.
 */
jest.setTimeout(600_000);

const base = scenarioEmulator();
const suite = engineSuite({ emulator: { ...base, snapshot: { ...base.snapshot, echoCredentials: false } } });
let stack: EngineStack;
let work: string;

beforeAll(() => {
  stack = suite.stack("yaml", "imported-secrets");
  work = mkdtempSync(join(tmpdir(), "imported-secrets-"));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

const SECRETS = {
  scannerHmacKey: "hmac-canary-1",
  offsiteKeyId: "AKIACANARY1",
  offsiteSecretKey: "secret-canary-1",
  offsiteSessionToken: "session-canary-1",
};

function program(options: { sessionToken: boolean }): void {
  stack.yamlProgram(`config:
${Object.keys(SECRETS)
  .map((k) => `  ${k}:\n    type: string\n    secret: true`)
  .join("\n")}
resources:
  scanner:
    type: runtask:index:RunTask
    properties:
      name: scanner
      url: https://hooks.example.com/scan
      hmacKey: \${scannerHmacKey}
  offsite:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      name: offsite
      interval: 3600
      pathPrefix: backups
      storageType: cloudA-s3
      cloudAS3Bucket: snapshots
      cloudAS3Region: eu-west-1
      cloudAAccessKeyId: \${offsiteKeyId}
      cloudASecretAccessKey: \${offsiteSecretKey}
${options.sessionToken ? "      cloudASessionToken: ${offsiteSessionToken}\n" : ""}`);
}

/** A secret in the state's encoding, in plain text (only in this test's private import file). */
const secret = (value: string) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(value) });

test("an import with secret inputs, then the program that gives them: same, no write; refresh keeps them; changes are sent", async () => {
  // Made outside Pulumi, as Terraform made them: the key and the credentials sent once, never returned.
  const task = (await (
    await fetch(`${suite.emulator.url}/api/v2/organizations/acme/tasks`, {
      method: "POST",
      headers: { authorization: `Bearer ${RUNTASK_TOKEN}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify({
        data: {
          type: "tasks",
          attributes: { name: "scanner", url: "https://hooks.example.com/scan", category: "task", "hmac-key": SECRETS.scannerHmacKey },
        },
      }),
    })
  ).json()) as { data: { id: string } };
  const made = await fetch(`${suite.emulator.url}/v1/sys/storage/raft/snapshot-auto/config/offsite`, {
    method: "POST",
    headers: { "X-Service-Token": DEFAULT_SNAPSHOT_TOKEN, "content-type": "application/json" },
    body: JSON.stringify({
      interval: 3600,
      path_prefix: "backups",
      storage_type: "cloudA-s3",
      cloudA_s3_bucket: "snapshots",
      cloudA_s3_region: "eu-west-1",
      cloudA_access_key_id: SECRETS.offsiteKeyId,
      cloudA_secret_access_key: SECRETS.offsiteSecretKey,
      cloudA_session_token: SECRETS.offsiteSessionToken,
    }),
  });
  expect(made.ok).toBe(true);

  stack.yamlProgram("");
  expect((await stack.preview()).ok).toBe(true); // the stack, its config
  for (const [key, value] of Object.entries(SECRETS)) expect((await stack.cli(["config", "set", "--secret", key, value])).code).toBe(0);
  program({ sessionToken: true });
  const file = join(work, "import.json");
  writeFileSync(
    file,
    JSON.stringify({
      resources: [
        { type: "runtask:index:RunTask", name: "scanner", id: task.data.id, inputs: { hmacKey: secret(SECRETS.scannerHmacKey) } },
        {
          type: "snapshot:index:SnapshotAutoConfig",
          name: "offsite",
          id: "offsite",
          inputs: {
            cloudAAccessKeyId: secret(SECRETS.offsiteKeyId),
            cloudASecretAccessKey: secret(SECRETS.offsiteSecretKey),
            cloudASessionToken: secret(SECRETS.offsiteSessionToken),
          },
        },
      ],
    }),
  );
  suite.emulator.requests.reset();
  const imported = await stack.cli(["import", "--file", file, "--yes", "--skip-preview", "--generate-code=false", "--protect=false"]);
  expect([imported.code, imported.stderr]).toEqual([0, ""]);
  expect(suite.emulator.requests.writes()).toBe(0);
  // What the import recorded: the secrets in the inputs, encrypted; the outputs as the Read found them, without.
  const recorded = Object.fromEntries(stack.state().resources.map((r) => [nameOf(r.urn), r]));
  expect(Object.keys(recorded.scanner.inputs!)).toContain("hmacKey");
  expect(Object.keys(recorded.scanner.outputs!)).not.toContain("hmacKey");
  expect(Object.keys(recorded.offsite.inputs!)).toEqual(expect.arrayContaining(["cloudAAccessKeyId", "cloudASecretAccessKey", "cloudASessionToken"]));
  expect(Object.keys(recorded.offsite.outputs!)).not.toContain("cloudASecretAccessKey");
  for (const value of Object.values(SECRETS)) expect(stack.state().text).not.toContain(value);

  const preview = await stack.preview();
  expect(opsByName(preview)).toEqual({ scanner: "same", offsite: "same" });
  suite.emulator.requests.reset();
  expect((await stack.up()).changes).toEqual({ same: 3 });
  expect(suite.emulator.requests.writes()).toBe(0);

  // A refresh reads what it can, and keeps what the import recorded of the rest.
  const refreshed = await stack.refresh();
  expect(refreshed.ok).toBe(true);
  expect(opsByName(await stack.preview())).toEqual({ scanner: "same", offsite: "same" });

  // A new key is a change, sent once; a credential the program drops is cleared at the service.
  expect((await stack.cli(["config", "set", "--secret", "scannerHmacKey", "hmac-canary-2"])).code).toBe(0);
  program({ sessionToken: false });
  suite.emulator.requests.reset();
  const up = await stack.up();
  expect(opsByName(up)).toEqual({ scanner: "update", offsite: "update" });
  expect(up.steps.find((s) => nameOf(s.urn) === "scanner")?.diffs).toEqual(["hmacKey"]);
  expect(up.steps.find((s) => nameOf(s.urn) === "offsite")?.diffs).toEqual(["cloudASessionToken"]);
  expect(suite.emulator.runTask.tasks()[0].hmacKey).toBe("hmac-canary-2");
  const held = suite.emulator.snapshot.configs.get("offsite")!.config as Record<string, unknown>;
  expect([held.cloudA_session_token ?? "", held.cloudA_secret_access_key]).toEqual(["", SECRETS.offsiteSecretKey]);
  suite.emulator.requests.reset();
  expect((await stack.up()).changes).toEqual({ same: 3 });
  expect(suite.emulator.requests.writes()).toBe(0);
});
