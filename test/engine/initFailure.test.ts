import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dynamicProviderPlugin, Engine, repositoryRoot, type Registration } from "../../engine";
import { ResourceInitFailed } from "../../engine/plugin/initFailure";

/**
 * The partial-creation answer, as the engine takes it: a create (or update) whose error carries
 * `ErrorResourceInitFailed` (the SDK's dynamic-provider plugin packs a thrown error that has an `id` so) records
 * the object it names, with the reasons as init errors; the next `up` updates it though its diff says nothing
 * changed, and after that it is `same`.
 */

// A provider text of the test's own: the create makes its object and fails; the update succeeds.
const PROVIDER = `exports.handler = () => ({
  check: async (_olds, news) => ({ inputs: news }),
  diff: async () => ({ changes: false }),
  create: async (inputs) => {
    throw Object.assign(new Error("made, then failed"), {
      id: "made-1",
      properties: { size: inputs.size, state: "half" },
      reasons: ["made-1 was made, but could not be finished"],
    });
  },
  update: async (_id, _olds, news) => ({ outs: { size: news.size, state: "whole" } }),
  delete: async () => undefined,
});`;

const registration: Registration = {
  type: "pulumi-nodejs:dynamic:Resource",
  name: "half",
  urn: "urn:pulumi:dev::repo::pulumi-nodejs:dynamic:Resource::half",
  inputs: { __provider: PROVIDER, size: 3 },
  additionalSecretOutputs: [],
  dependencies: [],
};

let dir: string;
let engine: Engine;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "init-failure-"));
  // The repository's own @pulumi/pulumi serves the provider text; nothing of the package is loaded.
  engine = new Engine({ plugin: dynamicProviderPlugin(repositoryRoot()), stateFile: join(dir, "state.json"), config: {} });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a create that made its object is recorded with its id and init errors; the next up updates it, the one after is same", async () => {
  const failure = await engine.up([registration]).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(ResourceInitFailed);
  expect((failure as Error).message).toBe("made-1 was made, but could not be finished");
  expect(engine.state().get("half")).toMatchObject({
    id: "made-1",
    outputs: { size: 3, state: "half" },
    initErrors: ["made-1 was made, but could not be finished"],
  });

  expect((await engine.up([registration])).map((s) => s.op)).toEqual(["update"]);
  const after = engine.state().get("half")!;
  expect(after).toMatchObject({ id: "made-1", outputs: { size: 3, state: "whole" } });
  expect(after.initErrors).toBeUndefined();

  expect((await engine.up([registration])).map((s) => s.op)).toEqual(["same"]);
  await engine.destroy();
});
