import { join } from "node:path";
import { type EmulatorTask } from "../../emulator";
import { engineSuite } from "../support/engine/engineSuite";
import { EngineStack, type EngineRun } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { isEncryptedSecret, nameOf, packageResources, typeOf } from "../support/engine/stateFile";
import { Switchboard } from "../support/switchboard";

/**
 * Resource options and engine calls through the Pulumi CLI, against the emulator: `ignoreChanges`, `customTimeouts`,
 * explicit providers (settings unknown in a preview; one per organization), Ctrl-C in the middle of an `up` (the CLI
 * passes the engine's Cancel on to the plugins), the `import` option, and a function called with a secret argument.
 * Dynamic resources run in inline TypeScript programs, the provider plugins in YAML programs. After each step the
 * service holds exactly the objects the state file names, once each.
 */
jest.setTimeout(300_000);

const TOKEN = "full-token";
const ACME_ONLY = "acme-token";
const BETA_ONLY = "beta-token";
const SNAPSHOT_TOKEN = "snapshot-token";

const calls = new Switchboard();
const suite = engineSuite({
  calls,
  forgetBetweenTests: true,
  emulator: {
    snapshot: { tokens: { [SNAPSHOT_TOKEN]: { sudo: true } }, takeSnapshots: false },
    runTask: {
      tokens: {
        [TOKEN]: { owner: true },
        [ACME_ONLY]: { organizations: ["acme"], owner: true },
        [BETA_ONLY]: { organizations: ["beta"], owner: true },
      },
      organizations: [
        { name: "acme", workspaces: [{ name: "app" }] },
        { name: "beta", workspaces: [{ name: "web" }] },
      ],
    },
  },
});

const config = (extra: Record<string, string> = {}) => ({
  "runtask:address": suite.emulator.url,
  "runtask:token": TOKEN,
  "runtask:organization": "acme",
  "snapshot:address": suite.emulator.url,
  "snapshot:token": SNAPSHOT_TOKEN,
  ...extra,
});
const yamlStack = (projectName: string, extra: Record<string, string> = {}) => suite.stack("yaml", projectName, { config: config(extra) });
const inlineStack = (projectName: string, extra: Record<string, string> = {}) =>
  suite.stack("inline", projectName, {
    config: config(extra),
    // Node's compile cache for the program's and the dynamic provider's processes: each command starts faster.
    env: { NODE_COMPILE_CACHE: join(suite.project.dir, ".node-compile-cache") },
  });
const ops = (run: EngineRun) => Object.fromEntries(run.steps.filter((s) => !/^pulumi:/.test(typeOf(s.urn))).map((s) => [nameOf(s.urn), s.op]));
const stateOf = (stack: EngineStack, name: string) => packageResources(stack.state()).find((r) => nameOf(r.urn) === name);
const taskNamed = (name: string): EmulatorTask => suite.emulator.runTask.tasks().find((t) => t.name === name)!;
const writesDuring = async <T>(run: () => Promise<T>): Promise<[number, T]> => {
  suite.emulator.requests.reset();
  const result = await run();
  return [suite.emulator.requests.writes(), result];
};
const addConfig = (name: string) =>
  fetch(`${suite.emulator.url}/v1/sys/storage/raft/snapshot-auto/config/${name}`, {
    method: "POST",
    headers: { "x-service-token": SNAPSHOT_TOKEN, "content-type": "application/json" },
    body: JSON.stringify({ interval: 3600, path_prefix: "/tmp/engine-options", storage_type: "local", local_max_space: 1000 }),
  });

/** Every step the engine began for the resource `name`, in order (an import and the update that follows it). */
const stepsOf = (run: EngineRun, name: string) => run.steps.filter((s) => nameOf(s.urn) === name).map((s) => s.op);
/** How the engine shows a value unknown in a preview. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("ignoreChanges", () => {
  test("dynamic: the engine puts the state's inputs at ignored paths before the provider sees them (its plugin never gets ignoreChanges): a change of the program is no change, and a change made outside stays through a refresh and an update", async () => {
    const stack = inlineStack("ignore-dynamic");
    const scanner = (args: Record<string, unknown>, options: Record<string, unknown> = {}) => ({
      resources: [{ type: "RunTask", name: "scanner", args: { url: "https://hooks.example.com/scan", ...args }, options }],
    });
    stack.program(scanner({ enabled: true }));
    expect((await stack.up()).error).toBeUndefined();
    const task = () => taskNamed("scanner");

    stack.program(scanner({ enabled: false }, { ignoreChanges: ["enabled"] }));
    const [ignoredWrites, ignored] = await writesDuring(() => stack.up());
    expect([ignoredWrites, ops(ignored)]).toEqual([0, { scanner: "same" }]);
    expect(task().enabled).toBe(true);

    // Changed outside the program; the refresh records the service's value as the resource's input.
    suite.emulator.runTask.store.tasks.get(task().id)!.enabled = false;
    expect((await stack.refresh()).error).toBeUndefined();
    expect(stateOf(stack, "scanner")!.inputs).toMatchObject({ enabled: false });
    stack.program(scanner({ enabled: true, url: "https://hooks.example.com/moved" }, { ignoreChanges: ["enabled"] }));
    const moved = await stack.up();
    expect(ops(moved)).toEqual({ scanner: "update" });
    expect(task()).toMatchObject({ url: "https://hooks.example.com/moved", enabled: false });
    expectServiceMatchesState(suite.emulator, stack);

    // The control: without ignoreChanges the program's value would go back.
    stack.program(scanner({ enabled: true, url: "https://hooks.example.com/moved" }));
    expect(ops(await stack.preview())).toEqual({ scanner: "update" });
    stack.remove();
  });

  test("through both plugins, after a change made outside the program and a refresh: preview shows no change and up writes nothing; another change keeps the service's value; without ignoreChanges, up would put the program's back", async () => {
    const stack = yamlStack("ignore-plugins");
    const program = (options: { url?: string; ignore: boolean }) =>
      stack.yamlProgram(`resources:
  ignoring:
    type: runtask:index:RunTask
    properties:
      url: ${options.url ?? "https://hooks.example.com/scan"}
      enabled: true
${options.ignore ? "    options:\n      ignoreChanges: [enabled]\n" : ""}  retained:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      interval: 3600
      pathPrefix: /tmp/engine-options
      storageType: local
      localMaxSpace: 1000
      retain: 3
${options.ignore ? "    options:\n      ignoreChanges: [retain]\n" : ""}`);
    program({ ignore: false });
    expect((await stack.up()).error).toBeUndefined();
    suite.emulator.runTask.store.tasks.get(taskNamed("ignoring").id)!.enabled = false;
    suite.emulator.snapshot.configs.get("retained")!.config.retain = 5;
    expect((await stack.refresh()).error).toBeUndefined();
    // The refresh records the service's values as the resources' inputs, where the engine takes ignored values from.
    expect([stateOf(stack, "ignoring")!.inputs!.enabled, stateOf(stack, "retained")!.inputs!.retain]).toEqual([false, 5]);
    const outside = () => [taskNamed("ignoring").enabled, suite.emulator.snapshot.configs.get("retained")!.config.retain];

    program({ ignore: true });
    expect(ops(await stack.preview())).toEqual({ ignoring: "same", retained: "same" });
    const [writes, up] = await writesDuring(() => stack.up());
    expect([writes, ops(up)]).toEqual([0, { ignoring: "same", retained: "same" }]);
    expect(outside()).toEqual([false, 5]);

    program({ ignore: true, url: "https://hooks.example.com/moved" });
    expect(ops(await stack.up())).toEqual({ ignoring: "update", retained: "same" });
    expect(taskNamed("ignoring")).toMatchObject({ url: "https://hooks.example.com/moved", enabled: false });
    expect(outside()).toEqual([false, 5]);
    expectServiceMatchesState(suite.emulator, stack);

    program({ ignore: false, url: "https://hooks.example.com/moved" });
    expect(ops(await stack.preview())).toEqual({ ignoring: "update", retained: "update" });
    expect((await stack.destroy()).error).toBeUndefined();
    expectServiceMatchesState(suite.emulator, stack);
    stack.remove();
  });
});

test("two organizations with the dynamic resources: one token that sees both, each RunTask naming its organization", async () => {
  const stack = inlineStack("organizations-dynamic");
  stack.program({
    resources: [
      { type: "RunTask", name: "acme-scanner", args: { name: "scanner", url: "https://hooks.example.com/scan", organization: "acme" } },
      { type: "RunTask", name: "beta-scanner", args: { name: "scanner", url: "https://hooks.example.com/scan", organization: "beta" } },
    ],
  });
  expect((await stack.up()).error).toBeUndefined();
  expect(
    suite.emulator.runTask
      .tasks()
      .map((t) => `${t.organization}/${t.name}`)
      .sort(),
  ).toEqual(["acme/scanner", "beta/scanner"]);
  expect(stateOf(stack, "beta-scanner")!.outputs).toMatchObject({ organization: "beta", name: "scanner" });
  expectServiceMatchesState(suite.emulator, stack);
  const [writes, again] = await writesDuring(() => stack.up());
  expect([writes, again.changes]).toEqual([0, { same: 3 }]);
  stack.remove();
});

describe("the import option, through the plugins", () => {
  test("a SnapshotAutoConfig whose program gives no name, and a RunTask by <organization>/<task-name> with a change: imported, the change applied in the same up, then no replacement; an import the program would replace is refused", async () => {
    await addConfig("nightly");
    const legacy = suite.emulator.runTask.addTask("acme", { name: "legacy", url: "https://hooks.example.com/legacy" });
    const stack = yamlStack("importing");
    const program = `resources:
  nightly-config:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      interval: 3600
      pathPrefix: /tmp/engine-options
      storageType: local
      localMaxSpace: 1000
    options:
      import: nightly
  legacy:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/legacy
      enabled: false
    options:
      import: acme/legacy
`;
    stack.yamlProgram(program);
    const [previewWrites, previewed] = await writesDuring(() => stack.preview());
    expect(previewed.error).toBeUndefined();
    expect(previewWrites).toBe(0);
    expect([stepsOf(previewed, "nightly-config"), stepsOf(previewed, "legacy")]).toEqual([["import"], ["import", "update"]]);

    const [writes, imported] = await writesDuring(() => stack.up());
    expect(imported.error).toBeUndefined();
    expect([stepsOf(imported, "nightly-config"), stepsOf(imported, "legacy")]).toEqual([["import"], ["import", "update"]]);
    // One write: the task's PATCH. The configuration was read, not written.
    expect(writes).toBe(1);
    expect(stateOf(stack, "nightly-config")).toMatchObject({ id: "nightly", inputs: { name: "nightly" } });
    expect(stateOf(stack, "legacy")).toMatchObject({ id: legacy.id, inputs: { enabled: false } });
    expect(suite.emulator.runTask.store.tasks.get(legacy.id)!.enabled).toBe(false);
    expectServiceMatchesState(suite.emulator, stack);

    const [againWrites, again] = await writesDuring(() => stack.up());
    expect([againWrites, again.changes]).toEqual([0, { same: 3 }]);

    // Another configuration, which the program would import under a new name.
    await addConfig("weekly");
    stack.yamlProgram(`${program}  weekly:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      name: weekly-v2
      interval: 3600
      pathPrefix: /tmp/engine-options
      storageType: local
      localMaxSpace: 1000
    options:
      import: weekly
`);
    const [refusedWrites, refused] = await writesDuring(() => stack.up());
    expect(refused.ok).toBe(false);
    expect(refused.output).toMatch(/previously-imported resources that still specify an ID may not be replaced[^]*name: \{weekly\} => \{weekly-v2\}/);
    expect(refusedWrites).toBe(0);
    // The engine refuses the replacement after the import step: the configuration is recorded as it is on the service,
    // under its own name, and nothing was written; the next up refuses the same until the program drops `import`.
    expect(stepsOf(refused, "weekly")).toEqual(["import"]);
    expect(stateOf(stack, "weekly")).toMatchObject({ id: "weekly", inputs: { name: "weekly" }, outputs: { name: "weekly" } });
    expect(suite.emulator.snapshot.configs.get("weekly")?.config).toMatchObject({ interval: 3600, storage_type: "local" });
    expectServiceMatchesState(suite.emulator, stack);

    expect((await stack.destroy()).error).toBeUndefined();
    expect([suite.emulator.snapshot.configs.size, suite.emulator.runTask.tasks().length]).toEqual([0, 0]);
    stack.remove();
  });
});

describe("Ctrl-C in the middle of an up, through both plugins", () => {
  test("against a server that answers 503: the CLI passes Cancel on, the plugins stop at once, nothing is recorded, and the next up converges", async () => {
    const stack = yamlStack("cancelled", { "runtask:maxRetries": "50", "snapshot:maxRetries": "50" });
    stack.yamlProgram(`resources:
  cancelled-task:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/scan
  cancelled-config:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      interval: 3600
      pathPrefix: /tmp/engine-options
      storageType: local
      localMaxSpace: 1000
`);
    calls.answers.push((req, key) =>
      /^(POST|GET) \/(api\/v2|v1)\//.test(`${req.method} ${key}`) ? { status: 503, body: { errors: ["unavailable"] } } : undefined,
    );
    suite.emulator.requests.reset();
    const running = stack.start("up");
    // Both creates are under way, their requests answered 503 and tried again.
    const began = (prefix: string) => suite.emulator.requests.entries.some((e) => e.path.startsWith(prefix));
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && !(began("/api/v2") && began("/v1"));) await sleep(50);
    await sleep(500);
    const interruptedAt = Date.now();
    await running.interruptCli();
    // Without the Cancel the plugins would try 50 times, minutes long: past 15 s the CLI is killed and the test fails.
    let timer: NodeJS.Timeout | undefined;
    const cancelled = await Promise.race([running.done, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 15_000)))]);
    clearTimeout(timer);
    if (!cancelled) await running.killCli(100);
    if (!cancelled) throw new Error("the up went on for 15 s after Ctrl-C");
    const endedAfter = Date.now() - interruptedAt;
    expect(cancelled.ok).toBe(false);
    expect(cancelled.output).toContain("^C received; cancelling.");
    // Each plugin's requests were cut short by the engine's Cancel, not after 50 retries.
    expect(cancelled.output).toMatch(
      /cancelled-task \*\*creating failed\*\* error: run task service: .*cancelled: the engine asked the provider to stop/,
    );
    expect(cancelled.output).toMatch(
      /cancelled-config \*\*creating failed\*\* error: snapshot service: .*cancelled: the engine asked the provider to stop/,
    );
    expect(endedAfter).toBeLessThan(5_000);
    // Nothing recorded: no resource, no pending operation; nothing made.
    expect(packageResources(stack.state())).toEqual([]);
    expect(stack.state().pendingOperations).toEqual([]);
    expectServiceMatchesState(suite.emulator, stack);

    calls.reset();
    const converged = await stack.up();
    expect(converged.error).toBeUndefined();
    expect(ops(converged)).toEqual({ "cancelled-task": "create", "cancelled-config": "create" });
    expectServiceMatchesState(suite.emulator, stack);
    expect((await stack.up()).changes).toEqual({ same: 3 });
    expect((await stack.destroy()).error).toBeUndefined();
    expectServiceMatchesState(suite.emulator, stack);
    stack.remove();
  });
});

describe("customTimeouts", () => {
  test("through both plugins: a create of 2s against a server that does not answer fails after about 2 s, naming the timeout", async () => {
    const stack = yamlStack("timeouts", { "runtask:operationTimeout": "30s", "snapshot:operationTimeout": "30s" });
    stack.yamlProgram(`resources:
  slow-task:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/slow
    options:
      customTimeouts:
        create: 2s
  slow-config:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      interval: 3600
      pathPrefix: /tmp/engine-options
      storageType: local
      localMaxSpace: 1000
    options:
      customTimeouts:
        create: 2s
`);
    calls.answers.push(calls.hang("POST /api/v2/organizations/:org/tasks"), calls.hang("GET /v1/sys/storage/raft/snapshot-auto/config/:name"));
    const started = Date.now();
    const slow = await stack.up();
    const elapsed = Date.now() - started;
    expect(slow.ok).toBe(false);
    expect(slow.output).toMatch(/slow-task \*\*creating failed\*\* error: run task service: .*time bound of 2s \(customTimeouts\.create\)/);
    expect(slow.output).toMatch(/slow-config \*\*creating failed\*\* error: snapshot service: .*time bound of 2s \(customTimeouts\.create\)/);
    // The CLI's own start and stop take a few seconds around the bound; the operationTimeout setting is 30 s.
    expect(elapsed).toBeGreaterThan(2_000);
    expect(elapsed).toBeLessThan(15_000);
    calls.reset();
    expect(packageResources(stack.state())).toEqual([]);
    expectServiceMatchesState(suite.emulator, stack);
    stack.remove();
  });

  test("do not reach a dynamic provider: a create against a server that does not answer ends at the operationTimeout setting", async () => {
    const stack = inlineStack("timeouts-dynamic", { "runtask:operationTimeout": "3s" });
    stack.program({
      resources: [{ type: "RunTask", name: "slow", args: { url: "https://hooks.example.com/slow" }, options: { customTimeouts: { create: "1s" } } }],
    });
    calls.answers.push(calls.hang("POST /api/v2/organizations/:org/tasks"));
    const slow = await stack.up();
    expect(slow.ok).toBe(false);
    expect(slow.output).toMatch(/slow \*\*creating failed\*\* error: run task service: .*time bound of 3s/);
    expect(slow.output).not.toContain("customTimeouts");
    calls.reset();
    expect(packageResources(stack.state())).toEqual([]);
    expectServiceMatchesState(suite.emulator, stack);
    stack.remove();
  });
});

test("explicit providers: settings unknown in the preview show creates and send nothing; at up each provider is configured with its own address, organization and token; every token is encrypted in the state file", async () => {
  // The stack config holds the default run task provider's token in plain text, and no snapshot token.
  const stack = suite.stack("yaml", "explicit", {
    config: { "runtask:address": suite.emulator.url, "runtask:token": TOKEN, "runtask:organization": "acme" },
    secretKeys: [],
  });
  stack.yamlProgram(`resources:
  # A task of the default provider, whose id is known only once it is made: the addresses below that select the
  # emulator's beside it are unknown in the preview.
  seed:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/seed
  acme:
    type: pulumi:providers:runtask
    properties:
      address:
        fn::select:
          - 0
          - - ${suite.emulator.url}
            - \${seed.taskId}
      token: ${ACME_ONLY}
      organization: acme
  beta:
    type: pulumi:providers:runtask
    properties:
      address: ${suite.emulator.url}
      token: ${BETA_ONLY}
      organization: beta
  vault:
    type: pulumi:providers:snapshot
    properties:
      address:
        fn::select:
          - 0
          - - ${suite.emulator.url}
            - \${seed.taskId}
      token: ${SNAPSHOT_TOKEN}
  in-acme:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/scan
    options:
      provider: \${acme}
  in-beta:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/scan
    options:
      provider: \${beta}
  computed-config:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      interval: 3600
      pathPrefix: /tmp/engine-options
      storageType: local
      localMaxSpace: 1000
    options:
      provider: \${vault}
`);
  suite.emulator.requests.reset();
  const previewed = await stack.preview();
  expect(previewed.error).toBeUndefined();
  expect(ops(previewed)).toEqual({ seed: "create", "in-acme": "create", "in-beta": "create", "computed-config": "create" });
  // What the preview planned for each provider: acme's and vault's addresses unknown.
  const planned = await stack.cli(["preview", "--json"]);
  const providers = (JSON.parse(planned.stdout).steps as { urn: string; newState?: { inputs?: Record<string, unknown> } }[])
    .filter((p) => typeOf(p.urn).startsWith("pulumi:providers:"))
    .map((p) => [nameOf(p.urn), p.newState?.inputs?.address]);
  expect(Object.fromEntries(providers)).toEqual({ acme: UNKNOWN, beta: suite.emulator.url, vault: UNKNOWN });
  expect(suite.emulator.requests.total()).toBe(0);

  const up = await stack.up();
  expect(up.error).toBeUndefined();
  expect(ops(up)).toEqual({ seed: "create", "in-acme": "create", "in-beta": "create", "computed-config": "create" });
  expect(
    suite.emulator.runTask
      .tasks()
      .map((t) => `${t.organization}/${t.name}`)
      .sort(),
  ).toEqual(["acme/in-acme", "acme/seed", "beta/in-beta"]);
  expect([...suite.emulator.snapshot.configs.keys()]).toEqual(["computed-config"]);
  expectServiceMatchesState(suite.emulator, stack);
  // The engine records each provider's settings; the plugins mark the token secret, the stack config's plain one too.
  const state = stack.state();
  const tokens = state.resources
    .filter((r) => typeOf(r.urn).startsWith("pulumi:providers:"))
    .map((r) => [nameOf(r.urn), isEncryptedSecret(r.inputs?.token)]);
  expect(Object.fromEntries(tokens)).toEqual({ default: true, acme: true, beta: true, vault: true });
  for (const token of [TOKEN, ACME_ONLY, BETA_ONLY, SNAPSHOT_TOKEN]) expect(state.text).not.toContain(token);

  const [writes, again] = await writesDuring(() => stack.preview());
  expect([writes, ops(again)]).toEqual([0, { seed: "same", "in-acme": "same", "in-beta": "same", "computed-config": "same" }]);
  expect((await stack.destroy()).error).toBeUndefined();
  expectServiceMatchesState(suite.emulator, stack);
  stack.remove();
});

// The YAML host (as the Node.js and Go SDKs do) sends a secret argument as a plain value and marks the result secret
// itself: the plugin's own marking of such a result is checked over gRPC (plugin/nativeConformance).
test("a secret argument makes a function's result secret: in the state file and in what the CLI prints", async () => {
  suite.emulator.runTask.addTask("acme", { name: "secretly", url: "https://hooks.example.com/secretly" });
  const stack = yamlStack("function-secrets");
  stack.yamlProgram(`variables:
  plain:
    fn::invoke:
      function: runtask:index:getRunTask
      arguments:
        name: secretly
  hidden:
    fn::invoke:
      function: runtask:index:getRunTask
      arguments:
        name:
          fn::secret: secretly
outputs:
  plainName: \${plain.name}
  plainUrl: \${plain.url}
  hiddenName: \${hidden.name}
  hiddenUrl: \${hidden.url}
`);
  const up = await stack.up();
  expect(up.error).toBeUndefined();
  expect(up.output).toMatch(/hiddenName: \[secret\]/);
  expect(up.output).toMatch(/hiddenUrl\s*: \[secret\]/);
  expect(up.output).toMatch(/plainUrl\s*: "https:\/\/hooks\.example\.com\/secretly"/);
  const state = stack.state();
  const outputs = state.resources.find((r) => r.type === "pulumi:pulumi:Stack")!.outputs!;
  expect([outputs.plainName, outputs.plainUrl]).toEqual(["secretly", "https://hooks.example.com/secretly"]);
  expect([isEncryptedSecret(outputs.hiddenName), isEncryptedSecret(outputs.hiddenUrl)]).toEqual([true, true]);
  // The URL is in the file once: the plain result's.
  expect(state.text.split("https://hooks.example.com/secretly")).toHaveLength(2);
  stack.remove();
});
