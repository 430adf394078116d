import { readFileSync } from "node:fs";
import { join } from "node:path";
import { schemaText } from "../../plugin/schema/load";
import { startEmulator, DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN, type Emulator } from "../../emulator";
import { createConsumerProject, type ConsumerProject } from "../../toolchain/consumerProject";
import { reveal, secret, secretKeys, UNKNOWN } from "../support/plugin/pluginClient";
import { nativeProviderLaunch, startNativeProviderPlugin, type NativeProviderPlugin } from "../support/plugin/pluginProcess";

/**
 * The provider plugins driven over gRPC as the engine drives them, from a consumer project where the packed
 * package is installed: `pulumi-resource-runtask` and `pulumi-resource-snapshot` are started with the engine's
 * address as their argument, print only their port, and go through the calls of preview, up, a no-op up, an
 * update, a replacement, a refresh with drift, an import by id alone, and destroy, against the emulator.
 */
type Props = Record<string, any>;

const CANARIES = {
  runTaskToken: "canary-runtask-token-4b1d",
  snapshotToken: "canary-snapshot-token-77aa",
  hmacKey: "canary-hmac-key-9c0e",
  accessKey: "canary-secret-access-key-3f2a",
};
/**
 * Every scenario runs twice: against services answering to the spec's letter (its tables, associate 204 with no body,
 * an unknown token 404, snapshot POST and LIST only: `letterOfSpec`), and against a run task service answering as the
 * spec's samples show (`shapes: "samples"`), on the emulator's defaults otherwise (as the real services answer).
 */
describe.each(["tables", "samples"] as const)("a run task service answering as the spec's %s", (shapes) => {
  let project: ConsumerProject;
  let emulator: Emulator;
  const plugins: NativeProviderPlugin[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    project = createConsumerProject({ name: "native-conformance" });
    emulator = await startEmulator({
      letterOfSpec: shapes === "tables",
      runTask: { shapes, tokens: { [CANARIES.runTaskToken]: { owner: true }, [DEFAULT_RUNTASK_TOKEN]: { organizations: [] } } },
      snapshot: { tokens: { [CANARIES.snapshotToken]: { sudo: true }, [DEFAULT_SNAPSHOT_TOKEN]: { sudo: true } }, takeSnapshots: false },
    });
  });

  afterAll(async () => {
    for (const p of plugins) await p.stop();
    await emulator?.close();
    project?.remove();
  });

  async function start(name: "runtask" | "snapshot"): Promise<NativeProviderPlugin> {
    const plugin = await startNativeProviderPlugin(project.dir, name, { RUNTASK_TOKEN: undefined, SERVICE_TOKEN: undefined });
    plugins.push(plugin);
    return plugin;
  }

  const urn = (type: string, name: string) => `urn:pulumi:dev::native-conformance::${type}::${name}`;
  const TASK = urn("runtask:index:RunTask", "scanner");
  const ASSOC = urn("runtask:index:WorkspaceRunTask", "scanner-on-network");
  const CONFIG = urn("snapshot:index:SnapshotAutoConfig", "nightly");

  /** Check, failing the test on check failures, as the engine stops on them. */
  /** Invokes a function, keeping its answer for the schema check and its error for the secret scan. */
  async function invoke(plugin: NativeProviderPlugin, token: string, args: Props): Promise<Props> {
    return keep(token, "function", await recording(plugin.client.invoke(token, args)));
  }

  async function checked(plugin: NativeProviderPlugin, target: string, olds: Props, news: Props): Promise<Props> {
    const { inputs, failures } = await plugin.client.check(target, olds, news);
    expect(failures).toEqual([]);
    return inputs;
  }

  /** What the plugins answered, by resource or function token, for the check against their schemas. */
  const returned: { token: string; kind: "resource" | "function"; value: Props }[] = [];

  /** Keeps what a resource (named by its URN) or a function (by its token) answered. */
  function keep<T extends { outputs?: Props } | Props>(target: string, kind: "resource" | "function", answer: T): T {
    const token = target.startsWith("urn:") ? target.split("::")[2] : target;
    returned.push({ token, kind, value: (kind === "resource" ? (answer as { outputs?: Props }).outputs : answer) as Props });
    return answer;
  }

  /** Where `value` does not have the schema's type `spec` (properties undeclared, values of another type). */
  function mismatches(schema: any, spec: any, value: unknown, path: string): string[] {
    const plain = (value as Props | null)?.["4dabf18193072939515e22adb298388d"] ? (value as Props).value : value;
    if (spec.$ref) {
      const type = schema.types[spec.$ref.replace("#/types/", "")];
      return objectMismatches(schema, type.properties, plain, path);
    }
    if (spec.oneOf) return spec.oneOf.some((s: any) => mismatches(schema, s, plain, path).length === 0) ? [] : [`${path}: none of oneOf`];
    switch (spec.type) {
      case "string":
        return typeof plain === "string" ? [] : [`${path}: not a string`];
      case "integer":
        return Number.isInteger(plain) ? [] : [`${path}: not an integer`];
      case "boolean":
        return typeof plain === "boolean" ? [] : [`${path}: not a boolean`];
      case "array":
        return Array.isArray(plain) ? plain.flatMap((v, i) => mismatches(schema, spec.items, v, `${path}[${i}]`)) : [`${path}: not a list`];
      default:
        return [`${path}: no type in the schema`];
    }
  }

  function objectMismatches(schema: any, properties: Record<string, any>, value: unknown, path: string): string[] {
    if (value === null || typeof value !== "object") return [`${path}: not an object`];
    // A key that begins with `__` is the provider's own, which the engine keeps and never shows (its
    // `IsInternalPropertyKey`), as bridged providers keep `__meta`: what the state knows of a service's reads
    // (`__hiddenCredentials`). It is an internal key, not a property of the schema's.
    return Object.entries(value).flatMap(([k, v]) =>
      properties[k]
        ? mismatches(schema, properties[k], v, `${path}.${k}`)
        : k.startsWith("__") && path.split(".").length === 1
          ? []
          : [`${path}.${k}: not declared`],
    );
  }

  /** Records an error's message for the secret scan, and rethrows it. */
  async function recording<T>(promise: Promise<T>): Promise<T> {
    try {
      return await promise;
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
      throw err;
    }
  }

  describe("pulumi-resource-runtask", () => {
    let plugin: NativeProviderPlugin;
    const config = () => ({ address: emulator.url, token: secret(CANARIES.runTaskToken), organization: "emulator-org" });
    const workspace = (name: string) => emulator.runTask.workspace(name).id;
    const state: Record<string, { id: string; inputs: Props; outputs: Props }> = {};

    beforeAll(async () => {
      plugin = await start("runtask");
    });

    test("the executable is the installed package's bin, with the engine's address as its argument", () => {
      const { spec } = nativeProviderLaunch(project.dir, "runtask");
      expect(spec.args[0]).toBe(join(project.dir, "node_modules/pulumi-snapshot-runtask/dist/plugin/bin/runtask.js"));
      expect(spec.args[1]).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(spec.cwd).toBe(project.dir);
    });

    test("starts as the engine starts it: the port alone on stdout, then the schema and version", async () => {
      expect(plugin.process.output).toBe("");
      const schema = await plugin.client.schema();
      expect(schema.name).toBe("runtask");
      expect(Object.keys(schema.resources as object)).toEqual(["runtask:index:RunTask", "runtask:index:WorkspaceRunTask"]);
      // The version the schema and every SDK carry (their pulumi-plugin.json asks the engine for it): package.json's.
      const { version } = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8"));
      expect([await plugin.client.pluginInfo(), JSON.parse(schemaText("runtask")).version]).toEqual([version, version]);
    });

    test("CheckConfig names the bad key with the dynamic provider's message; DiffConfig replaces nothing", async () => {
      expect(await plugin.client.checkConfig({ address: "runs.example.com", maxRetries: "many", token: "t" })).toEqual([
        {
          property: "address",
          reason: 'runtask:address: "runs.example.com" has no http:// or https:// scheme; write it as e.g. https://runs.example.com',
        },
        { property: "maxRetries", reason: 'runtask:maxRetries: expected a whole number, got "many"' },
      ]);
      expect(await plugin.client.checkConfig(reveal(config()))).toEqual([]);
      expect(await plugin.client.diffConfig({ address: "https://a.example" }, { address: "https://b.example" })).toEqual({
        changes: "some",
        replaces: [],
      });
      expect(await plugin.client.configure(config())).toEqual({ acceptSecrets: true, supportsPreview: false });
    });

    test("preview: unknown inputs pass check, diff shows a change, and nothing is sent", async () => {
      emulator.requests.reset();
      const task = await checked(plugin, TASK, {}, { url: "https://hooks.example.com/scan", hmacKey: CANARIES.hmacKey });
      expect(reveal(task)).toEqual({
        name: "scanner",
        organization: "emulator-org",
        url: "https://hooks.example.com/scan",
        category: "task",
        enabled: true,
        hmacKey: CANARIES.hmacKey,
      });
      expect(secretKeys(task)).toEqual(["hmacKey"]);
      const assoc = await checked(plugin, ASSOC, {}, { workspaceId: workspace("network"), taskId: UNKNOWN, enforcementLevel: "advisory" });
      expect(assoc.taskId).toBe(UNKNOWN);
      const olds = {
        workspaceId: workspace("network"),
        taskId: "task-x",
        enforcementLevel: "advisory",
        stages: ["post_plan"],
        workspaceTaskId: "wstask-x",
      };
      expect(await plugin.client.diff(ASSOC, `${workspace("network")}/wstask-x`, olds, assoc)).toMatchObject({
        changes: "some",
        replaces: ["taskId"],
        detailed: { taskId: "UPDATE_REPLACE" },
      });
      expect(emulator.requests.total()).toBe(0);
    });

    test("up: the task and its association are created; the key comes back secret", async () => {
      const taskInputs = await checked(plugin, TASK, {}, { url: "https://hooks.example.com/scan", hmacKey: CANARIES.hmacKey });
      const task = keep(TASK, "resource", await recording(plugin.client.create(TASK, taskInputs)));
      expect(task.id).toMatch(/^task-/);
      expect(secretKeys(task.outputs)).toEqual(["hmacKey"]);
      state.task = { id: task.id, inputs: taskInputs, outputs: task.outputs };
      const assocInputs = await checked(plugin, ASSOC, {}, { workspaceId: workspace("network"), taskId: task.id, enforcementLevel: "advisory" });
      const assoc = keep(ASSOC, "resource", await recording(plugin.client.create(ASSOC, assocInputs)));
      expect(assoc.id).toMatch(new RegExp(`^${workspace("network")}/wstask-`));
      state.assoc = { id: assoc.id, inputs: assocInputs, outputs: assoc.outputs };
      expect(emulator.runTask.tasks()).toEqual([expect.objectContaining({ id: task.id, hmacKey: CANARIES.hmacKey })]);
      expect(emulator.runTask.workspaceTasks()).toHaveLength(1);
    });

    test("a no-op up: check and diff answer no change, and nothing is sent", async () => {
      emulator.requests.reset();
      const news = await checked(plugin, TASK, state.task.inputs, { url: "https://hooks.example.com/scan", hmacKey: CANARIES.hmacKey });
      expect(await plugin.client.diff(TASK, state.task.id, state.task.outputs, news)).toMatchObject({ changes: "none", replaces: [], detailed: {} });
      const assocNews = await checked(plugin, ASSOC, state.assoc.inputs, {
        workspaceId: workspace("network"),
        taskId: state.task.id,
        enforcementLevel: "advisory",
      });
      expect((await plugin.client.diff(ASSOC, state.assoc.id, state.assoc.outputs, assocNews)).changes).toBe("none");
      expect(emulator.requests.total()).toBe(0);
    });

    test("update: a detailed diff, one write in place", async () => {
      const news = await checked(plugin, ASSOC, state.assoc.inputs, {
        workspaceId: workspace("network"),
        taskId: state.task.id,
        enforcementLevel: "mandatory",
      });
      expect(await plugin.client.diff(ASSOC, state.assoc.id, state.assoc.outputs, news)).toEqual({
        changes: "some",
        replaces: [],
        diffs: ["enforcementLevel"],
        detailed: { enforcementLevel: "UPDATE" },
        hasDetailedDiff: true,
        deleteBeforeReplace: true,
        inputDiff: [],
      });
      emulator.requests.reset();
      const outputs = await recording(plugin.client.update(ASSOC, state.assoc.id, state.assoc.outputs, news));
      expect(outputs.enforcementLevel).toBe("mandatory");
      expect(emulator.requests.byRoute()).toEqual({ "PATCH /api/v2/workspaces/:ws/tasks/:id": 1 });
      state.assoc = { ...state.assoc, inputs: news, outputs };
    });

    test("replace: a new workspace creates the new association before the old one is deleted", async () => {
      await plugin.client.configure(config()); // a new command
      const news = await checked(plugin, ASSOC, state.assoc.inputs, {
        workspaceId: workspace("app-production"),
        taskId: state.task.id,
        enforcementLevel: "mandatory",
      });
      expect(await plugin.client.diff(ASSOC, state.assoc.id, state.assoc.outputs, news)).toMatchObject({
        replaces: ["workspaceId"],
        detailed: { workspaceId: "UPDATE_REPLACE" },
      });
      const created = await recording(plugin.client.create(ASSOC, news));
      await recording(plugin.client.delete(ASSOC, state.assoc.id, state.assoc.outputs));
      state.assoc = { id: created.id, inputs: news, outputs: created.outputs };
      expect(emulator.runTask.workspaceTasks().map((w) => w.workspaceId)).toEqual([workspace("app-production")]);
    });

    test("refresh with drift: outputs and inputs show the service's value, the write-only key stays the state's, secrets stay marked", async () => {
      emulator.runTask.store.tasks.get(state.task.id)!.url = "https://changed.example";
      const read = await recording(plugin.client.read(TASK, state.task.id, state.task.outputs, state.task.inputs));
      expect(read.id).toBe(state.task.id);
      expect(read.outputs.url).toBe("https://changed.example");
      expect(reveal(read.inputs!)).toEqual({ ...reveal(state.task.inputs), url: "https://changed.example", global: { enabled: false } });
      expect(secretKeys(read.outputs)).toEqual(["hmacKey"]);
      expect(secretKeys(read.inputs!)).toEqual(["hmacKey"]);
      // The next preview: the program's url against the service's, compared with the state's outputs (not inputs).
      expect(await plugin.client.diff(TASK, state.task.id, read.outputs, state.task.inputs, read.inputs)).toMatchObject({
        detailed: { url: "UPDATE" },
        inputDiff: [],
      });
    });

    test("import from an id alone: check passes on the inputs read, and the diff is none", async () => {
      const existing = emulator.runTask.addTask("emulator-org", {
        name: "legacy-scan",
        url: "https://legacy.example/hook",
        description: "made by hand",
        enabled: false,
      });
      const wt = emulator.runTask.addWorkspaceTask(workspace("network"), existing.id, {
        enforcementLevel: "mandatory",
        stages: ["pre_plan", "post_plan"],
      });
      const imports: [string, string][] = [
        [urn("runtask:index:RunTask", "legacy-scan"), existing.id],
        [urn("runtask:index:WorkspaceRunTask", "legacy-on-network"), `${workspace("network")}/${wt.id}`],
      ];
      for (const [target, id] of imports) {
        const read = keep(target, "resource", await recording(plugin.client.read(target, id)));
        expect(read.id).toBe(id);
        const inputs = await checked(plugin, target, read.inputs!, read.inputs!);
        expect(await plugin.client.diff(target, id, read.outputs, inputs)).toMatchObject({ changes: "none" });
      }
      const task = await plugin.client.read(imports[0][0], existing.id);
      expect(task.inputs).toEqual({
        organization: "emulator-org",
        name: "legacy-scan",
        url: "https://legacy.example/hook",
        description: "made by hand",
        category: "task",
        enabled: false,
        global: { enabled: false },
      });
      expect(task.inputs).not.toHaveProperty("hmacKey");
      expect((await plugin.client.read(imports[1][0], imports[1][1])).inputs).toEqual({
        workspaceId: workspace("network"),
        taskId: existing.id,
        enforcementLevel: "mandatory",
        stages: ["pre_plan", "post_plan"],
      });
      await expect(plugin.client.read(imports[0][0], "task-doesnotexist")).resolves.toMatchObject({ id: "" });

      // The key is write-only, so an imported task has none: adding it later is an update in place that sends it.
      const withKey = await checked(plugin, imports[0][0], task.inputs!, { ...task.inputs, hmacKey: CANARIES.hmacKey });
      expect(await plugin.client.diff(imports[0][0], existing.id, task.outputs, withKey)).toMatchObject({
        replaces: [],
        detailed: { hmacKey: "ADD" },
      });
      const updated = await recording(plugin.client.update(imports[0][0], existing.id, task.outputs, withKey));
      expect(secretKeys(updated)).toEqual(["hmacKey"]);
      expect(emulator.runTask.store.tasks.get(existing.id)?.hmacKey).toBe(CANARIES.hmacKey);
    });

    test("invoke: the six functions' run task half", async () => {
      const byId = await invoke(plugin, "runtask:index:getRunTask", { id: state.task.id });
      expect(byId).toMatchObject({ id: state.task.id, name: "scanner" });
      expect(await plugin.client.invoke("runtask:index:getRunTask", { name: "scanner" })).toEqual(byId);
      // A secret argument makes the whole result secret, for a caller that sends it marked (the SDKs send it plain).
      const bySecretName = await plugin.client.invoke("runtask:index:getRunTask", { name: secret("scanner") });
      expect([bySecretName.name, bySecretName.id]).toEqual([secret("scanner"), secret(state.task.id)]);
      expect(
        ((await invoke(plugin, "runtask:index:listRunTasks", { include: ["workspace_tasks"] })).tasks as Props[]).map((t) => t.name).sort(),
      ).toEqual(["legacy-scan", "scanner"]);
      const ws = workspace("app-production");
      expect(await invoke(plugin, "runtask:index:getWorkspaceRunTask", { workspaceId: ws, taskId: state.task.id })).toMatchObject({
        workspaceId: ws,
        enforcementLevel: "mandatory",
        stage: expect.stringMatching(/^(pre|post)_(plan|apply)$/),
      });
      expect((await invoke(plugin, "runtask:index:listWorkspaceRunTasks", { workspaceId: ws })).workspaceRunTasks).toHaveLength(1);
    });

    test("destroy: the association, then the task; a token that sees nothing fails with advice and deletes nothing", async () => {
      await plugin.client.configure({ ...config(), token: secret(DEFAULT_RUNTASK_TOKEN) });
      await expect(recording(plugin.client.delete(TASK, state.task.id, state.task.outputs))).rejects.toThrow(/or the token cannot see it/);
      await plugin.client.configure(config());
      await recording(plugin.client.delete(ASSOC, state.assoc.id, state.assoc.outputs));
      await recording(plugin.client.delete(TASK, state.task.id, state.task.outputs));
      expect(emulator.runTask.tasks().map((t) => t.name)).toEqual(["legacy-scan"]);
    });

    test("closed as the engine closes it: it exits 0 at once", async () => {
      const { code, ms } = await plugin.stop();
      expect(code).toBe(0);
      expect(ms).toBeLessThan(5_000);
    });
  });

  describe("pulumi-resource-snapshot", () => {
    let plugin: NativeProviderPlugin;

    beforeAll(async () => {
      plugin = await start("snapshot");
      await plugin.client.configure({ address: emulator.url, token: secret(CANARIES.snapshotToken) });
    });

    test("CheckConfig refuses a namespace other than the root one, naming the key", async () => {
      expect(await plugin.client.checkConfig({ namespace: "team-a" })).toEqual([
        { property: "namespace", reason: expect.stringContaining('snapshot namespace is "team-a"') },
      ]);
    });

    test("preview, up, no-op, update, refresh and delete of a configuration named after its resource", async () => {
      const program = {
        interval: "24h",
        storageType: "cloudA-s3",
        pathPrefix: "nightly/",
        cloudAS3Bucket: "b",
        cloudAS3Region: "r",
        cloudASecretAccessKey: CANARIES.accessKey,
      };
      const preview = await checked(plugin, CONFIG, {}, { ...program, interval: UNKNOWN });
      expect(preview).toMatchObject({ name: "nightly", interval: UNKNOWN });
      const inputs = await checked(plugin, CONFIG, {}, program);
      expect(secretKeys(inputs)).toEqual(["cloudASecretAccessKey"]);
      const { id, outputs } = keep(CONFIG, "resource", await recording(plugin.client.create(CONFIG, inputs)));
      expect([id, outputs.interval, secretKeys(outputs)]).toEqual(["nightly", 86400, ["cloudASecretAccessKey"]]);
      expect((await plugin.client.diff(CONFIG, id, outputs, await checked(plugin, CONFIG, inputs, program))).changes).toBe("none");
      const retained = await checked(plugin, CONFIG, inputs, { ...program, retain: 7 });
      expect((await plugin.client.diff(CONFIG, id, outputs, retained)).detailed).toEqual({ retain: "UPDATE" });
      const updated = await recording(plugin.client.update(CONFIG, id, outputs, retained));
      expect(emulator.snapshot.configs.get("nightly")?.config.retain).toBe(7);
      const refreshed = await recording(plugin.client.read(CONFIG, id, updated, retained));
      expect(secretKeys(refreshed.outputs)).toEqual(["cloudASecretAccessKey"]);
      await plugin.client.configure({ address: emulator.url, token: secret(CANARIES.snapshotToken) }); // destroy, a new command
      await recording(plugin.client.delete(CONFIG, id, refreshed.outputs));
      expect(emulator.snapshot.configs.has("nightly")).toBe(false);
    });

    test("import of an existing configuration by name: credentials come back secret, check passes, the diff is none", async () => {
      const res = await fetch(`${emulator.url}/v1/sys/storage/raft/snapshot-auto/config/hourly`, {
        method: "POST",
        headers: { "x-service-token": CANARIES.snapshotToken },
        body: JSON.stringify({
          interval: 3600,
          path_prefix: "h/",
          storage_type: "cloudA-s3",
          cloudA_s3_bucket: "b",
          cloudA_s3_region: "r",
          cloudA_secret_access_key: CANARIES.accessKey,
        }),
      });
      expect(res.status).toBe(204);
      const target = urn("snapshot:index:SnapshotAutoConfig", "hourly");
      const read = keep(target, "resource", await recording(plugin.client.read(target, "hourly")));
      expect(secretKeys(read.outputs)).toEqual(["cloudASecretAccessKey"]);
      expect(secretKeys(read.inputs!)).toEqual(["cloudASecretAccessKey"]);
      const inputs = await checked(plugin, target, read.inputs!, read.inputs!);
      expect(await plugin.client.diff(target, "hourly", read.outputs, inputs)).toMatchObject({ changes: "none" });
      expect(await invoke(plugin, "snapshot:index:listSnapshotAutoConfigs", {})).toEqual({ names: ["hourly"] });
      expect(await invoke(plugin, "snapshot:index:getSnapshotStatus", { name: "hourly" })).toMatchObject({ lastSnapshotError: "" });
    });

    test("every property the plugins returned is declared in their schema, with a value of its type", async () => {
      // GetSchema answers these files of the installed package (test/plugin/schema.test.ts checks they are current).
      const schemas: Record<string, any> = { runtask: JSON.parse(schemaText("runtask")), snapshot: await plugin.client.schema() };
      expect(new Set(returned.map((r) => r.token)).size).toBeGreaterThanOrEqual(9);
      const wrong = returned.flatMap(({ token, kind, value }) => {
        const schema = schemas[token.split(":")[0]];
        const properties = kind === "resource" ? schema.resources[token].properties : schema.functions[token].outputs.properties;
        return objectMismatches(schema, properties, value, token);
      });
      expect(wrong).toEqual([]);
    });

    test("no secret in anything the plugins printed or answered as an error", async () => {
      const everything = [...plugins.map((p) => p.process.output), ...errors].join("\n");
      for (const canary of Object.values(CANARIES)) expect(everything).not.toContain(canary);
      expect(errors.length).toBeGreaterThan(0);
    });
  });
});
