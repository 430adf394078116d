import type { SettingSpec } from "../../provider/config/serviceSettings";
import type { Field, FieldTable, ValueType } from "../../provider/table/field";
import type { FunctionDefinition, PackageDefinition, ResourceDefinition } from "../server/definition";
import type { DocComments } from "./docComments";
import { usageSections } from "./usageExamples";

/** The parts of the Pulumi package schema this package uses (`pkg/codegen/schema/pulumi.json`). */
export interface TypeSpec {
  type?: "string" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  $ref?: string;
  oneOf?: TypeSpec[];
}
export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
  deprecationMessage?: string;
}
export interface ObjectSpec {
  type?: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}
export interface ResourceSpec extends ObjectSpec {
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
}
export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  license: string;
  repository: string;
  homepage: string;
  publisher: string;
  logoUrl: string;
  pluginDownloadURL: string;
  configurationDocsUrl: string;
  config: { variables: Record<string, PropertySpec> };
  provider: ResourceSpec;
  types: Record<string, ObjectSpec>;
  resources: Record<string, ResourceSpec>;
  functions: Record<string, { description?: string; inputs?: ObjectSpec; outputs: ObjectSpec }>;
  language: LanguageSpecs;
}

/**
 * What Pulumi's code generators take from a schema's `language` section (`pkg/codegen/<language>/importer.go`;
 * .NET's in pulumi/pulumi-dotnet, `pulumi-language-dotnet/codegen/importer.go`; Java's in pulumi/pulumi-java,
 * `pkg/codegen/java/package_info.go`).
 */
export interface LanguageSpecs {
  nodejs: { packageName: string; readme: string; typescriptVersion: string; respectSchemaVersion: true };
  python: { packageName: string; readme: string; respectSchemaVersion: true; pyproject: { enabled: true } };
  go: { importBasePath: string; respectSchemaVersion: true };
  csharp: { rootNamespace: string; packageReferences: Record<string, string>; respectSchemaVersion: true };
  java: { basePackage: string; buildFiles: "gradle"; gradleNexusPublishPluginVersion: string; dependencies: Record<string, string> };
}

/** This npm package's name: every generated SDK is named after it, then after its plugin. */
const OUR_NAME = "pulumi-snapshot-runtask";

/** The folder of the repository that holds the plugins' SDKs (`npm run sdks`), one folder per language in it. */
export const PLUGIN_SDKS = "plugin/sdks";

/**
 * The .NET SDK's floor of Pulumi's own .NET SDK: the one the pinned generator writes when the schema names none
 * (`genProjectFile`). NuGet restores the lowest version a range admits, so the release's `dotnet build` compiles
 * against this floor and proves it.
 */
const DOTNET_PULUMI = "[3.76.1,4)";

/** The Java SDK's Pulumi Java SDK (`com.pulumi:pulumi` on Maven Central), and the Gradle plugin that publishes there. */
const JAVA_PULUMI = "1.36.1";
const GRADLE_NEXUS_PUBLISH_PLUGIN = "2.0.0";

/** The project's repository on GitHub, as package.json's `repository` names it. */
export interface GitHubRepository {
  owner: string;
  name: string;
}

/**
 * The GitHub repository of a package.json `repository` field: `"owner/name"`, `"github:owner/name"`, or an object
 * or string whose URL is on github.com (`git+https://github.com/owner/name.git`, `git@github.com:owner/name.git`).
 * The engine downloads the plugins from its releases, so any other host is refused.
 */
export function gitHubRepository(field: unknown): GitHubRepository {
  const text = typeof field === "string" ? field : typeof field === "object" && field !== null ? (field as { url?: unknown }).url : undefined;
  if (typeof text !== "string") throw new Error("package.json has no repository field: the schemas name the plugins' download from it");
  const match =
    /^(?:github:)?([\w.-]+)\/([\w.-]+?)$/.exec(text) ??
    /^(?:git\+)?(?:https?|ssh|git):\/\/(?:git@)?github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(text) ??
    /^git@github\.com:([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(text);
  if (!match) throw new Error(`package.json's repository (${text}) is not a GitHub repository: the plugins are released there`);
  return { owner: match[1], name: match[2] };
}

/** What a schema takes from package.json: the version, and the repository its releases and SDKs are named after. */
export interface PackageRelease {
  version: string;
  repository: GitHubRepository;
}

/** The addresses a schema gives, all derived from the repository. */
export function repositoryAddresses({ owner, name }: GitHubRepository) {
  const web = `https://github.com/${owner}/${name}`;
  return {
    /** The Go module path of the repository (the Go SDKs' import paths start with it). */
    goModule: `github.com/${owner}/${name}`,
    web,
    /** Where the engine downloads `pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz`: the release of tag `v<version>`. */
    pluginDownloadURL: `github://api.github.com/${owner}/${name}`,
    logoUrl: `https://raw.githubusercontent.com/${owner}/${name}/main/docs/logo.png`,
    installationDocs: `${web}/blob/main/docs/installation-configuration.md`,
  };
}

/**
 * The names of the plugins' SDKs, those this repository holds (`plugin/sdks/`, written by `npm run sdks`), those the
 * release publishes (npm, PyPI, the Go module's tag, NuGet, Maven Central) and those `pulumi package gen-sdk`
 * generates. Left out, the generators name them in Pulumi's own namespace (`@pulumi/runtask`, `pulumi_runtask`,
 * `github.com/pulumi/pulumi-runtask/sdk/go/runtask`, `Pulumi.Runtask`, `com.pulumi.runtask`), which is not ours.
 * Both Go packages are in one module, `plugin/sdks/go`. Java's group on Maven Central is its base package (the Java
 * convention for a domain with hyphens: underscores), its artifact the plugin's name.
 */
export function languageSpecs(plugin: string, description: string, repository: GitHubRepository): LanguageSpecs {
  const { goModule, installationDocs, pluginDownloadURL } = repositoryAddresses(repository);
  const readme = (language: string) =>
    `The ${language} SDK of the \`${plugin}\` provider plugin of ${OUR_NAME}. ${description}\n\n` +
    `The Pulumi engine downloads the plugin, \`pulumi-resource-${plugin}\`, from the project's GitHub releases when a ` +
    `program first uses it; \`pulumi plugin install resource ${plugin} <version> --server ${pluginDownloadURL}\` ` +
    `installs it ahead. Installation and configuration: ${installationDocs}\n`;
  return {
    // The SDK compiles itself when installed from a folder: with the TypeScript this package is built and tested with.
    nodejs: { packageName: `${OUR_NAME}-${plugin}`, readme: readme("Node.js"), typescriptVersion: "~5.9.0", respectSchemaVersion: true },
    python: {
      packageName: `${OUR_NAME.replace(/-/g, "_")}_${plugin}`,
      readme: readme("Python"),
      respectSchemaVersion: true,
      pyproject: { enabled: true },
    },
    go: { importBasePath: `${goModule}/${PLUGIN_SDKS}/go/${plugin}`, respectSchemaVersion: true },
    csharp: { rootNamespace: "PulumiSnapshotRunTask", packageReferences: { Pulumi: DOTNET_PULUMI }, respectSchemaVersion: true },
    java: {
      basePackage: `io.github.${repository.owner.replace(/-/g, "_")}`,
      buildFiles: "gradle",
      gradleNexusPublishPluginVersion: GRADLE_NEXUS_PUBLISH_PLUGIN,
      dependencies: { "com.pulumi:pulumi": JAVA_PULUMI },
    },
  };
}

/** Where a property's description comes from: an interface (or class) of a source file. */
interface DocSource {
  file: string;
  container: string;
}

/**
 * The package schema of a provider plugin, derived from its resources' field tables (types, required inputs and
 * outputs, secrets, replacement) and described with the same doc comments the SDK's users read.
 */
export function buildSchema(pkg: PackageDefinition, release: PackageRelease, docs: DocComments): PackageSchema {
  const types: Record<string, ObjectSpec> = {};
  const builder = new SchemaBuilder(pkg.name, docs, types);
  const variables = Object.fromEntries(Object.entries<SettingSpec>(pkg.service.settings).map(([name, s]) => [name, configVariable(s)]));
  const addresses = repositoryAddresses(release.repository);
  const schema: PackageSchema = {
    name: pkg.name,
    displayName: pkg.displayName,
    version: release.version,
    description: pkg.description,
    keywords: ["pulumi", pkg.name, "category/utility", "kind/native"],
    license: "Apache-2.0",
    repository: addresses.web,
    homepage: addresses.web,
    publisher: release.repository.owner,
    logoUrl: addresses.logoUrl,
    pluginDownloadURL: addresses.pluginDownloadURL,
    configurationDocsUrl: addresses.installationDocs,
    config: { variables },
    provider: {
      description: `The provider of the ${pkg.name} package: where and how to reach the service.`,
      properties: {},
      inputProperties: variables,
    },
    types,
    resources: Object.fromEntries(pkg.resources.map((r) => [r.token, builder.resource(r)])),
    functions: Object.fromEntries(pkg.functions.map((f) => [f.token, builder.function(f)])),
    language: languageSpecs(pkg.name, pkg.description, release.repository),
  };
  return schema;
}

function configVariable(s: SettingSpec): PropertySpec {
  return { type: s.type ?? "string", description: `${s.doc} Environment: \`${s.env}\`.`, ...(s.secret ? { secret: true } : {}) };
}

class SchemaBuilder {
  constructor(
    private readonly pkg: string,
    private readonly docs: DocComments,
    private readonly types: Record<string, ObjectSpec>,
  ) {}

  resource(def: ResourceDefinition): ResourceSpec {
    const { fields } = def.table;
    const argsDocs = [def.docs.args].flat().map((container) => ({ file: def.docs.file, container }));
    const classDoc = { file: def.docs.file, container: def.docs.class };
    const args = Object.keys(fields).filter((k) => !fields[k].output);
    const inputProperties = Object.fromEntries(args.map((k) => [k, this.property(fields[k], argsDocs, k, def.docs.nested?.[k], true)]));
    const properties = Object.fromEntries(
      Object.keys(fields).map((k) => [k, this.property(fields[k], [classDoc, ...argsDocs], k, def.docs.nested?.[k], false)]),
    );
    return {
      description: `${this.docs.of(def.docs.file, def.docs.class) ?? ""}\n\n${usageSections(def.token, def.importId, this.docs.root)}`.trim(),
      properties,
      // Present in every state: the ids, required arguments and those with a default, but not a parameter group's (a
      // storage type's), which only the selected group's resources have.
      required: Object.keys(fields).filter(
        (k) => fields[k].output || (!fields[k].group && (fields[k].required || (fields[k].default && "value" in fields[k].default))),
      ),
      inputProperties,
      requiredInputs: args.filter((k) => fields[k].required && !fields[k].group && !fields[k].default),
    };
  }

  function(def: FunctionDefinition): { description?: string; inputs?: ObjectSpec; outputs: ObjectSpec } {
    const { file, itemsFile = file } = def.docs;
    // A result that is a record of its own is described where that record is declared.
    const outputsFile = def.docs.outputItems ? file : itemsFile;
    const spec: { description?: string; inputs?: ObjectSpec; outputs: ObjectSpec } = {
      description: this.docs.of(file, def.docs.function),
      outputs: this.object(def.outputs, { file: outputsFile, container: def.docs.outputs }, def.docs.outputItems, itemsFile),
    };
    if (def.docs.inputs) spec.inputs = this.object(def.inputs, { file: def.docs.file, container: def.docs.inputs });
    return spec;
  }

  private object(fields: FieldTable, doc: DocSource, itemsDoc?: string, itemsFile?: string): ObjectSpec {
    const properties = Object.fromEntries(Object.keys(fields).map((k) => [k, this.property(fields[k], [doc], k, itemsDoc, false, itemsFile)]));
    const required = Object.keys(fields).filter((k) => fields[k].required);
    return { type: "object", description: this.docs.of(doc.file, doc.container), properties, ...(required.length ? { required } : {}) };
  }

  /** A property: its type, its description from the first source that has one, secrecy and replacement. */
  private property(
    field: Field,
    sources: DocSource[],
    name: string,
    nestedDoc: string | undefined,
    input: boolean,
    nestedFile = sources[0].file,
  ): PropertySpec {
    const file = nestedFile;
    const description = sources.map((s) => this.docs.member(s.file, s.container, name)).find((d) => d !== undefined);
    const deprecation = sources.map((s) => this.docs.deprecation(s.file, s.container, name)).find((d) => d !== undefined);
    const spec: PropertySpec = { ...this.type(input ? (field.input ?? field.value) : field.value, file, nestedDoc) };
    if (description ?? deprecation) spec.description = description ?? deprecation;
    if (deprecation) spec.deprecationMessage = deprecation;
    if (field.secret) spec.secret = true;
    if (field.onChange === "replace") spec.replaceOnChanges = true;
    return spec;
  }

  private type(type: ValueType, file: string, nestedDoc?: string): TypeSpec {
    switch (type.type) {
      case "string":
      case "integer":
      case "boolean":
        return { type: type.type };
      case "array":
        return { type: "array", items: this.type(type.items, file, nestedDoc) };
      case "oneOf":
        return { oneOf: type.of.map((t) => this.type(t, file)) };
      case "object": {
        const token = `${this.pkg}:index:${type.name}`;
        if (!this.types[token]) {
          this.types[token] = { type: "object", properties: {} };
          this.types[token] = this.object(type.fields, { file, container: nestedDoc ?? type.name });
        }
        return { $ref: `#/types/${token}` };
      }
    }
  }
}
