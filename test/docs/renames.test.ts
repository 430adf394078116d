import { engineSuite, scenarioEmulator } from "../support/engine/engineSuite";
import { EngineStack, type EngineRun, type ResourceSpec } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";
import { nameOf, packageResources } from "../support/engine/stateFile";

/**
 * What a rename of a resource does, through the Pulumi engine against the emulator, as README.md and
 * docs/behaviour.md ("Renames") say: with and without `aliases`, with and without `name`, for the dynamic resources
 * (TypeScript) and the provider plugins (YAML); and two resources of one name, told so. After each step the service
 * holds exactly the objects the state names.
 */

jest.setTimeout(300_000);
const suite = engineSuite({ emulator: scenarioEmulator(["app"]) });
const timings: string[] = [];

afterAll(() => {
  console.log(timings.join("\n"));
});

/** Each package resource's step, by resource name. */
const opsOf = (run: EngineRun) =>
  Object.fromEntries(run.steps.filter((s) => /(SnapshotAutoConfig|RunTask)::/.test(s.urn)).map((s) => [nameOf(s.urn), s.op]));

async function timed(label: string, step: Promise<EngineRun>): Promise<EngineRun> {
  const started = Date.now();
  const run = await step;
  timings.push(`${label}: ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return run;
}

const configNames = () => [...suite.emulator.snapshot.configs.keys()].sort();
const tasks = () => suite.emulator.runTask.tasks().map((t) => [t.name, t.id]);

describe("dynamic resources (TypeScript)", () => {
  let stack: EngineStack;
  const local = { interval: "24h", storageType: "local", pathPrefix: "/var/snapshots", localMaxSpace: 1000 };
  const ws = () => suite.emulator.runTask.workspace("app", "acme").id;
  /** The program: two configurations and two tasks, one of each with `name`, and an association of the named task. */
  const program = (names: { nightly: string; weekly: string; scanner: string; auditor: string }, aliases: boolean, extra: ResourceSpec[] = []) => ({
    resources: [
      { type: "SnapshotAutoConfig", name: names.nightly, args: local, options: aliases ? { aliases: [{ name: "nightly" }] } : {} },
      {
        type: "SnapshotAutoConfig",
        name: names.weekly,
        args: { ...local, name: "weekly" },
        options: aliases ? { aliases: [{ name: "weekly" }] } : {},
      },
      {
        type: "RunTask",
        name: names.scanner,
        args: { url: "https://hooks.example.com/scan" },
        options: aliases ? { aliases: [{ name: "scanner" }] } : {},
      },
      {
        type: "RunTask",
        name: names.auditor,
        args: { url: "https://hooks.example.com/audit", name: "auditor" },
        options: aliases ? { aliases: [{ name: "auditor" }] } : {},
      },
      {
        type: "WorkspaceRunTask",
        name: "auditor-on-app",
        args: { workspaceId: ws(), taskId: { $ref: names.auditor }, enforcementLevel: "advisory" },
      },
      ...extra,
    ],
  });
  const first = { nightly: "nightly", weekly: "weekly", scanner: "scanner", auditor: "auditor" };
  const renamed = { nightly: "nightly-renamed", weekly: "weekly-renamed", scanner: "scanner-renamed", auditor: "auditor-renamed" };

  beforeAll(async () => {
    stack = suite.stack("inline", "renames");
    const up = await timed("dynamic: create", stack.program(program(first, false)).up());
    expect(up.ok).toBe(true);
  });

  test("with aliases, with or without `name`: nothing changes; the objects keep the names they have, as through the provider plugins", async () => {
    const before = tasks();
    suite.emulator.requests.reset();
    const up = await timed("dynamic: rename with aliases", stack.program(program(renamed, true)).up());
    expect(up.ok).toBe(true);
    expect(opsOf(up)).toMatchObject({
      "nightly-renamed": "same",
      "weekly-renamed": "same",
      "scanner-renamed": "same",
      "auditor-renamed": "same",
      "auditor-on-app": "same",
    });
    expect(suite.emulator.requests.writes()).toBe(0);
    expect(configNames()).toEqual(["nightly", "weekly"]);
    expect(tasks()).toEqual(before);
    // The state keeps the names the objects have.
    expect(packageResources(stack.state()).map((r) => [nameOf(r.urn), r.outputs?.name])).toEqual(
      expect.arrayContaining([
        ["nightly-renamed", "nightly"],
        ["scanner-renamed", "scanner"],
      ]),
    );
    expectServiceMatchesState(suite.emulator, stack);
  });

  test("without aliases, without `name`: a new object under the new name, then the old one deleted", async () => {
    const up = await timed(
      "dynamic: rename without aliases, no name",
      stack.program(program({ ...renamed, nightly: "nightly-again", scanner: "scanner-again" }, false)).up(),
    );
    expect(up.ok).toBe(true);
    expect(opsOf(up)).toMatchObject({
      "nightly-again": "create",
      "nightly-renamed": "delete",
      "scanner-again": "create",
      "scanner-renamed": "delete",
    });
    expect(configNames()).toEqual(["nightly-again", "weekly"]);
    expect(tasks().map(([name]) => name)).toEqual(["auditor", "scanner-again"]);
    expectServiceMatchesState(suite.emulator, stack);
  });

  test("without aliases, with `name`: the create is refused (the old resource holds the name until its delete, after), nothing is lost", async () => {
    const names = { ...renamed, nightly: "nightly-again", scanner: "scanner-again" };
    const up = await timed("dynamic: rename without aliases, with name", stack.program(program({ ...names, weekly: "weekly-moved" }, false)).up());
    expect(up.ok).toBe(false);
    expect(up.output).toMatch(
      /snapshot configuration "weekly" already exists \(weekly\); a create never overwrites it\. .*Renamed or moved in the program .*Add the old name to the resource's `aliases`/,
    );
    expect(configNames()).toEqual(["nightly-again", "weekly"]);
    expect(packageResources(stack.state()).map((r) => nameOf(r.urn))).toContain("weekly-renamed");
    expectServiceMatchesState(suite.emulator, stack);
    // As the message advises: the old name in aliases, and the same object is kept.
    const fixed = await timed(
      "dynamic: the same with aliases",
      stack
        .program({
          resources: program({ ...names, weekly: "weekly-moved" }, false).resources.map((r) =>
            r.name === "weekly-moved" ? { ...r, options: { aliases: [{ name: "weekly-renamed" }] } } : r,
          ),
        })
        .up(),
    );
    expect(fixed.ok).toBe(true);
    expect(opsOf(fixed)["weekly-moved"]).toBe("same");
    expectServiceMatchesState(suite.emulator, stack);
  });

  test("two resources of one `name`: the second's create says that another resource of the stack holds it", async () => {
    const names = { ...renamed, nightly: "nightly-again", scanner: "scanner-again", weekly: "weekly-moved" };
    // The engine takes resources in the order the program registers them, which is the order their inputs resolve:
    // `dependsOn` makes the holder's diff come first, as the message needs (without it, the message gives each cause).
    const copy: ResourceSpec = {
      type: "SnapshotAutoConfig",
      name: "weekly-copy",
      args: { ...local, name: "weekly" },
      options: { dependsOn: ["weekly-moved"] },
    };
    const up = await timed("dynamic: two resources of one name", stack.program(program(names, false, [copy])).up());
    expect(up.ok).toBe(false);
    expect(up.output).toMatch(
      /snapshot configuration "weekly" already exists, and another resource of this stack holds it: two resources give the same `name`/,
    );
    expectServiceMatchesState(suite.emulator, stack);
    const destroy = await timed("dynamic: destroy", stack.destroy());
    expect(destroy.ok).toBe(true);
    expect(configNames()).toEqual([]);
    expect(tasks()).toEqual([]);
  });
});

describe("provider plugin resources (YAML)", () => {
  let stack: EngineStack;
  /** A resource of the program: its name, the old name it aliases (if any), its type and properties. */
  const resource = ([name, alias]: [string, string?], type: string, properties: string, dependsOn?: string) =>
    [
      `  ${name}:`,
      `    type: ${type}`,
      `    properties: { ${properties} }`,
      ...(alias ? [`    options: { aliases: [{ name: ${alias} }] }`] : []),
      ...(dependsOn ? [`    options: { dependsOn: ["\${${dependsOn}}"] }`] : []),
    ].join("\n");
  const local = "interval: 24h, storageType: local, pathPrefix: /var/snapshots, localMaxSpace: 1000";
  /** Two configurations (one with `name`) and a task; each `[name, alias]`. */
  const yaml = (nightly: [string, string?], weekly: [string, string?], scanner: [string, string?], extra: string[] = []) =>
    [
      "resources:",
      resource(nightly, "snapshot:index:SnapshotAutoConfig", local),
      resource(weekly, "snapshot:index:SnapshotAutoConfig", `name: weekly, ${local}`),
      resource(scanner, "runtask:index:RunTask", "url: https://hooks.example.com/scan"),
      ...extra,
      "",
    ].join("\n");

  beforeAll(async () => {
    stack = suite.stack("yaml", "renames-yaml");
    const up = await timed("yaml: create", stack.yamlProgram(yaml(["nightly"], ["weekly"], ["scanner"])).up());
    expect(up.ok).toBe(true);
  });

  test("with aliases, with or without `name`: nothing changes; the objects keep the names they have", async () => {
    const before = tasks();
    const up = await timed(
      "yaml: rename with aliases",
      stack.yamlProgram(yaml(["nightly-renamed", "nightly"], ["weekly-renamed", "weekly"], ["scanner-renamed", "scanner"])).up(),
    );
    expect(up.ok).toBe(true);
    expect(opsOf(up)).toMatchObject({ "nightly-renamed": "same", "weekly-renamed": "same", "scanner-renamed": "same" });
    expect(configNames()).toEqual(["nightly", "weekly"]);
    expect(tasks()).toEqual(before);
    expectServiceMatchesState(suite.emulator, stack);
  });

  test("without aliases, without `name`: a new object under the new name, then the old one deleted", async () => {
    const up = await timed("yaml: rename without aliases", stack.yamlProgram(yaml(["nightly-again"], ["weekly-renamed"], ["scanner-again"])).up());
    expect(up.ok).toBe(true);
    expect(opsOf(up)).toMatchObject({
      "nightly-again": "create",
      "nightly-renamed": "delete",
      "scanner-again": "create",
      "scanner-renamed": "delete",
    });
    expect(configNames()).toEqual(["nightly-again", "weekly"]);
    expect(tasks().map(([name]) => name)).toEqual(["scanner-again"]);
    expectServiceMatchesState(suite.emulator, stack);
  });

  test("without aliases, with `name`: the create is refused, nothing is lost", async () => {
    const up = await timed(
      "yaml: rename without aliases, with name",
      stack.yamlProgram(yaml(["nightly-again"], ["weekly-moved"], ["scanner-again"])).up(),
    );
    expect(up.ok).toBe(false);
    expect(up.output).toMatch(
      /snapshot configuration "weekly" already exists \(weekly\); a create never overwrites it\. .*Renamed or moved in the program/,
    );
    expect(configNames()).toEqual(["nightly-again", "weekly"]);
    expectServiceMatchesState(suite.emulator, stack);
  });

  test("two resources of one `name`: the second's create names the resource that holds it", async () => {
    // As in the TypeScript program, `dependsOn` puts the holder's diff before the copy's create.
    const copy = resource(["nightly-copy"], "snapshot:index:SnapshotAutoConfig", `name: nightly-again, ${local}`, "nightly-again");
    const up = await timed(
      "yaml: two resources of one name",
      stack.yamlProgram(yaml(["nightly-again"], ["weekly-renamed"], ["scanner-again"], [copy])).up(),
    );
    expect(up.ok).toBe(false);
    expect(up.output).toMatch(
      /snapshot configuration "nightly-again" already exists, and another resource of this stack holds it \("nightly-again"\)/,
    );
    expectServiceMatchesState(suite.emulator, stack);
    const destroy = await timed("yaml: destroy", stack.destroy());
    expect(destroy.ok).toBe(true);
    expect(configNames()).toEqual([]);
  });
});
