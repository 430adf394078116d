import { secret, UNKNOWN } from "../../engine";
import { readYamlProgram, UnsupportedYaml, type HeldLookup } from "../../demo/yamlProgram";

/**
 * What the engine driver reads of a Pulumi YAML program (`npm run demo -- --program`): config typed and secret as
 * declared, references resolved against the state (unknown before a resource exists), dependencies for the order,
 * invokes, outputs; and what it does not run, refused with advice rather than run wrongly.
 */

const PROGRAM = {
  name: "my-yaml",
  runtime: "yaml",
  config: { hmacKey: { type: "string", secret: true }, retain: { type: "integer", default: 3 }, workspace: { type: "string" } },
  variables: { found: { "fn::invoke": { function: "runtask:index:getRunTask", arguments: { id: "${scanner.id}" }, return: "name" } } },
  resources: {
    scanner: {
      type: "runtask:index:RunTask",
      properties: { url: "https://hooks.example.com/scan", hmacKey: "${hmacKey}", description: "for ${pulumi.stack}" },
    },
    attach: {
      type: "runtask:index:WorkspaceRunTask",
      properties: { workspaceId: "${workspace}", taskId: "${scanner.id}", enforcementLevel: "advisory", stages: ["pre_plan"] },
    },
    nightly: {
      type: "snapshot:index:SnapshotAutoConfig",
      properties: { interval: "24h", retain: "${retain}", note: "$${literal}" },
      options: { dependsOn: ["${attach}"] },
    },
  },
  outputs: { id: "${scanner.id}", name: "${found}", key: "${scanner.hmacKey}", joined: { "fn::join": ["/", ["${scanner.name}", "x"]] } },
};

const config = { "my-yaml:hmacKey": { value: "k3y" }, "my-yaml:workspace": { value: "ws-1A2b3C4d5E6f7G8h" } };
const invoked: unknown[] = [];
const invoke = async (token: string, args: Record<string, unknown>) => {
  invoked.push([token, args]);
  return { name: "scanner", id: args.id };
};
const nothing: HeldLookup = () => undefined;
const scannerDone: HeldLookup = (name) => (name === "scanner" ? { id: "task-1", outputs: { name: "scanner", hmacKey: secret("k3y") } } : undefined);

test("resources, in the state's order, depending on what they name (through dependsOn too)", () => {
  const program = readYamlProgram(PROGRAM, config, "dev", invoke);
  expect(program.resources.map((r) => [r.name, r.token, r.dependencies])).toEqual([
    ["scanner", "runtask:index:RunTask", []],
    ["attach", "runtask:index:WorkspaceRunTask", ["urn:pulumi:dev::my-yaml::runtask:index:RunTask::scanner"]],
    ["nightly", "snapshot:index:SnapshotAutoConfig", ["urn:pulumi:dev::my-yaml::runtask:index:WorkspaceRunTask::attach"]],
  ]);
});

test("properties: config typed and secret as declared, a resource's id unknown until it exists, then its id", async () => {
  const [scanner, attach, nightly] = readYamlProgram(PROGRAM, config, "dev", invoke).resources;
  expect(await scanner.evaluate!(nothing)).toEqual({ url: "https://hooks.example.com/scan", hmacKey: secret("k3y"), description: "for dev" });
  expect(await attach.evaluate!(nothing)).toMatchObject({ taskId: UNKNOWN, workspaceId: "ws-1A2b3C4d5E6f7G8h", stages: ["pre_plan"] });
  expect(await attach.evaluate!(scannerDone)).toMatchObject({ taskId: "task-1" });
  expect(await nightly.evaluate!(nothing)).toEqual({ interval: "24h", retain: 3, note: "${literal}" });
});

test("outputs: invokes made once their arguments are known, secrets kept secret", async () => {
  invoked.length = 0;
  const program = readYamlProgram(PROGRAM, config, "dev", invoke);
  expect(await program.outputs(scannerDone)).toEqual({
    id: { value: "task-1", secret: false },
    name: { value: "scanner", secret: false },
    key: { value: "k3y", secret: true },
    joined: { value: "scanner/x", secret: false },
  });
  expect(invoked).toEqual([["runtask:index:getRunTask", { id: "task-1" }]]);
  expect((await program.outputs(nothing)).name).toEqual({ value: UNKNOWN, secret: false });
});

test("explicit providers take their settings from config", () => {
  const program = readYamlProgram(
    {
      name: "p",
      config: { token: { type: "string", secret: true } },
      resources: {
        acme: { type: "pulumi:providers:runtask", properties: { address: "https://runs.example.com", token: "${token}" } },
        task: { type: "runtask:index:RunTask", properties: { url: "https://h.example.com" }, options: { provider: "${acme}" } },
      },
    },
    { "p:token": { value: "t" } },
    "dev",
    invoke,
  );
  expect(program.providers).toEqual([{ name: "acme", package: "runtask", inputs: { address: "https://runs.example.com", token: "t" } }]);
  expect(program.resources[0].provider).toBe("acme");
});

test("required config that is not set is named, with the flag that sets it", () => {
  expect(() => readYamlProgram(PROGRAM, {}, "dev", invoke)).toThrow(
    "config the program requires is not set: add it to the stack's config file, or give it with --secret hmacKey=<value>, --config workspace=<value>",
  );
});

test.each([
  [
    "another provider's resource",
    { resources: { r: { type: "random:index:RandomString", properties: {} } } },
    'resources.r: type "random:index:RandomString"',
  ],
  [
    "a resource option it does not honour",
    { resources: { r: { type: "runtask:index:RunTask", options: { protect: true } } } },
    'resources.r.options: "protect"',
  ],
  ["a function it does not run", { outputs: { o: { "fn::toBase64": "x" } } }, "outputs.o: fn::toBase64"],
])("%s is refused, naming it, with advice", async (_what, document, where) => {
  const read = async () => {
    const program = readYamlProgram({ name: "p", ...document }, {}, "dev", invoke);
    await program.outputs(nothing);
  };
  await expect(read()).rejects.toThrow(UnsupportedYaml);
  await expect(read()).rejects.toThrow(`${where}: the engine driver runs a part of Pulumi YAML only`);
});

test("a reference to nothing the program has is an error naming it", async () => {
  const program = readYamlProgram({ name: "p", outputs: { o: "${nope.id}" } }, {}, "dev", invoke);
  await expect(program.outputs(nothing)).rejects.toThrow("outputs.o: ${nope} names no resource, variable or config of the program");
});
