import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGES } from "../../plugin/schema/generate";
import { schemaText } from "../../plugin/schema/load";
import { EXAMPLE_FILES, EXAMPLES_FOLDER } from "../../plugin/schema/usageExamples";
import { RUNTASK_SETTING_KEYS } from "../../provider/services/runtask/settings";
import { SNAPSHOT_SETTING_KEYS } from "../../provider/services/snapshot/settings";
import { repositoryRoot } from "../../toolchain/repository";
import { fencedBlocks, section, shellLines } from "../support/markdownBlocks";

/**
 * docs/_index.md and docs/installation-configuration.md, the two pages a Pulumi Registry listing reads: the front
 * matter the registry takes; the example shown is the schema examples' files as they are (which test/docs/
 * schemaExamples and test/plugin-sdks/ run); the install lines name the plugins' release as the schemas'
 * `pluginDownloadURL` does, the archives by Pulumi's names, and the SDKs by the names the schemas give them; the
 * configuration table has every setting.
 */
const REPO = repositoryRoot();
const VERSION: string = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
const INDEX = readFileSync(join(REPO, "docs/_index.md"), "utf8");
const INSTALL = readFileSync(join(REPO, "docs/installation-configuration.md"), "utf8");
const schemas = Object.fromEntries(PACKAGES.map((p) => [p.name, JSON.parse(schemaText(p.name))]));
/** The platforms the release builds the plugins for, in Pulumi's names. */
const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"];

test.each([
  ["docs/_index.md", INDEX],
  ["docs/installation-configuration.md", INSTALL],
])("%s has the front matter the registry reads", (_file, text) => {
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  expect(front).not.toBeNull();
  const fields = Object.fromEntries(front![1].split("\n").map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]));
  expect(Object.keys(fields).sort()).toEqual(["layout", "meta_desc", "title"]);
  expect(fields.layout).toBe("package");
  expect(fields.title.length).toBeGreaterThan(0);
  expect(fields.meta_desc.length).toBeGreaterThan(40);
});

test("docs/_index.md shows one example in TypeScript, Python, Go and YAML: a schema example's files, as they are", () => {
  const shown = fencedBlocks(INDEX).filter((b) => b.meta);
  expect(shown.map((b) => b.language)).toEqual(Object.keys(EXAMPLE_FILES));
  for (const block of shown) {
    expect(block.meta).toMatch(new RegExp(`^${EXAMPLES_FOLDER}/\\w+/`));
    expect(Object.values(EXAMPLE_FILES)).toContain(block.meta.split("/").pop());
    expect({ file: block.meta, code: block.code }).toEqual({ file: block.meta, code: readFileSync(join(REPO, block.meta), "utf8") });
  }
  expect(INDEX).toContain("(installation-configuration.md)");
});

describe("docs/installation-configuration.md", () => {
  const plugins = section(INSTALL, "## The provider plugins");

  test("installs each plugin of this version from the release the schemas' pluginDownloadURL names, or from an archive", () => {
    const lines = shellLines(plugins);
    for (const [name, schema] of Object.entries(schemas)) {
      expect(schema.pluginDownloadURL).toBe(schemas.runtask.pluginDownloadURL);
      expect(lines).toContain(`pulumi plugin install resource ${name} ${VERSION} --server ${schema.pluginDownloadURL}`);
    }
    const fromFile = lines.filter((l) => l.includes("--file"));
    expect(fromFile).toEqual(
      ["snapshot", "runtask"].map(
        (name) => `pulumi plugin install resource ${name} ${VERSION} --file pulumi-resource-${name}-v${VERSION}-linux-amd64.tar.gz`,
      ),
    );
    // Checked: a download by its line of SHA256SUMS, the files before they are installed.
    const archive = `pulumi-resource-runtask-v${VERSION}-linux-amd64.tar.gz`;
    expect(lines).toContain(
      `pulumi plugin install resource runtask ${VERSION} --server ${schemas.runtask.pluginDownloadURL} --checksum "$(grep ' ${archive}$' SHA256SUMS | cut -d ' ' -f 1)"`,
    );
    expect(lines).toContain("sha256sum --check --ignore-missing SHA256SUMS");
    expect(lines).toContain("npm run plugins");
    for (const platform of PLATFORMS) expect(plugins).toContain(`\`${platform}\``);
    expect(plugins).toContain("`pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz`");
    expect(plugins).toContain(`pluginDownloadURL: ${schemas.runtask.pluginDownloadURL}`);
  });

  test("names each SDK as the schemas do, in its table and its install lines", () => {
    const sdks = section(INSTALL, "## The SDKs");
    const rows = Object.fromEntries(
      [...sdks.matchAll(/^\| (Node\.js|Python|Go|\.NET|Java) \| (.+) \|$/gm)].map((m) => [m[1], m[2].split(" | ").slice(1)]),
    );
    const lines = shellLines(sdks);
    const goModule = schemas.runtask.language.go.importBasePath.replace(/\/runtask$/, "");
    for (const [name, schema] of Object.entries(schemas)) {
      const column = name === "snapshot" ? 0 : 1;
      const { nodejs, python, go, csharp, java } = schema.language;
      const nuget = `${csharp.rootNamespace}.${name[0].toUpperCase()}${name.slice(1)}`;
      const maven = `${java.basePackage}:${name}`;
      expect([rows["Node.js"][column], rows.Python[column], rows[".NET"][column], rows.Java[column]]).toEqual(
        [nodejs.packageName, python.packageName, nuget, maven].map((n) => `\`${n}\``),
      );
      expect(go.importBasePath).toBe(`${goModule}/${name}`);
      expect(rows.Go[column]).toBe(`its package \`${name}\``);
      expect(lines.find((l) => l.startsWith("npm install "))).toContain(` ${nodejs.packageName}`);
      expect(lines.find((l) => l.startsWith("pip install "))).toContain(` ${python.packageName}`);
      expect(lines).toContain(`dotnet add package ${nuget}`);
      expect(sdks).toContain(`implementation("${java.basePackage}:runtask:${VERSION}")`);
    }
    expect(sdks).toContain(`the module \`${goModule}\``);
    expect(lines).toContain(`go get ${goModule}@v${VERSION}`);
  });

  test("its configuration table has every stack config key and environment variable of both services", () => {
    const configuration = section(INSTALL, "## Configuration");
    for (const [key, envVar] of [...Object.values(SNAPSHOT_SETTING_KEYS), ...Object.values(RUNTASK_SETTING_KEYS)]) {
      expect(configuration).toMatch(new RegExp(`^\\|[^\\n]*\`${key}\`[^\\n]*\\|[^\\n]*\`${envVar}\``, "m"));
    }
    // And the schemas' config, which the plugins take, has nothing the table leaves out.
    for (const [name, schema] of Object.entries(schemas))
      for (const variable of Object.keys(schema.config.variables)) expect(configuration).toContain(`\`${name}:${variable}\``);
  });
});

test("the schemas' configurationDocsUrl is this page on the main branch", () => {
  for (const schema of Object.values(schemas)) expect(schema.configurationDocsUrl).toMatch(/\/blob\/main\/docs\/installation-configuration\.md$/);
});
