import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { gitHubRepository } from "../../plugin/schema/build";
import { PACKAGES, schemaJson } from "../../plugin/schema/generate";
import { schemaText } from "../../plugin/schema/load";
import { secretArgs } from "../../provider/table/derived";

/**
 * The provider plugins' schemas: what the field tables and the SDK's doc comments generate (and `npm run schema`
 * writes), valid against the Pulumi package metaschema, with the tokens and secrets of the package's contract.
 */
const metaschema = JSON.parse(readFileSync(join(__dirname, "fixtures/pulumi-package-metaschema.json"), "utf8"));
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(metaschema);

describe.each(PACKAGES.map((p) => [p.name, p] as const))("%s", (name, pkg) => {
  const schema = JSON.parse(schemaText(name));

  test("plugin/schema/<name>.json is what the tables and doc comments generate (run `npm run schema` after changing them)", () => {
    expect(schemaText(name)).toBe(schemaJson(pkg));
  });

  test("is valid against the Pulumi package metaschema", () => {
    validate(schema);
    expect(validate.errors ?? []).toEqual([]);
  });

  test("every resource and function is described, and every property too", () => {
    const undescribed: string[] = [];
    const visit = (where: string, properties: Record<string, { description?: string }>) => {
      for (const [k, p] of Object.entries(properties)) if (!p.description) undescribed.push(`${where}.${k}`);
    };
    for (const [token, r] of Object.entries<any>(schema.resources)) {
      if (!r.description) undescribed.push(token);
      visit(`${token}.inputs`, r.inputProperties);
      visit(`${token}.outputs`, r.properties);
    }
    for (const [token, f] of Object.entries<any>(schema.functions)) {
      if (!f.description) undescribed.push(token);
      visit(`${token}.inputs`, f.inputs?.properties ?? {});
      visit(`${token}.outputs`, f.outputs.properties);
    }
    for (const [token, t] of Object.entries<any>(schema.types)) visit(token, t.properties);
    visit("config", schema.config.variables);
    expect(undescribed).toEqual([]);
  });

  test("outputs are required only where every state has them: a storage type's parameters are not", () => {
    for (const r of pkg.resources) {
      const required: string[] = schema.resources[r.token].required;
      for (const [k, field] of Object.entries(r.table.fields)) {
        if (field.group) expect({ k, required: required.includes(k) }).toEqual({ k, required: false });
        if (field.output) expect({ k, required: required.includes(k) }).toEqual({ k, required: true });
      }
    }
  });

  test("language sections name the generated SDKs for Node.js, Python, Go, .NET and Java after this package, not in Pulumi's namespace", () => {
    const { nodejs, python, go, csharp, java } = schema.language;
    expect([nodejs.packageName, python.packageName, go.importBasePath, csharp.rootNamespace, java.basePackage]).toEqual([
      `pulumi-snapshot-runtask-${name}`,
      `pulumi_snapshot_runtask_${name}`,
      `github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask/plugin/sdks/go/${name}`,
      "PulumiSnapshotRunTask",
      // The GitHub owner's Maven namespace, spelled as a Java package (hyphens are not allowed there).
      "io.github.pulumi_snapshot_runtask",
    ]);
    // What the generators would choose without them: Pulumi's own packages.
    expect(nodejs.packageName).not.toMatch(/^@pulumi\//);
    expect(python.packageName).not.toBe(`pulumi_${name}`);
    expect(go.importBasePath).not.toMatch(/^github\.com\/pulumi\//);
    expect(csharp.rootNamespace).not.toBe("Pulumi");
    expect(java.basePackage).toMatch(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/);
    expect(java.basePackage).not.toMatch(/^com\.pulumi\b/);
  });

  test("the .NET and Java SDKs, which the release generates with a released CLI, get what building and publishing them takes", () => {
    const { csharp, java } = schema.language;
    // Else the generator's default floor, which a newer generator may move without a word.
    expect(csharp.packageReferences).toEqual({ Pulumi: expect.stringMatching(/^\[3\.\d+\.\d+,4\)$/) });
    // Gradle build files (without them no build.gradle is written), publishing through Maven Central's staging API,
    // and the Java SDK pinned.
    expect(java).toMatchObject({
      buildFiles: "gradle",
      gradleNexusPublishPluginVersion: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      dependencies: { "com.pulumi:pulumi": expect.stringMatching(/^\d+\.\d+\.\d+$/) },
    });
    // The POM's required fields, which the Java generator refuses a schema without.
    expect([schema.description, schema.repository].every(Boolean)).toBe(true);
  });

  test("its version is the package's, which the plugins report and the SDKs take (respectSchemaVersion)", () => {
    expect(schema.version).toBe(JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")).version);
    for (const language of ["nodejs", "python", "go", "csharp"])
      expect([language, schema.language[language].respectSchemaVersion]).toEqual([language, true]);
  });

  test("the engine downloads the plugin from the repository's GitHub releases, which package.json names; the registry's fields point there too", () => {
    const { owner, name: repo } = gitHubRepository(JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")).repository);
    expect(schema).toMatchObject({
      pluginDownloadURL: `github://api.github.com/${owner}/${repo}`,
      repository: `https://github.com/${owner}/${repo}`,
      homepage: `https://github.com/${owner}/${repo}`,
      publisher: owner,
      logoUrl: `https://raw.githubusercontent.com/${owner}/${repo}/main/docs/logo.png`,
      configurationDocsUrl: `https://github.com/${owner}/${repo}/blob/main/docs/installation-configuration.md`,
    });
    // The logo on the main branch is this tree's, a PNG: the .NET generator packs it as the NuGet package's icon.
    expect(readFileSync(join(__dirname, "../../docs/logo.png")).subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
  });

  test("the secrets of the tables, the token and the proxy (its URL may hold credentials) are declared secret", () => {
    for (const r of pkg.resources) {
      const declared = Object.entries<any>(schema.resources[r.token].inputProperties)
        .filter(([, p]) => p.secret)
        .map(([k]) => k);
      expect(declared.sort()).toEqual(secretArgs(r.table.fields).sort());
      for (const k of declared) expect(schema.resources[r.token].properties[k].secret).toBe(true);
    }
    expect(schema.config.variables.token.secret).toBe(true);
    expect(
      Object.entries<any>(schema.config.variables)
        .filter(([, v]) => v.secret)
        .map(([k]) => k),
    ).toEqual(["token", "proxy"]);
  });
});

test("the tokens of the contract (DESIGN section 7)", () => {
  const tokens = (name: string) => {
    const s = JSON.parse(schemaText(name));
    return [...Object.keys(s.resources), ...Object.keys(s.functions)].sort();
  };
  expect(tokens("snapshot")).toEqual([
    "snapshot:index:SnapshotAutoConfig",
    "snapshot:index:getSnapshotStatus",
    "snapshot:index:listSnapshotAutoConfigs",
  ]);
  expect(tokens("runtask")).toEqual([
    "runtask:index:RunTask",
    "runtask:index:WorkspaceRunTask",
    "runtask:index:getRunTask",
    "runtask:index:getWorkspaceRunTask",
    "runtask:index:listRunTasks",
    "runtask:index:listWorkspaceRunTasks",
  ]);
  const secretInputs = [...PACKAGES]
    .flatMap((p) => p.resources)
    .flatMap((r) =>
      Object.entries<any>(JSON.parse(schemaText(r.token.split(":")[0])).resources[r.token].inputProperties)
        .filter(([, v]) => v.secret)
        .map(([k]) => k),
    );
  expect(secretInputs.sort()).toEqual([
    "cloudAAccessKeyId",
    "cloudASecretAccessKey",
    "cloudASessionToken",
    "cloudBAccountKey",
    "cloudCServiceAccountKey",
    "hmacKey",
  ]);
});

describe("package.json's repository field, read for the schemas", () => {
  test.each([
    ["git+https://github.com/acme/pulumi-things.git", "acme", "pulumi-things"],
    ["https://github.com/acme/pulumi-things", "acme", "pulumi-things"],
    ["git@github.com:acme/pulumi-things.git", "acme", "pulumi-things"],
    ["git+ssh://git@github.com/acme/pulumi.things.git", "acme", "pulumi.things"],
    ["github:acme/pulumi-things", "acme", "pulumi-things"],
    ["acme/pulumi-things", "acme", "pulumi-things"],
  ])("%s", (url, owner, name) => {
    expect(gitHubRepository(url)).toEqual({ owner, name });
    expect(gitHubRepository({ type: "git", url })).toEqual({ owner, name });
  });

  test("a repository elsewhere than GitHub, or none, is refused: the plugins are released there", () => {
    expect(() => gitHubRepository("https://gitlab.com/acme/pulumi-things.git")).toThrow(/is not a GitHub repository/);
    expect(() => gitHubRepository(undefined)).toThrow(/has no repository field/);
  });
});
