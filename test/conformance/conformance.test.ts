import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type Emulator } from "../../emulator";
import { FULL_GRANT } from "../../emulator/runtask/access";
import { providerShim } from "../../sdk/shim";
import {
  createConsumerProject,
  dynamicProviderPlugin,
  Engine,
  type ConsumerProject,
  type ProgramSpec,
  type Registration,
  type Step,
} from "../../engine";

/**
 * The provider under the real dynamic-provider plugin, driven as `pulumi preview/up/refresh/destroy` drive it
 * (by the engine driver, engine/engine.ts), against the emulator. The scenarios run in order on one stack, as a
 * user's would.
 */

const CANARY = {
  snapshotToken: "canary-snapshot-token-5b1e",
  snapshotTokenNew: "canary-snapshot-token-rotated-77c2",
  runTaskToken: "canary-runtask-token-9d4f",
  runTaskTokenNew: "canary-runtask-token-rotated-31aa",
  hmacKey: "canary-hmac-key-0c3d",
  hmacKeyRotated: "canary-hmac-key-rotated-8e21",
  accessKeyId: "canary-access-key-id-4a7b",
  secretAccessKey: "canary-secret-access-key-2f90",
  sessionToken: "canary-session-token-6d15",
  serviceAccountKey: '{"type":"service_account","private_key":"canary-gcs-private-key-1e8c"}',
  accountKey: "canary-blob-account-key-93bd",
};
const canaries = () => Object.values(CANARY).flatMap((v) => [v, ...(v.includes('"') ? [JSON.stringify(v).slice(1, -1)] : [])]);

/** A run task token the service knows, with no permission in any organization: every object is a 404 to it. */
const BLIND_TOKEN = "token-that-sees-nothing";
/**
 * Every scenario runs twice: against a run task service answering as the spec's tables say (the emulator's
 * default), and as its samples show (`shapes: "samples"`: `enabled` a string, show without global settings, the
 * HMAC key read as `hmac_key`, associate answering with the association's document).
 */
describe.each(["tables", "samples"] as const)("a run task service answering as the spec's %s", (shapes) => {
  let fixture: ConsumerProject;
  let emulator: Emulator;
  let engine: Engine;
  let snapshotDir: string;

  const config = (snapshotToken = CANARY.snapshotToken, runTaskToken = CANARY.runTaskToken) => ({
    "snapshot:address": emulator.url,
    "snapshot:token": snapshotToken,
    "runtask:address": emulator.url,
    "runtask:token": runTaskToken,
    "runtask:organization": "acme",
  });

  beforeAll(async () => {
    fixture = createConsumerProject({ project: "conformance-fixture", stack: "conformance" });
    snapshotDir = mkdtempSync(join(tmpdir(), "conformance-snapshots-"));
    emulator = await startEmulator({
      snapshot: { tokens: { [CANARY.snapshotToken]: { sudo: true }, [CANARY.snapshotTokenNew]: { sudo: true } }, takeSnapshots: false },
      runTask: {
        shapes,
        tokens: { [CANARY.runTaskToken]: FULL_GRANT, [CANARY.runTaskTokenNew]: FULL_GRANT, [BLIND_TOKEN]: { organizations: [] } },
        organizations: [
          { name: "acme", globalRunTasks: true, workspaces: [{ name: "app-production" }, { name: "network" }] },
          { name: "beta", globalRunTasks: true, workspaces: [{ name: "other" }] },
        ],
      },
    });
    engine = new Engine({ plugin: dynamicProviderPlugin(fixture.dir), stateFile: join(fixture.dir, "state.json"), config: config() });
  });

  afterAll(async () => {
    await emulator?.close();
    fixture?.remove();
    rmSync(snapshotDir, { recursive: true, force: true });
  });

  const ws = (name: string, org = "acme") => emulator.runTask.workspace(name, org).id;

  /** The program of the scenarios; `change` edits it as a user would between runs. */
  function program(change: (spec: Required<ProgramSpec>) => void = () => undefined): Registration[] {
    const spec: Required<ProgramSpec> = {
      snapshots: [
        { resource: "daily", args: { interval: "12h", pathPrefix: snapshotDir, storageType: "local", localMaxSpace: 10_000_000 } },
        {
          resource: "offsite",
          args: {
            interval: 3600,
            pathPrefix: "backups",
            storageType: "cloudA-s3",
            cloudAS3Bucket: "b",
            cloudAS3Region: "r",
            cloudAAccessKeyId: CANARY.accessKeyId,
            cloudASecretAccessKey: CANARY.secretAccessKey,
            cloudASessionToken: CANARY.sessionToken,
          },
        },
        {
          resource: "gcs",
          args: {
            interval: 3600,
            pathPrefix: "p/",
            storageType: "cloudC-gcs",
            cloudCGcsBucket: "g",
            cloudCServiceAccountKey: CANARY.serviceAccountKey,
          },
        },
        {
          resource: "blob",
          args: { interval: 3600, pathPrefix: "p/", storageType: "cloudB-blob", cloudBContainerName: "c", cloudBAccountKey: CANARY.accountKey },
        },
      ],
      runTasks: [
        {
          resource: "scanner",
          args: {
            url: "https://hooks.example.com/scan",
            hmacKey: CANARY.hmacKey,
            global: { enabled: true, stages: ["pre_plan"], enforcementLevel: "advisory" },
          },
        },
        { resource: "audit", args: { url: "https://hooks.example.com/audit" } },
      ],
      attachments: [
        { resource: "attach", task: "scanner", args: { workspaceId: ws("app-production"), enforcementLevel: "advisory", stages: ["post_plan"] } },
      ],
      secretArgs: ["hmacKey", "cloudASecretAccessKey"],
    };
    change(spec);
    return fixture.capture(spec);
  }

  const ops = (steps: Step[]) => Object.fromEntries(steps.map((s) => [s.name, s.op]));
  const writesDuring = async (run: () => Promise<unknown>) => {
    emulator.requests.reset();
    await run();
    return emulator.requests.writes();
  };
  const snapshotArgs = (spec: Required<ProgramSpec>, name: string) => spec.snapshots.find((s) => s.resource === name)!.args;
  const taskArgs = (spec: Required<ProgramSpec>, name: string) => spec.runTasks.find((s) => s.resource === name)!.args;

  describe("the program, as the engine receives it", () => {
    test("type tokens, secret options, dependencies, and a small secret-free provider text", () => {
      const regs = program();
      const byName = Object.fromEntries(regs.map((r) => [r.name, r]));
      expect(byName.daily.type).toBe("pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig");
      expect(byName.scanner.type).toBe("pulumi-nodejs:dynamic/runtask:RunTask");
      expect(byName.attach.type).toBe("pulumi-nodejs:dynamic/runtask:WorkspaceRunTask");
      expect(byName.offsite.additionalSecretOutputs).toEqual(
        expect.arrayContaining(["cloudAAccessKeyId", "cloudASecretAccessKey", "cloudASessionToken", "cloudCServiceAccountKey", "cloudBAccountKey"]),
      );
      expect(byName.scanner.additionalSecretOutputs).toEqual(["hmacKey"]);
      expect(byName.attach.dependencies).toEqual([`urn:pulumi:conformance::conformance-fixture::pulumi-nodejs:dynamic/runtask:RunTask::scanner`]);
      for (const r of regs) {
        const text = r.inputs.__provider as string;
        expect(Buffer.byteLength(text)).toBeLessThan(2048);
        expect(text).toContain('require("pulumi-snapshot-runtask/shim/');
        for (const c of canaries()) expect(text).not.toContain(c);
      }
      // Credentials passed as plain strings are registered as secrets all the same.
      expect(byName.gcs.inputs.cloudCServiceAccountKey).toEqual({
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
        value: CANARY.serviceAccountKey,
      });
    });
  });

  describe("a stack's life", () => {
    test("preview of a fresh stack: everything to create, the unknown task id passes check, nothing written", async () => {
      let steps: Step[] = [];
      expect(await writesDuring(async () => (steps = await engine.preview(program())))).toBe(0);
      expect(ops(steps)).toEqual({
        daily: "create",
        offsite: "create",
        gcs: "create",
        blob: "create",
        scanner: "create",
        audit: "create",
        attach: "create",
      });
      expect(emulator.requests.total()).toBe(0);
    });

    test("up creates everything", async () => {
      const steps = await engine.up(program());
      expect(new Set(steps.map((s) => s.op))).toEqual(new Set(["create"]));
      const state = engine.state();
      expect(state.resources.map((r) => r.name).sort()).toEqual(["attach", "audit", "blob", "daily", "gcs", "offsite", "scanner"]);
      expect(state.get("daily")?.outputs).toMatchObject({ name: "daily", interval: 43200, retain: 1, filePrefix: "service-snapshot" });
      expect(state.get("scanner")?.id).toMatch(/^task-/);
      expect(state.get("attach")?.outputs).toMatchObject({ taskId: state.get("scanner")?.id, stages: ["post_plan"] });
      expect([...emulator.snapshot.configs.keys()].sort()).toEqual(["blob", "daily", "gcs", "offsite"]);
      expect(emulator.runTask.store.tasks.size).toBe(2);
      expect(emulator.runTask.store.workspaceTasks.size).toBe(1);
    });

    test("a second up with the same program changes nothing and writes nothing", async () => {
      let steps: Step[] = [];
      expect(await writesDuring(async () => (steps = await engine.up(program())))).toBe(0);
      expect(new Set(steps.map((s) => s.op))).toEqual(new Set(["same"]));
    });

    test.each<[string, (s: Required<ProgramSpec>) => void, string, number]>([
      ["interval 24h", (s) => (snapshotArgs(s, "daily").interval = "24h"), "daily", 1],
      ["interval 86400 (the same)", (s) => (snapshotArgs(s, "daily").interval = 86400), "daily", 0],
      ["retain", (s) => Object.assign(snapshotArgs(s, "daily"), { interval: 86400, retain: 3 }), "daily", 1],
      [
        "enabled",
        (s) => Object.assign(snapshotArgs(s, "daily"), { interval: 86400, retain: 3 }) && (taskArgs(s, "audit").enabled = false),
        "audit",
        1,
      ],
    ])("in-place update: %s", async (_label, change, name, writes) => {
      let steps: Step[] = [];
      expect(await writesDuring(async () => (steps = await engine.up(program(change))))).toBe(writes);
      expect(ops(steps)[name]).toBe(writes ? "update" : "same");
    });

    const settled = (s: Required<ProgramSpec>) => {
      Object.assign(snapshotArgs(s, "daily"), { interval: 86400, retain: 3 });
      taskArgs(s, "audit").enabled = false;
    };

    test("in-place updates of the association and the key: one write each", async () => {
      expect(await writesDuring(() => engine.up(program((s) => (settled(s), (s.attachments[0].args.enforcementLevel = "mandatory")))))).toBe(1);
      expect(
        await writesDuring(() =>
          engine.up(
            program((s) => (settled(s), Object.assign(s.attachments[0].args, { enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] }))),
          ),
        ),
      ).toBe(1);
      const withRotation = (s: Required<ProgramSpec>) => {
        settled(s);
        Object.assign(s.attachments[0].args, { enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] });
        taskArgs(s, "scanner").hmacKey = CANARY.hmacKeyRotated;
      };
      expect(await writesDuring(() => engine.up(program(withRotation)))).toBe(1);
      const scanner = engine.state().get("scanner")!;
      expect(emulator.runTask.store.tasks.get(scanner.id)?.hmacKey).toBe(CANARY.hmacKeyRotated);
      expect(scanner.secretOutputs).toContain("hmacKey");
      expect(emulator.runTask.store.workspaceTasks.get(engine.state().get("attach")!.id)).toMatchObject({
        enforcementLevel: "mandatory",
        stages: ["pre_plan", "post_plan"],
      });
    });

    const current = (s: Required<ProgramSpec>) => {
      settled(s);
      Object.assign(s.attachments[0].args, { enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] });
      taskArgs(s, "scanner").hmacKey = CANARY.hmacKeyRotated;
    };

    test("replacements: a new name, a new organization, a new workspace (create, then delete the old)", async () => {
      const old = engine.state();
      const oldAudit = old.get("audit")!.id;
      const oldAttach = old.get("attach")!.id;
      const steps = await engine.up(
        program((s) => {
          current(s);
          snapshotArgs(s, "daily").name = "daily-v2";
          taskArgs(s, "audit").organization = "beta";
          s.attachments[0].args.workspaceId = ws("network");
        }),
      );
      expect(ops(steps)).toMatchObject({ daily: "replace", audit: "replace", attach: "replace", scanner: "same" });
      expect([...emulator.snapshot.configs.keys()].sort()).toEqual(["blob", "daily-v2", "gcs", "offsite"]);
      expect(emulator.runTask.store.tasks.has(oldAudit)).toBe(false);
      expect(emulator.runTask.store.tasks.get(engine.state().get("audit")!.id)?.organization).toBe("beta");
      expect(emulator.runTask.store.workspaceTasks.has(oldAttach)).toBe(false);
      expect(emulator.runTask.store.workspaceTasks.get(engine.state().get("attach")!.id)?.workspaceId).toBe(ws("network"));
    });

    const final = (s: Required<ProgramSpec>) => {
      current(s);
      snapshotArgs(s, "daily").name = "daily-v2";
      taskArgs(s, "audit").organization = "beta";
      s.attachments[0].args.workspaceId = ws("network");
    };

    test("refresh shows drift and drops what was deleted outside Pulumi; the next up restores it", async () => {
      emulator.snapshot.configs.get("daily-v2")!.config.retain = 9;
      emulator.runTask.store.workspaceTasks.delete(engine.state().get("attach")!.id);
      const steps = await engine.refresh();
      // Shown as the CLI shows a refresh: the state's value, then the service's.
      expect(steps.find((s) => s.name === "daily")).toEqual({
        op: "refresh",
        name: "daily",
        detail: true,
        changes: [{ path: "retain", old: 3, new: 9 }],
      });
      expect(steps.find((s) => s.name === "attach")).toEqual({ op: "gone", name: "attach" });
      expect(steps.find((s) => s.name === "scanner")).toEqual({ op: "refresh", name: "scanner", detail: false, changes: [] });
      expect(engine.state().get("daily")?.outputs.retain).toBe(9);
      expect(engine.state().get("scanner")?.outputs.hmacKey).toBe(CANARY.hmacKeyRotated);
      expect(engine.state().get("attach")).toBeUndefined();

      const up = await engine.up(program(final));
      expect(ops(up)).toMatchObject({ daily: "update", attach: "create", scanner: "same" });
      expect(emulator.snapshot.configs.get("daily-v2")?.config.retain).toBe(3);
    });

    test("a state written by another provider text is read, updated and deleted correctly", async () => {
      // The form the serializer produces where the package is not under node_modules: methods stored by value.
      const older = await pulumi.runtime.serializeFunction(() => providerShim("snapshotAutoConfig"), { allowSecrets: true });
      const state = engine.state();
      const daily = state.get("daily")!;
      expect(daily.outputs.__provider).not.toBe(older.text);
      state.put({ ...daily, outputs: { ...daily.outputs, __provider: older.text }, inputs: { ...daily.inputs, __provider: older.text } });
      state.save();
      emulator.snapshot.configs.get("daily-v2")!.config.retain = 5;
      const refreshed = await engine.refresh();
      expect(refreshed.find((s) => s.name === "daily")?.detail).toBe(true);
      expect(await writesDuring(() => engine.up(program(final)))).toBe(1);
      expect(emulator.snapshot.configs.get("daily-v2")?.config.retain).toBe(3);
    });

    test("credentials changed in stack config between up and destroy: destroy uses the new ones", async () => {
      // Revoke the old tokens at the service, then point the stack at the new ones.
      delete (emulator.snapshot as any).tokens[CANARY.snapshotToken];
      delete (emulator.runTask as any).tokens[CANARY.runTaskToken];
      engine.setConfig(config(CANARY.snapshotTokenNew, CANARY.runTaskTokenNew));
      const steps = await engine.destroy();
      expect(steps.map((s) => s.op)).toEqual(Array(7).fill("delete"));
      expect(engine.state().resources).toEqual([]);
      expect(emulator.snapshot.configs.size).toBe(0);
      expect(emulator.runTask.store.tasks.size).toBe(0);
      expect(emulator.runTask.store.workspaceTasks.size).toBe(0);
    });

    test("a destroy after everything was deleted outside Pulumi still succeeds", async () => {
      await engine.up(program(final));
      emulator.snapshot.configs.clear();
      for (const id of [...emulator.runTask.store.tasks.keys()]) emulator.runTask.store.deleteTask(id);
      await expect(engine.destroy()).resolves.toHaveLength(7);
      expect(engine.state().resources).toEqual([]);
    });

    test("an error is reported with the call and the reason, and the stack is left consistent", async () => {
      await expect(engine.up(program((s) => (s.runTasks[0].args.organization = "nope")))).rejects.toThrow(
        /run task service: POST \/organizations\/nope\/tasks failed \(HTTP 404\): not found; organization "nope" answers 404 too/,
      );
      await expect(engine.up(program((s) => (s.attachments[0].args.stages = ["pre-apply"])))).rejects.toThrow(
        'attach: invalid arguments: stages[0]: "pre-apply" is not a stage: did you mean "pre_apply"? (stages use underscores)',
      );
      await engine.destroy();
    });
  });

  describe("what the run task spec allows a server to answer", () => {
    const tasksOnly = (change: (spec: Required<ProgramSpec>) => void = () => undefined) =>
      program((s) => {
        s.snapshots = [];
        change(s);
      });
    const scannerGlobal = () => emulator.runTask.store.tasks.get(engine.state().get("scanner")!.id)!.global;

    test("a token that sees nothing: refresh and destroy fail and keep both resources; the right token then destroys them", async () => {
      engine.setConfig(config(CANARY.snapshotTokenNew, CANARY.runTaskTokenNew));
      await engine.up(tasksOnly());
      engine.setConfig(config(CANARY.snapshotTokenNew, BLIND_TOKEN));
      await expect(engine.refresh()).rejects.toThrow(/or the token cannot see it .*Check runtask:token \/ RUNTASK_TOKEN/);
      expect(
        engine
          .state()
          .resources.map((r) => r.name)
          .sort(),
      ).toEqual(["attach", "audit", "scanner"]);
      await expect(engine.destroy()).rejects.toThrow(/the token cannot see (it|the workspace)/);
      expect(engine.state().get("attach")).toBeDefined();
      expect(emulator.runTask.store.workspaceTasks.size).toBe(1);
      expect(emulator.runTask.store.tasks.size).toBe(2);

      engine.setConfig(config(CANARY.snapshotTokenNew, CANARY.runTaskTokenNew));
      await engine.destroy();
      expect(engine.state().resources).toEqual([]);
      expect([emulator.runTask.store.tasks.size, emulator.runTask.store.workspaceTasks.size]).toEqual([0, 0]);
    });

    test("global removed from the program: one write turns it off; changed outside: refresh shows it, up reverts it", async () => {
      await engine.up(tasksOnly());
      expect(scannerGlobal()).toMatchObject({ enabled: true, stages: ["pre_plan"], enforcementLevel: "advisory" });
      const withoutGlobal = tasksOnly((s) => delete taskArgs(s, "scanner").global);
      expect(await writesDuring(() => engine.up(withoutGlobal))).toBe(1);
      expect(scannerGlobal().enabled).toBe(false);
      expect(ops(await engine.up(withoutGlobal))).toMatchObject({ scanner: "same" });

      Object.assign(scannerGlobal(), { enabled: true, enforcementLevel: "mandatory" });
      expect((await engine.refresh()).find((s) => s.name === "scanner")).toEqual({
        op: "refresh",
        name: "scanner",
        detail: true,
        changes: [
          {
            path: "global",
            old: { enabled: false, stages: ["pre_plan"], enforcementLevel: "advisory" },
            new: { enabled: true, stages: ["pre_plan"], enforcementLevel: "mandatory" },
          },
        ],
      });
      expect(engine.state().get("scanner")?.outputs.global).toMatchObject({ enabled: true, enforcementLevel: "mandatory" });
      expect(ops(await engine.up(withoutGlobal))).toMatchObject({ scanner: "update" });
      expect(scannerGlobal().enabled).toBe(false);
      await engine.destroy();
    });
  });

  describe("secrets", () => {
    test("no secret appears in plain text in provider texts, unmarked outputs, errors or the plugin's output", async () => {
      const leaks: string[] = [];
      const scan = (where: string, text: string) => {
        for (const c of canaries()) if (text.includes(c)) leaks.push(`${where}: ${c}`);
      };
      await engine.up(program());
      for (const r of engine.state().resources) {
        scan(`${r.name} __provider`, String(r.outputs.__provider));
        for (const [k, v] of Object.entries(r.outputs)) if (!r.secretOutputs.includes(k)) scan(`${r.name} output ${k}`, JSON.stringify(v));
        for (const [k, v] of Object.entries(r.inputs)) if (!r.secretInputs.includes(k)) scan(`${r.name} input ${k}`, JSON.stringify(v));
      }
      expect(engine.state().get("offsite")?.secretOutputs).toEqual(["cloudAAccessKeyId", "cloudASecretAccessKey", "cloudASessionToken"]);
      expect(engine.state().get("gcs")?.secretOutputs).toEqual(["cloudCServiceAccountKey"]);
      expect(engine.state().get("blob")?.secretOutputs).toEqual(["cloudBAccountKey"]);
      await engine.destroy();
      for (const e of engine.errors) scan("error", e);
      scan("plugin output", engine.pluginOutput);
      expect(leaks).toEqual([]);
      expect(engine.errors.length).toBeGreaterThan(0);
    });
  });

  // The plugin's start does not depend on the service's answers: once is enough.
  (shapes === "tables" ? describe : describe.skip)("start-up", () => {
    test("the plugin writes our compiled code to Node's compile cache, though the engine kills it rather than letting it exit", async () => {
      const tmp = mkdtempSync(join(tmpdir(), "compile-cache-"));
      /** Bytes of compiled code in the cache. */
      const cachedBytes = () => {
        const root = join(tmp, "node-compile-cache");
        if (!existsSync(root)) return 0;
        return readdirSync(root)
          .flatMap((v) => readdirSync(join(root, v)).map((f) => statSync(join(root, v, f)).size))
          .reduce((a, b) => a + b, 0);
      };
      try {
        // The default cache directory is under the temporary directory; nothing in the environment overrides it.
        const plugin = await dynamicProviderPlugin(fixture.dir, {
          env: { TMPDIR: tmp, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined },
        }).start();
        try {
          await plugin.client.configure(config());
          const [daily] = program().filter((r) => r.name === "daily");
          const { failures } = await plugin.client.check(daily.urn, {}, daily.inputs);
          expect(failures).toEqual([]);
          // Written once the check's work is done, before the engine could stop the plugin.
          await new Promise((resolve) => setTimeout(resolve, 200));
        } finally {
          await plugin.stop();
        }
        // The provider core is one bundle (zod within it), compiled to far more than 100 kB of code.
        expect(cachedBytes()).toBeGreaterThan(100_000);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  });
});
