import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type Emulator } from "../../emulator";
import { providerShim } from "../../sdk/shim";
import { FULL_GRANT } from "../../emulator/runtask/access";
import type { ConsumerProject } from "../../toolchain/consumerProject";
import { EngineStack, engineProject, opsByName, type EngineRun, type ProgramSpec } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { isEncryptedSecret, nameOf, type StateResource } from "../support/engine/stateFile";

/**
 * A stack of the three dynamic resources through the Pulumi engine (an inline Automation API program, the SDK's
 * dynamic provider plugin), against the emulator: its life in order, as a user's goes, twice: against services
 * answering to the spec's letter (its tables, associate 204 with no body, an unknown token 404, snapshot POST and LIST
 * only: `letterOfSpec`) and against a run task service answering as the spec's samples show (`enabled` a string, show
 * without global settings, the HMAC key read as `hmac_key`, associate answering with a document), there with
 * organizations whose relationship id is not their name, on the emulator's defaults otherwise (as the real services
 * answer). After each step the service holds exactly the objects the state names.
 */
jest.setTimeout(600_000);

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
const SECRET_KEYS = ["snapshot:token", "runtask:token"];

/** The program's parts, each resource's arguments, which a step edits as a user edits the program. */
interface Parts {
  snapshots: Record<"daily" | "offsite" | "gcs" | "blob", Record<string, unknown>>;
  tasks: Record<"scanner" | "audit", Record<string, unknown>>;
  attach: Record<string, unknown>;
}

let project: ConsumerProject;

beforeAll(() => {
  project = engineProject();
});

afterAll(() => project?.remove());

describe.each(["tables", "samples"] as const)("a run task service answering as the spec's %s", (shapes) => {
  let emulator: Emulator;
  let stack: EngineStack;
  let snapshotDir: string;
  const outputs: string[] = [];

  const config = (snapshotToken = CANARY.snapshotToken, runTaskToken = CANARY.runTaskToken) => ({
    "snapshot:address": emulator.url,
    "snapshot:token": snapshotToken,
    "runtask:address": emulator.url,
    "runtask:token": runTaskToken,
    "runtask:organization": "acme",
  });

  beforeAll(async () => {
    snapshotDir = mkdtempSync(join(tmpdir(), "dynamic-stack-snapshots-"));
    emulator = await startEmulator({
      letterOfSpec: shapes === "tables",
      snapshot: { tokens: { [CANARY.snapshotToken]: { sudo: true }, [CANARY.snapshotTokenNew]: { sudo: true } }, takeSnapshots: false },
      runTask: {
        shapes,
        // Under the samples, organizations are known by an id of their own besides their name (the spec's relationship
        // gives the id): a refresh keeps the name in `organization`, so the unchanged program replaces nothing.
        organizationIds: shapes === "samples" ? "opaque" : "name",
        tokens: { [CANARY.runTaskToken]: FULL_GRANT, [CANARY.runTaskTokenNew]: FULL_GRANT, [BLIND_TOKEN]: { organizations: [] } },
        organizations: [
          { name: "acme", globalRunTasks: true, workspaces: [{ name: "app-production" }, { name: "network" }] },
          { name: "beta", globalRunTasks: true, workspaces: [{ name: "other" }] },
        ],
      },
    });
    stack = EngineStack.inline({ project, projectName: `dynamic-${shapes}`, config: config(), secretKeys: SECRET_KEYS });
  });

  afterAll(async () => {
    stack?.remove();
    await emulator?.close();
    rmSync(snapshotDir, { recursive: true, force: true });
  });

  const ws = (name: string, org = "acme") => emulator.runTask.workspace(name, org).id;

  function program(change: (parts: Parts) => void = () => undefined): ProgramSpec {
    const parts: Parts = {
      snapshots: {
        daily: { interval: "12h", pathPrefix: snapshotDir, storageType: "local", localMaxSpace: 10_000_000 },
        offsite: {
          interval: 3600,
          pathPrefix: "backups",
          storageType: "cloudA-s3",
          cloudAS3Bucket: "b",
          cloudAS3Region: "r",
          cloudAAccessKeyId: CANARY.accessKeyId,
          cloudASecretAccessKey: CANARY.secretAccessKey,
          cloudASessionToken: CANARY.sessionToken,
        },
        gcs: { interval: 3600, pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "g", cloudCServiceAccountKey: CANARY.serviceAccountKey },
        blob: { interval: 3600, pathPrefix: "p/", storageType: "cloudB-blob", cloudBContainerName: "c", cloudBAccountKey: CANARY.accountKey },
      },
      tasks: {
        scanner: {
          url: "https://hooks.example.com/scan",
          hmacKey: CANARY.hmacKey,
          global: { enabled: true, stages: ["pre_plan"], enforcementLevel: "advisory" },
        },
        audit: { url: "https://hooks.example.com/audit" },
      },
      attach: { workspaceId: ws("app-production"), enforcementLevel: "advisory", stages: ["post_plan"] },
    };
    change(parts);
    return {
      resources: [
        ...Object.entries(parts.snapshots).map(([name, args]) => ({ type: "SnapshotAutoConfig", name, args, secretArgs: ["cloudASecretAccessKey"] })),
        ...Object.entries(parts.tasks).map(([name, args]) => ({ type: "RunTask", name, args, secretArgs: ["hmacKey"] })),
        { type: "WorkspaceRunTask", name: "attach", args: { ...parts.attach, taskId: { $ref: "scanner" } } },
      ],
    };
  }

  /** Runs `command` with `spec` as the program, keeping what the CLI printed; fails on an engine error unless `fails`. */
  async function run(
    command: "up" | "preview" | "refresh" | "destroy",
    spec?: ProgramSpec,
    fails = false,
    options: Record<string, unknown> = {},
  ): Promise<EngineRun> {
    if (spec) stack.program(spec);
    const result = await stack[command](options);
    outputs.push(result.output);
    if (!fails) expect(result.error).toBeUndefined();
    return result;
  }

  async function writesDuring(command: () => Promise<unknown>): Promise<number> {
    emulator.requests.reset();
    await command();
    return emulator.requests.writes();
  }

  const resource = (name: string): StateResource => stack.state().resources.find((r) => nameOf(r.urn) === name)!;

  // Each step's program from here on: what the steps before made of it.
  const settled = (p: Parts) => {
    Object.assign(p.snapshots.daily, { interval: 86400, retain: 3 });
    p.tasks.audit.enabled = false;
  };
  const current = (p: Parts) => {
    settled(p);
    Object.assign(p.attach, { enforcementLevel: "mandatory", stages: ["pre_plan", "post_plan"] });
    p.tasks.scanner.hmacKey = CANARY.hmacKeyRotated;
  };
  const final = (p: Parts) => {
    current(p);
    p.snapshots.daily.name = "daily-v2";
    p.tasks.audit.organization = "beta";
    p.attach.workspaceId = ws("network");
  };

  test("preview of a fresh stack: everything to create, the unknown task id passes check, nothing written", async () => {
    const preview = await run("preview", program());
    expect(opsByName(preview)).toEqual({
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

  test("up creates everything; the state holds the dynamic types, the secret outputs, the dependency and a small secret-free provider text", async () => {
    const up = await run("up", program());
    expect(up.changes).toEqual({ create: 8 });
    expect(resource("daily").type).toBe("pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig");
    expect(resource("scanner").type).toBe("pulumi-nodejs:dynamic/runtask:RunTask");
    expect(resource("attach").type).toBe("pulumi-nodejs:dynamic/runtask:WorkspaceRunTask");
    expect(resource("daily").outputs).toMatchObject({ name: "daily", interval: 43200, retain: 1, filePrefix: "service-snapshot" });
    expect(resource("scanner").id).toMatch(/^task-/);
    expect(resource("attach").outputs).toMatchObject({ taskId: resource("scanner").id, stages: ["post_plan"] });
    expect((resource("attach") as StateResource & { dependencies: string[] }).dependencies).toEqual([resource("scanner").urn]);
    for (const name of ["offsite", "gcs", "blob"]) {
      expect((resource(name) as StateResource & { additionalSecretOutputs: string[] }).additionalSecretOutputs).toEqual(
        expect.arrayContaining(["cloudAAccessKeyId", "cloudASecretAccessKey", "cloudASessionToken", "cloudCServiceAccountKey", "cloudBAccountKey"]),
      );
    }
    // Credentials passed as plain strings are kept encrypted all the same.
    expect(isEncryptedSecret(resource("gcs").outputs?.cloudCServiceAccountKey)).toBe(true);
    expect(isEncryptedSecret(resource("scanner").outputs?.hmacKey)).toBe(true);
    for (const r of stack.state().resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))) {
      const text = String(r.outputs?.__provider);
      expect(Buffer.byteLength(text)).toBeLessThan(2048);
      expect(text).toContain('require("pulumi-snapshot-runtask/shim/');
    }
    expect([...emulator.snapshot.configs.keys()].sort()).toEqual(["blob", "daily", "gcs", "offsite"]);
    expect([emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length]).toEqual([2, 1]);
    expectServiceMatchesState(emulator, stack);
  });

  test("a second up with the same program changes nothing and writes nothing", async () => {
    let up: EngineRun | undefined;
    expect(await writesDuring(async () => (up = await run("up", program())))).toBe(0);
    expect(up!.changes).toEqual({ same: 8 });
  });

  test.each<[string, (p: Parts) => void, string, number]>([
    ["interval 24h", (p) => (p.snapshots.daily.interval = "24h"), "daily", 1],
    ["interval 86400 (the same)", (p) => (p.snapshots.daily.interval = 86400), "daily", 0],
    ["retain", (p) => Object.assign(p.snapshots.daily, { interval: 86400, retain: 3 }), "daily", 1],
    ["enabled", settled, "audit", 1],
  ])("in-place update: %s", async (_label, change, name, writes) => {
    let up: EngineRun | undefined;
    expect(await writesDuring(async () => (up = await run("up", program(change))))).toBe(writes);
    expect(opsByName(up!)[name]).toBe(writes ? "update" : "same");
    expectServiceMatchesState(emulator, stack);
  });

  test("in-place updates of the association and the key: one write each", async () => {
    const attach = (level: string, stages: string[]) => (p: Parts) => (settled(p), Object.assign(p.attach, { enforcementLevel: level, stages }));
    expect(await writesDuring(() => run("up", program(attach("mandatory", ["post_plan"]))))).toBe(1);
    expect(await writesDuring(() => run("up", program(attach("mandatory", ["pre_plan", "post_plan"]))))).toBe(1);
    expect(await writesDuring(() => run("up", program(current)))).toBe(1);
    expect(emulator.runTask.store.tasks.get(resource("scanner").id!)?.hmacKey).toBe(CANARY.hmacKeyRotated);
    expect(isEncryptedSecret(resource("scanner").outputs?.hmacKey)).toBe(true);
    expect(emulator.runTask.store.workspaceTasks.get(resource("attach").id!)).toMatchObject({
      enforcementLevel: "mandatory",
      stages: ["pre_plan", "post_plan"],
    });
    expectServiceMatchesState(emulator, stack);
  });

  test("replacements: a new name, a new organization, a new workspace (create, then delete the old)", async () => {
    const oldAudit = resource("audit").id!;
    const oldAttach = resource("attach").id!;
    const up = await run("up", program(final));
    expect(opsByName(up)).toMatchObject({ daily: "replace", audit: "replace", attach: "replace", scanner: "same" });
    expect([...emulator.snapshot.configs.keys()].sort()).toEqual(["blob", "daily-v2", "gcs", "offsite"]);
    expect(emulator.runTask.store.tasks.has(oldAudit)).toBe(false);
    expect(emulator.runTask.store.tasks.get(resource("audit").id!)?.organization).toBe("beta");
    expect(emulator.runTask.store.workspaceTasks.has(oldAttach)).toBe(false);
    expect(emulator.runTask.store.workspaceTasks.get(resource("attach").id!)?.workspaceId).toBe(ws("network"));
    expectServiceMatchesState(emulator, stack);
  });

  test("refresh shows drift and drops what was deleted outside Pulumi, a credential removed there included; the next up restores it", async () => {
    emulator.snapshot.configs.get("daily-v2")!.config.retain = 9;
    emulator.runTask.store.workspaceTasks.delete(resource("attach").id!);
    // The service shows credentials (the spec's read shape); one is removed there, as its POST with "" removes it.
    (emulator.snapshot.configs.get("offsite")!.config as Record<string, unknown>).cloudA_session_token = "";
    const refreshed = await run("refresh");
    expect(refreshed.changes).toMatchObject({ update: 2, delete: 1 });
    expect(refreshed.output).toMatch(/SnapshotAutoConfig daily updated .*\[diff: ~retain\]/);
    expect(refreshed.output).toMatch(/WorkspaceRunTask attach deleted/);
    expect(resource("daily").outputs?.retain).toBe(9);
    expect(resource("attach")).toBeUndefined();
    expect(resource("offsite").outputs).not.toHaveProperty("cloudASessionToken");
    expect(isEncryptedSecret(resource("offsite").outputs?.cloudASecretAccessKey)).toBe(true);
    // The write-only key stays the state's.
    expect(isEncryptedSecret(resource("scanner").outputs?.hmacKey)).toBe(true);
    expectServiceMatchesState(emulator, stack);

    const up = await run("up", program(final));
    expect(opsByName(up)).toMatchObject({ daily: "update", offsite: "update", attach: "create", scanner: "same" });
    expect(emulator.snapshot.configs.get("daily-v2")?.config.retain).toBe(3);
    expect(emulator.snapshot.configs.get("offsite")?.config).toMatchObject({ cloudA_session_token: CANARY.sessionToken });
    expectServiceMatchesState(emulator, stack);
  });

  test("a state whose provider text is another one (an older version's) is read, updated and deleted by the installed version", async () => {
    const exported = await stack.cli(["stack", "export"]);
    const deployment = JSON.parse(exported.stdout);
    const daily = deployment.deployment.resources.find((r: StateResource) => nameOf(r.urn) === "daily");
    // The form the serializer writes where the package is linked from outside node_modules: methods stored by value.
    const older = (await pulumi.runtime.serializeFunction(() => providerShim("snapshotAutoConfig"), { allowSecrets: true })).text;
    expect(daily.outputs.__provider).not.toBe(older);
    daily.outputs.__provider = older;
    daily.inputs.__provider = older;
    const file = join(stack.work, "older-provider-text.json");
    writeFileSync(file, JSON.stringify(deployment));
    expect((await stack.cli(["stack", "import", "--file", file])).code).toBe(0);
    emulator.snapshot.configs.get("daily-v2")!.config.retain = 5;
    const refreshed = await run("refresh");
    expect(refreshed.output).toMatch(/SnapshotAutoConfig daily updated .*\[diff: ~retain\]/);
    expect(await writesDuring(() => run("up", program(final)))).toBe(1);
    expect(emulator.snapshot.configs.get("daily-v2")?.config.retain).toBe(3);
  });

  test("credentials changed in stack config: a destroy uses the settings the last up recorded, unless it runs the program", async () => {
    // Revoke the old tokens at the service, then point the stack at the new ones.
    delete (emulator.snapshot as unknown as { tokens: Record<string, unknown> }).tokens[CANARY.snapshotToken];
    delete (emulator.runTask as unknown as { tokens: Record<string, unknown> }).tokens[CANARY.runTaskToken];
    stack.setConfig(config(CANARY.snapshotTokenNew, CANARY.runTaskTokenNew));
    // The engine configures the providers of a destroy from the state, where the last up recorded the old tokens.
    const refused = await run("destroy", undefined, true);
    // A revoked token: to the spec's letter a 404, which proves nothing gone; as the real service answers, a 401.
    expect(refused.output).toMatch(
      shapes === "tables" ? /the token cannot see the workspace, or the workspace was deleted/ : /HTTP 401\): unauthorized; the token is not valid/,
    );
    expectServiceMatchesState(emulator, stack);
    const destroyed = await run("destroy", undefined, false, { runProgram: true });
    expect(destroyed.changes).toMatchObject({ delete: expect.any(Number) });
    expect(stack.state().resources).toEqual([]);
    expect([emulator.snapshot.configs.size, emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length]).toEqual([0, 0, 0]);
  });

  test("a destroy after everything was deleted outside Pulumi still succeeds", async () => {
    await run("up", program(final));
    emulator.snapshot.configs.clear();
    for (const id of [...emulator.runTask.store.tasks.keys()]) emulator.runTask.store.deleteTask(id);
    expect((await run("destroy")).changes).toEqual({ delete: 8 });
    expect(stack.state().resources).toEqual([]);
  });

  test("an error is reported with the call and the reason, and the stack is left consistent", async () => {
    const missing = await run(
      "up",
      program((p) => (p.tasks.scanner.organization = "nope")),
      true,
    );
    expect(missing.output).toMatch(
      /run task service: POST \/organizations\/nope\/tasks failed \(HTTP 404\): not found; organization "nope" answers 404 too/,
    );
    expectServiceMatchesState(emulator, stack);
    const invalid = await run(
      "up",
      program((p) => (p.attach.stages = ["pre-apply"])),
      true,
    );
    expect(invalid.output).toMatch(
      /WorkspaceRunTask resource 'attach': property stages\[0\] .*"pre-apply" is not a stage: did you mean "pre_apply"\? \(stages use underscores\)/,
    );
    // A nested property: the engine prints no value beside it (`value {<nil>}`), so the message carries the one refused.
    const nested = await run(
      "up",
      program((p) => (p.tasks.scanner.global = { enabled: true, stages: ["pre_plan", "preplan"], enforcementLevel: "advisory" })),
      true,
    );
    expect(nested.output).toMatch(
      /RunTask resource 'scanner': property global\.stages\[1\] value \{<nil>\} has a problem: must be one of .*, got "preplan"/,
    );
    expectServiceMatchesState(emulator, stack);
    await run("destroy");
    expectServiceMatchesState(emulator, stack);
  });

  describe("what the run task spec allows a server to answer", () => {
    const tasksOnly = (change: (p: Parts) => void = () => undefined) => {
      const spec = program(change);
      return { resources: spec.resources.filter((r) => r.type !== "SnapshotAutoConfig") };
    };
    const scannerGlobal = () => emulator.runTask.store.tasks.get(resource("scanner").id!)!.global;

    test("a token that sees nothing: refresh and destroy fail and keep both resources; the right token then destroys them", async () => {
      await run("up", tasksOnly());
      stack.setConfig(config(CANARY.snapshotTokenNew, BLIND_TOKEN));
      // Run with the program, so that the providers take the stack's settings now, not those the up recorded.
      const refreshed = await run("refresh", undefined, true, { runProgram: true });
      expect(refreshed.output).toMatch(/or the token cannot see it .*Check runtask:token \/ RUNTASK_TOKEN/);
      expect(
        stack
          .state()
          .resources.filter((r) => r.custom && !r.type.startsWith("pulumi:"))
          .map((r) => nameOf(r.urn))
          .sort(),
      ).toEqual(["attach", "audit", "scanner"]);
      const destroyed = await run("destroy", undefined, true, { runProgram: true });
      expect(destroyed.output).toMatch(/the token cannot see (it|the workspace)/);
      expect(resource("attach")).toBeDefined();
      expect([emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length]).toEqual([2, 1]);
      expectServiceMatchesState(emulator, stack);

      stack.setConfig(config(CANARY.snapshotTokenNew, CANARY.runTaskTokenNew));
      await run("destroy", undefined, false, { runProgram: true });
      expect(stack.state().resources).toEqual([]);
      expect([emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length]).toEqual([0, 0]);
    });

    test("global removed from the program: one write turns it off; changed outside: refresh shows it, up reverts it", async () => {
      await run("up", tasksOnly());
      expect(scannerGlobal()).toMatchObject({ enabled: true, stages: ["pre_plan"], enforcementLevel: "advisory" });
      const withoutGlobal = tasksOnly((p) => delete p.tasks.scanner.global);
      expect(await writesDuring(() => run("up", withoutGlobal))).toBe(1);
      expect(scannerGlobal().enabled).toBe(false);
      expect(opsByName(await run("up", withoutGlobal))).toMatchObject({ scanner: "same" });

      Object.assign(scannerGlobal(), { enabled: true, enforcementLevel: "mandatory" });
      const refreshed = await run("refresh");
      // The program leaves global out, so the refreshed inputs add it.
      expect(refreshed.output).toMatch(/RunTask scanner updated .*\[diff: \+global\]/);
      expect(resource("scanner").outputs?.global).toMatchObject({ enabled: true, enforcementLevel: "mandatory" });
      expect(opsByName(await run("up", withoutGlobal))).toMatchObject({ scanner: "update" });
      expect(scannerGlobal().enabled).toBe(false);
      await run("destroy");
      expectServiceMatchesState(emulator, stack);
    });
  });

  test("no secret appears in plain text in the state file, or anything the CLI printed", async () => {
    await run("up", program());
    await run("destroy");
    const leaks: string[] = [];
    for (const [where, text] of [["state", stack.state().text], ...outputs.map((o, i) => [`command ${i + 1}`, o])]) {
      for (const c of canaries()) if (text.includes(c)) leaks.push(`${where}: ${c}`);
    }
    expect(leaks).toEqual([]);
    // The steps above included failures, whose messages are in what the CLI printed.
    expect(outputs.some((o) => /error:/.test(o))).toBe(true);
  });
});

test("the dynamic provider plugin writes our compiled code to Node's compile cache, though the engine kills it rather than letting it exit", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "compile-cache-"));
  const cachedBytes = () => {
    const root = join(tmp, "node-compile-cache");
    if (!existsSync(root)) return 0;
    return readdirSync(root)
      .flatMap((v) => readdirSync(join(root, v)).map((f) => statSync(join(root, v, f)).size))
      .reduce((a, b) => a + b, 0);
  };
  // The default cache folder is under the temporary folder; nothing in the environment overrides it. A preview's
  // Check sends nothing, so the settings need name no service that answers.
  const stack = EngineStack.inline({
    project,
    projectName: "compile-cache",
    config: { "snapshot:address": "http://127.0.0.1:9", "snapshot:token": "unused" },
    secretKeys: ["snapshot:token"],
    env: { TMPDIR: tmp, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined },
  });
  try {
    stack.program({
      resources: [{ type: "SnapshotAutoConfig", name: "daily", args: { interval: "12h", pathPrefix: "/x", storageType: "local", localMaxSpace: 1 } }],
    });
    expect((await stack.preview()).error).toBeUndefined();
    // The provider core is one bundle (zod within it), compiled to far more than 100 kB of code.
    expect(cachedBytes()).toBeGreaterThan(100_000);
  } finally {
    stack.remove();
    rmSync(tmp, { recursive: true, force: true });
  }
});
