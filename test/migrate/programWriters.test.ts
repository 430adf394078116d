import { load } from "js-yaml";
import type { Program } from "../../migrate/program/model";
import { typescriptProgram } from "../../migrate/program/typescript";
import { yamlProject, yamlProjectWith, yamlReadsAsString } from "../../migrate/program/yaml";

/**
 * The programs `migrate terraform` writes, as text: YAML that parses to what the model says (references as Pulumi YAML
 * writes them, literals that read back as themselves), a project's own `Pulumi.yaml` kept, and TypeScript on the
 * plugins' SDK. terraformMigration.test.ts runs them through the engine.
 */
const program: Program = {
  resources: [
    {
      name: "scanner",
      type: "runtask:index:RunTask",
      properties: [
        ["organization", { literal: "acme" }],
        ["url", { literal: "https://hooks.example.com/scan?x=${y}" }],
        ["description", { literal: "yes" }],
        ["enabled", { literal: false }],
        ["hmacKey", { config: "scannerHmacKey" }],
        ["global", { literal: { enabled: true, stages: ["pre_plan", "post_plan"] } }],
      ],
    },
    {
      name: "scanner_on-0",
      type: "runtask:index:WorkspaceRunTask",
      properties: [
        ["workspaceId", { literal: "ws-1" }],
        ["taskId", { idOf: "scanner" }],
        ["stages", { literal: ["pre_apply"] }],
      ],
    },
    {
      name: "gcs",
      type: "snapshot:index:SnapshotAutoConfig",
      properties: [
        ["interval", { literal: 3600 }],
        ["filePrefix", { literal: "0042" }],
        ["cloudCServiceAccountKey", { config: "gcsCloudCServiceAccountKeyBase64", base64: true }],
      ],
      importId: "gcs",
    },
  ],
  secretConfig: ["scannerHmacKey", "gcsCloudCServiceAccountKeyBase64"],
};

test("YAML: every literal reads back as itself, references and secrets as Pulumi YAML writes them", () => {
  const doc = load(yamlProject("tf", "Moved: from Terraform", program)) as any;
  expect(doc.name).toBe("tf");
  expect(doc.description).toBe("Moved: from Terraform");
  expect(doc.config).toEqual({
    scannerHmacKey: { type: "string", secret: true },
    gcsCloudCServiceAccountKeyBase64: { type: "string", secret: true },
  });
  expect(doc.resources.scanner).toEqual({
    type: "runtask:index:RunTask",
    properties: {
      organization: "acme",
      // `${` in a literal would be read as an interpolation: written `$${`.
      url: "https://hooks.example.com/scan?x=$${y}",
      description: "yes",
      enabled: false,
      hmacKey: "${scannerHmacKey}",
      global: { enabled: true, stages: ["pre_plan", "post_plan"] },
    },
    options: { protect: true },
  });
  expect(doc.resources["scanner_on-0"].properties).toEqual({ workspaceId: "ws-1", taskId: "${scanner.id}", stages: ["pre_apply"] });
  expect(doc.resources.gcs).toEqual({
    type: "snapshot:index:SnapshotAutoConfig",
    properties: { interval: 3600, filePrefix: "0042", cloudCServiceAccountKey: { "fn::fromBase64": "${gcsCloudCServiceAccountKeyBase64}" } },
    options: { protect: true, import: "gcs" },
  });
});

test("YAML: a project's own Pulumi.yaml keeps what it says; its config block gets the secrets, in its indentation", () => {
  const own = "name: platform\nruntime: yaml\nbackend:\n  url: s3://state\nconfig:\n    runtask:organization: acme\n";
  const doc = load(yamlProjectWith(own, program)) as any;
  expect(doc.backend).toEqual({ url: "s3://state" });
  expect(doc.config).toEqual({
    "runtask:organization": "acme",
    scannerHmacKey: { type: "string", secret: true },
    gcsCloudCServiceAccountKeyBase64: { type: "string", secret: true },
  });
  expect(Object.keys(doc.resources)).toEqual(["scanner", "scanner_on-0", "gcs"]);
  expect(Object.keys(load(yamlProjectWith("name: p\nruntime: yaml\n", program)) as object)).toEqual(["name", "runtime", "config", "resources"]);
});

test.each([
  ["plain-key-1", true],
  ["0042", true],
  ["42", false],
  ["-7", false],
  ["1.5e3", false],
  ["true", false],
  ["F", false],
  ["NaN", false],
  ['{"type":"service_account"}', false],
  ['"quoted"', false],
  ["[1]", false],
  ["sk_live_0123", true],
])("the YAML host reads config %j as a string: %s", (value, asString) => {
  expect(yamlReadsAsString(value)).toBe(asString);
});

test("TypeScript: the plugins' SDK, secrets from config, a task's id from its resource, protect and import options", () => {
  const text = typescriptProgram(program);
  expect(text).toContain(
    'import * as runtask from "pulumi-snapshot-runtask-runtask";\nimport * as snapshot from "pulumi-snapshot-runtask-snapshot";\n',
  );
  expect(text).toContain("const config = new pulumi.Config();");
  expect(text).toContain('const scanner = new runtask.RunTask("scanner", {\n  organization: "acme",\n');
  expect(text).toContain('  hmacKey: config.requireSecret("scannerHmacKey"),\n');
  expect(text).toContain('const scannerOn0 = new runtask.WorkspaceRunTask("scanner_on-0", {\n  workspaceId: "ws-1",\n  taskId: scanner.id,\n');
  expect(text).toContain('}, { protect: true, import: "gcs" });');
});
