import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import {
  credentialsConfig,
  credentialsEnvironment,
  describeChanges,
  describeEngineEvent,
  findPulumiCli,
  packageInstalledFrom,
  provision,
  provisionedOutputs,
  PULUMI_INSTALL_URL,
} from "../../automation";
import { linkedInterrupt } from "../../automation/abort";
import { cliEnvironment, versionAtLeast } from "../../automation/cliEnvironment";
import { concurrentUpdateBound } from "../../automation/concurrentUpdates";
import { provisioningError } from "../../automation/errors";
import { FailureCollector } from "../../automation/failures";
import { redact, redactError, secretsOf } from "../../automation/redaction";

let tmp: string;
beforeAll(() => (tmp = mkdtempSync(join(tmpdir(), "automation-"))));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dir(...parts: string[]): string {
  const d = join(tmp, ...parts);
  mkdirSync(d, { recursive: true });
  return d;
}

describe("stack config and outputs", () => {
  const credentials = {
    snapshot: { address: "https://s.example:8200", token: "s-token" },
    runTask: { address: "https://r.example", token: "r-token", organization: "acme" },
  };

  test("credentials become plain config for the addresses and names, and environment variables for the tokens", () => {
    expect(credentialsConfig(credentials)).toEqual({
      "snapshot:address": { value: "https://s.example:8200" },
      "runtask:address": { value: "https://r.example" },
      "runtask:organization": { value: "acme" },
    });
    expect(credentialsEnvironment(credentials)).toEqual({ SERVICE_TOKEN: "s-token", RUNTASK_TOKEN: "r-token" });
    expect(credentialsConfig({ snapshot: { address: "a", token: "t", namespace: "root" } })["snapshot:namespace"]).toEqual({ value: "root" });
    expect(credentialsConfig()).toEqual({});
    expect(credentialsEnvironment()).toEqual({});
  });

  test("the CLI's environment: the caller's, then the backend, the state's secrets provider, the passphrase and the tokens, which win", () => {
    const env = cliEnvironment({
      stackName: "s",
      backendUrl: "s3://state",
      description: {},
      credentials,
      passphrase: "p",
      envVars: { PULUMI_BACKEND_URL: "file:///elsewhere", AWS_REGION: "eu-west-1", RUNTASK_TOKEN: "stale" },
    });
    expect(env).toEqual({
      PULUMI_SKIP_UPDATE_CHECK: "true",
      AWS_REGION: "eu-west-1",
      PULUMI_BACKEND_URL: "s3://state",
      PULUMI_FALLBACK_TO_STATE_SECRETS_MANAGER: "true",
      PULUMI_CONFIG_PASSPHRASE: "p",
      SERVICE_TOKEN: "s-token",
      RUNTASK_TOKEN: "r-token",
    });
  });

  test("CLI versions", () => {
    expect(versionAtLeast("v3.181.0", "3.181.0")).toBe(true);
    expect(versionAtLeast("3.210.1-alpha.x", "3.181.0")).toBe(true);
    expect(versionAtLeast("3.99.9", "3.181.0")).toBe(false);
    expect(versionAtLeast("4.0.0", "3.181.0")).toBe(true);
  });

  test("concurrentUpdateWait in milliseconds or as a duration; a value that is neither is refused by name", () => {
    expect(concurrentUpdateBound(undefined)).toBe(600_000);
    expect(concurrentUpdateBound("90s")).toBe(90_000);
    expect(concurrentUpdateBound(0)).toBe(0);
    expect(() => concurrentUpdateBound("soon")).toThrow('concurrentUpdateWait: "soon" is not a duration');
    expect(() => concurrentUpdateBound(-1)).toThrow("concurrentUpdateWait: -1 is not a duration");
  });

  test("outputs of a stack as plain values; missing groups are empty", () => {
    const runTasks = { scanner: { id: "task-1", name: "scanner", organization: "acme", url: "https://h", enabled: true } };
    expect(provisionedOutputs({ runTasks: { value: runTasks, secret: false } })).toEqual({ snapshots: {}, runTasks, attachments: {} });
  });
});

describe("secrets kept out of what the helper throws", () => {
  const options = {
    credentials: { runTask: { address: "https://r", token: "runtask-token-1" }, snapshot: { address: "https://s", token: "snap-token-2" } },
    passphrase: "pass-phrase-3",
    config: { "app:key": { value: "config-secret-4", secret: true }, "app:plain": { value: "plain-value" } },
    envVars: { PULUMI_ACCESS_TOKEN: "pul-access-5", AWS_SECRET_ACCESS_KEY: "aws-secret-6", AWS_REGION: "eu-west-1" },
    description: {
      runTasks: { t: { url: "https://h", hmacKey: "hmac-key-7" } },
      snapshots: {
        s: {
          interval: 60,
          storageType: "cloudA-s3" as const,
          pathPrefix: "p",
          cloudAS3Bucket: "b",
          cloudAS3Region: "r",
          cloudASecretAccessKey: "cloud-secret-8",
        },
      },
    },
  };

  test("every secret of the options, and nothing else", () => {
    expect(secretsOf(options).sort()).toEqual(
      ["runtask-token-1", "snap-token-2", "pass-phrase-3", "config-secret-4", "pul-access-5", "aws-secret-6", "hmac-key-7", "cloud-secret-8"].sort(),
    );
    expect(secretsOf({ passphrase: "abc" })).toEqual([]); // too short to hide anything
  });

  test("replaced in every string an error holds, however deep", () => {
    const secrets = secretsOf(options);
    const err = Object.assign(new Error("failed with runtask-token-1"), {
      commandResult: {
        stdout: "hmac-key-7 in output",
        stderr: "and pass-phrase-3",
        err: Object.assign(new Error("x"), { command: "pulumi --key config-secret-4" }),
      },
      lines: ["aws-secret-6"],
    });
    redactError(err, secrets);
    expect(err.message).toBe("failed with [secret]");
    expect(err.stack).not.toContain("runtask-token-1");
    expect(err.commandResult).toMatchObject({ stdout: "[secret] in output", stderr: "and [secret]", err: { command: "pulumi --key [secret]" } });
    expect(err.lines).toEqual(["[secret]"]);
    expect(redact("snap-token-2snap-token-2", secrets)).toBe("[secret][secret]");
  });
});

describe("preconditions checked before the CLI runs", () => {
  test("findPulumiCli finds an executable `pulumi` on PATH and nothing else", () => {
    const withCli = dir("bin-with");
    const notExecutable = dir("bin-plain");
    writeFileSync(join(withCli, "pulumi"), "#!/bin/sh\n");
    chmodSync(join(withCli, "pulumi"), 0o755);
    writeFileSync(join(notExecutable, "pulumi"), "not a program");
    chmodSync(join(notExecutable, "pulumi"), 0o644);
    dir("bin-dir", "pulumi");
    expect(findPulumiCli({ PATH: [notExecutable, join(tmp, "bin-dir"), withCli].join(":") })).toBe(join(withCli, "pulumi"));
    expect(findPulumiCli({ PATH: [notExecutable, join(tmp, "bin-dir")].join(":") })).toBeUndefined();
    expect(findPulumiCli({})).toBeUndefined();
  });

  test("packageInstalledFrom looks for node_modules/pulumi-snapshot-runtask in the directory and above", () => {
    const app = dir("app", "src", "deep");
    expect(packageInstalledFrom(app)).toBe(false);
    dir("app", "node_modules", "pulumi-snapshot-runtask");
    writeFileSync(join(tmp, "app", "node_modules", "pulumi-snapshot-runtask", "package.json"), "{}");
    expect(packageInstalledFrom(app)).toBe(true);
    // The package's own repository does not count: the plugin cannot load the package by name there.
    expect(packageInstalledFrom(resolve(__dirname, "../.."))).toBe(false);
  });

  const options = { stackName: "dev", backendUrl: "file:///nowhere", description: {} };

  test("without a Pulumi CLI, provisioning fails at once and says how to install one, or build the repository's", async () => {
    await expect(provision({ ...options, envVars: { PATH: dir("empty-bin") } })).rejects.toThrow(
      new RegExp(
        `needs the Pulumi CLI.*no \`pulumi\` executable was found on PATH[\\s\\S]*${PULUMI_INSTALL_URL.replace(/[./]/g, "\\$&")}` +
          "[\\s\\S]*`npm run engine` builds the CLI the package is tested with into `\\.engine/bin`: put that folder on PATH",
      ),
    );
  });
});

describe("describeEngineEvent", () => {
  const urn = (type: string, name: string) => `urn:pulumi:dev::proj::${type}::${name}`;
  const step = (op: string, type: string, name: string, id?: string) => ({
    op,
    urn: urn(type, name),
    type,
    provider: "",
    new: id ? { type, urn: urn(type, name), id, parent: "", inputs: {}, outputs: {}, provider: "" } : undefined,
  });
  const event = (e: Partial<EngineEvent>) => ({ sequence: 1, timestamp: 0, ...e }) as EngineEvent;
  const RT = "pulumi-nodejs:dynamic/runtask:RunTask";

  test("resource steps, with the id once known", () => {
    expect(describeEngineEvent(event({ resourcePreEvent: { metadata: step("create", RT, "scanner") as any } }))).toBe("+ create RunTask scanner");
    expect(describeEngineEvent(event({ resOutputsEvent: { metadata: step("create", RT, "scanner", "task-1") as any } }))).toBe(
      "  created RunTask scanner (task-1)",
    );
    expect(describeEngineEvent(event({ resOutputsEvent: { metadata: step("same", RT, "scanner", "task-1") as any } }))).toBe(
      "  unchanged RunTask scanner (task-1)",
    );
    expect(describeEngineEvent(event({ resOpFailedEvent: { metadata: step("update", RT, "scanner") as any, status: 1, steps: 1 } }))).toBe(
      "! update failed: RunTask scanner",
    );
  });

  test("leaves out the stack and the default providers, unchanged resources before they are checked, and planned outputs", () => {
    expect(describeEngineEvent(event({ resourcePreEvent: { metadata: step("create", "pulumi:pulumi:Stack", "proj-dev") as any } }))).toBeUndefined();
    const provider = "pulumi:providers:pulumi-nodejs";
    expect(describeEngineEvent(event({ resourcePreEvent: { metadata: step("create", provider, "default") as any } }))).toBeUndefined();
    expect(describeEngineEvent(event({ resOutputsEvent: { metadata: step("same", provider, "default_3_1_0", "p-1") as any } }))).toBeUndefined();
    // An explicit provider is one of the program's resources.
    expect(describeEngineEvent(event({ resourcePreEvent: { metadata: step("create", provider, "acme") as any } }))).toBe(
      "+ create pulumi-nodejs acme",
    );
    expect(describeEngineEvent(event({ resourcePreEvent: { metadata: step("same", RT, "scanner") as any } }))).toBeUndefined();
    expect(describeEngineEvent(event({ resOutputsEvent: { metadata: step("create", RT, "scanner") as any, planning: true } }))).toBeUndefined();
  });

  test("diagnostics and the summary", () => {
    expect(
      describeEngineEvent(
        event({
          diagnosticEvent: { message: "run task service: POST failed (HTTP 404)\n", color: "never", severity: "error", urn: urn(RT, "scanner") },
        }),
      ),
    ).toBe("error: scanner: run task service: POST failed (HTTP 404)");
    expect(
      describeEngineEvent(event({ diagnosticEvent: { message: "progress", color: "never", severity: "info", ephemeral: true } })),
    ).toBeUndefined();
    // The engine sends the SDK's debug diagnostics too; the CLI shows them only with --debug.
    expect(
      describeEngineEvent(
        event({ diagnosticEvent: { message: "Registering resource: t=pulumi:pulumi:Stack", color: "never", severity: "debug" as any } }),
      ),
    ).toBeUndefined();
    expect(
      describeEngineEvent(
        event({ summaryEvent: { maybeCorrupt: false, durationSeconds: 2.4, resourceChanges: { create: 3, same: 1, update: 0 }, policyPacks: {} } }),
      ),
    ).toBe("done in 2s: 3 created, 1 unchanged");
    expect(describeChanges({ create: 2, update: 1, same: 1 }, "planned")).toBe("2 to create, 1 to update, 1 unchanged");
  });
});

describe("interrupting the CLI when the caller aborts", () => {
  afterEach(() => jest.useRealTimers());

  test("the CLI is interrupted after the grace, unless it said that a SIGINT reached it already (a Ctrl-C in the terminal)", () => {
    jest.useFakeTimers();
    for (const alreadyInterrupted of [false, true]) {
      const caller = new AbortController();
      const link = linkedInterrupt(caller.signal, () => alreadyInterrupted, 1500);
      caller.abort();
      jest.advanceTimersByTime(1499);
      expect(link.signal.aborted).toBe(false);
      jest.advanceTimersByTime(1);
      // A second SIGINT would make the CLI stop at once, leaving the operations in flight pending.
      expect(link.signal.aborted).toBe(!alreadyInterrupted);
      link.dispose();
    }
  });

  test("a signal aborted before the run interrupts at once; dispose leaves no listener and no timer", () => {
    jest.useFakeTimers();
    expect(linkedInterrupt(AbortSignal.abort(), () => false, 1500).signal.aborted).toBe(true);
    const caller = new AbortController();
    const link = linkedInterrupt(caller.signal, () => false, 1500);
    caller.abort();
    link.dispose();
    jest.advanceTimersByTime(5000);
    expect(link.signal.aborted).toBe(false);
    const later = new AbortController();
    const disposed = linkedInterrupt(later.signal, () => false, 0);
    disposed.dispose();
    later.abort();
    jest.advanceTimersByTime(10);
    expect(disposed.signal.aborted).toBe(false);
  });
});

describe("failures from the engine's events", () => {
  const urn = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/runtask:RunTask::scanner";
  const stackUrn = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
  const diagnostic = (message: string, at = urn) =>
    ({ sequence: 1, timestamp: 0, diagnosticEvent: { urn: at, message: `${message}\n`, color: "never", severity: "error" } }) as EngineEvent;

  test("a step whose state could not be written (a wrong passphrase) is the call's failure, not the resource's", () => {
    const collector = new FailureCollector();
    const wrong =
      "pre-step event returned an error: failed to serialize snapshot: failed to encrypt: incorrect passphrase, please set PULUMI_CONFIG_PASSPHRASE " +
      "to the correct passphrase or set PULUMI_CONFIG_PASSPHRASE_FILE to a file containing the passphrase";
    collector.onEvent(diagnostic(wrong));
    collector.onEvent(diagnostic("update failed", stackUrn));
    expect(collector.failures()).toEqual([]);
    const err = provisioningError(new Error("Command failed with exit code 1"), {
      operation: "provision",
      stackName: "dev",
      backendUrl: "file:///state",
      step: "up",
      secrets: [],
      failures: () => collector.failures(),
      generalErrors: () => collector.generalErrors(),
    });
    expect(err).toMatchObject({ kind: "failed", failures: [] });
    expect(err.message).toBe(`provision of stack "dev" failed: ${wrong}`);
  });

  test("the provider's error is the resource's", () => {
    const collector = new FailureCollector();
    collector.onEvent(diagnostic("run task service: POST /organizations/acme/tasks failed (HTTP 422): refused"));
    expect(collector.failures()).toEqual([
      { name: "scanner", kind: "RunTask", urn, message: "run task service: POST /organizations/acme/tasks failed (HTTP 422): refused" },
    ]);
  });
});
