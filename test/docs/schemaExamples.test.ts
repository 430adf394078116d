import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGES } from "../../plugin/schema/generate";
import { schemaText } from "../../plugin/schema/load";
import { EXAMPLE_FILES, EXAMPLES_FOLDER, USAGE_EXAMPLES } from "../../plugin/schema/usageExamples";
import { repositoryRoot } from "../../toolchain/repository";
import { emulatorStackConfig, RUNTASK_TOKEN } from "../support/emulatorStack";
import { engineSuite } from "../support/engine/engineSuite";
import { packageResources, typeOf } from "../support/engine/stateFile";

/**
 * The example of each resource's schema description, which every SDK's docstring and the registry show: a program in
 * TypeScript, Python, Go and YAML. The YAML one runs here through the Pulumi engine against the emulator (up, an up
 * with no change, destroy), and the description's `pulumi import` command imports what it made; the others are
 * compiled or run against their SDK where that SDK is installed (test/plugin-sdks/).
 */
jest.setTimeout(600_000);

const REPO = repositoryRoot();
const yaml: { load(text: string): any } = require("js-yaml");
/** The workspace the examples attach their task to. */
const WORKSPACE_ID = "ws-1A2b3C4d5E6f7G8h";
const HMAC_KEY = "schema-example-hmac-key";

const suite = engineSuite({
  emulator: {
    snapshot: { takeSnapshots: false },
    runTask: {
      tokens: { [RUNTASK_TOKEN]: { owner: true } },
      organizations: [{ name: "acme", workspaces: [{ name: "production", id: WORKSPACE_ID }] }],
    },
  },
  forgetBetweenTests: true,
});

const resources = PACKAGES.flatMap((p) => p.resources.map((r) => r.token));

test("every resource has an example, and its description carries the example's four programs and its import command", () => {
  expect(Object.keys(USAGE_EXAMPLES).sort()).toEqual([...resources].sort());
  for (const token of resources) {
    const description: string = JSON.parse(schemaText(token.split(":")[0])).resources[token].description;
    const example = USAGE_EXAMPLES[token];
    for (const [language, file] of Object.entries(EXAMPLE_FILES)) {
      const code = readFileSync(join(REPO, EXAMPLES_FOLDER, example.dir, file), "utf8");
      expect([token, language, description.includes(`\`\`\`${language}\n${code}\`\`\``)]).toEqual([token, language, true]);
    }
    expect(description).toMatch(/^\{\{% examples %\}\}\n## Example Usage\n\{\{% example %\}\}\n### /m);
    expect(description).toContain(`{{% /example %}}\n{{% /examples %}}\n\n## Import\n`);
    expect(description).toContain(`\`\`\`sh\n$ ${example.importCommand}\n\`\`\``);
  }
});

test.each(resources)("the YAML example of %s runs through the engine, and its import command imports what it made", async (token) => {
  const example = USAGE_EXAMPLES[token];
  const text = readFileSync(join(REPO, EXAMPLES_FOLDER, example.dir, EXAMPLE_FILES.yaml), "utf8");
  const project = yaml.load(text);
  expect(project.runtime).toBe("yaml");
  const config = { ...emulatorStackConfig(suite.emulator), scannerHmacKey: HMAC_KEY };
  const secretKeys = ["runtask:token", "snapshot:token", "scannerHmacKey"];

  // The example's Pulumi.yaml as written, in the stack's project folder.
  const stack = suite.stack("yaml", project.name, { config, secretKeys });
  writeFileSync(join(stack.programDir, "Pulumi.yaml"), text);
  const up = await stack.up();
  expect({ ok: up.ok, error: up.error }).toEqual({ ok: true, error: undefined });
  const made = packageResources(stack.state()).filter((r) => typeOf(r.urn) === token);
  expect(made).toHaveLength(1);
  expect(stack.state().text).not.toContain(HMAC_KEY);
  const again = await stack.up();
  expect({ ok: again.ok, changes: again.changes }).toEqual({ ok: true, changes: { same: Object.keys(project.resources).length + 1 } });

  // The Import section's command, as written, in a stack of its own: it finds the object the example made.
  const [, , type, name, id] = example.importCommand.split(" ");
  expect(type).toBe(token);
  const importer = suite.stack("yaml", `${project.name}-import`, { config, secretKeys });
  importer.yamlProgram("resources: {}\n");
  const imported = await importer.import({ type, name, id });
  expect({ ok: imported.ok, error: imported.error }).toEqual({ ok: true, error: undefined });
  expect(packageResources(importer.state()).map((r) => r.id)).toEqual([made[0].id]);

  const destroy = await stack.destroy();
  expect(destroy.ok).toBe(true);
});
