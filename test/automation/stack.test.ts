import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import {
  credentialsConfig,
  describeChanges,
  describeEngineEvent,
  findPulumiCli,
  openProvisioningStack,
  packageInstalledFrom,
  provisionedOutputs,
  PULUMI_INSTALL_URL,
} from "../../automation";

let tmp: string;
beforeAll(() => (tmp = mkdtempSync(join(tmpdir(), "automation-"))));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dir(...parts: string[]): string {
  const d = join(tmp, ...parts);
  mkdirSync(d, { recursive: true });
  return d;
}

describe("stack config and outputs", () => {
  test("credentials become config, tokens as secrets", () => {
    expect(
      credentialsConfig({
        snapshot: { address: "https://s.example:8200", token: "s-token" },
        runTask: { address: "https://r.example", token: "r-token", organization: "acme" },
      }),
    ).toEqual({
      "snapshot:address": { value: "https://s.example:8200" },
      "snapshot:token": { value: "s-token", secret: true },
      "runtask:address": { value: "https://r.example" },
      "runtask:token": { value: "r-token", secret: true },
      "runtask:organization": { value: "acme" },
    });
    expect(credentialsConfig({ snapshot: { address: "a", token: "t", namespace: "root" } })["snapshot:namespace"]).toEqual({ value: "root" });
    expect(credentialsConfig()).toEqual({});
  });

  test("outputs of a stack as plain values; missing groups are empty", () => {
    const runTasks = { scanner: { id: "task-1", name: "scanner", organization: "acme", url: "https://h", enabled: true } };
    expect(provisionedOutputs({ runTasks: { value: runTasks, secret: false } })).toEqual({ snapshots: {}, runTasks, attachments: {} });
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

  test("without a Pulumi CLI, provisioning fails at once and says how to install one", async () => {
    await expect(openProvisioningStack({ ...options, envVars: { PATH: dir("empty-bin") } })).rejects.toThrow(
      new RegExp(`needs the Pulumi CLI.*no \`pulumi\` executable was found on PATH[\\s\\S]*${PULUMI_INSTALL_URL.replace(/[./]/g, "\\$&")}`),
    );
  });

  test("a program directory without the package fails before the CLI runs, with the fix", async () => {
    const fakeCli = dir("fake-cli");
    writeFileSync(join(fakeCli, "pulumi"), "#!/bin/sh\necho should not run >&2\nexit 1\n");
    chmodSync(join(fakeCli, "pulumi"), 0o755);
    await expect(openProvisioningStack({ ...options, envVars: { PATH: fakeCli }, programDir: dir("bare") })).rejects.toThrow(
      /pulumi-snapshot-runtask is not installed in .*bare.*Install the package there/,
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

  test("leaves out the stack, unchanged resources before they are checked, and planned outputs", () => {
    expect(describeEngineEvent(event({ resourcePreEvent: { metadata: step("create", "pulumi:pulumi:Stack", "proj-dev") as any } }))).toBeUndefined();
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
    expect(
      describeEngineEvent(
        event({ summaryEvent: { maybeCorrupt: false, durationSeconds: 2.4, resourceChanges: { create: 3, same: 1, update: 0 }, policyPacks: {} } }),
      ),
    ).toBe("done in 2s: 3 created, 1 unchanged");
    expect(describeChanges({ create: 2, update: 1, same: 1 }, "planned")).toBe("2 to create, 1 to update, 1 unchanged");
  });
});
