#!/usr/bin/env node
// `node scripts/release/generatedSdk.js <dotnet|java> <out-dir>`: generates the .NET or Java SDK of each provider
// plugin from its schema (plugin/schema/<name>.json) with the `pulumi` CLI on PATH (`pulumi package gen-sdk`, through
// the CLI's own .NET or Java language host: their generators are not in the Go module proxy, so the release makes
// these SDKs and this repository holds none), into <out-dir>/<name>, and checks each project before anything is built
// or published from it: the package's name, version and dependencies as the schema sets them, the plugin it asks the
// engine for and where the engine downloads it, and (.NET) a logo that is an image. Prints each project's folder.
"use strict";
const { execFileSync } = require("node:child_process");
const { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } = require("node:fs");
const { Buffer } = require("node:buffer");
const { tmpdir } = require("node:os");
const path = require("node:path");

const REPO = path.resolve(__dirname, "../..");
const PLUGINS = ["snapshot", "runtask"];
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Every file under `dir`, relative to it. */
function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file).map((f) => path.join(name, f)) : [name];
  });
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What is wrong with a .NET project gen-sdk wrote for `schema` (nothing: an empty list). */
function dotnetProblems(dir, schema) {
  const { rootNamespace, packageReferences } = schema.language.csharp;
  const assembly = `${rootNamespace}.${schema.name[0].toUpperCase()}${schema.name.slice(1)}`;
  const csproj = path.join(dir, `${assembly}.csproj`);
  if (!existsSync(csproj)) return [`no ${assembly}.csproj: the package would not be ${assembly}`];
  const project = readFileSync(csproj, "utf8");
  const problems = [];
  if (!project.includes(`<Version>${schema.version}</Version>`)) problems.push(`${assembly}.csproj: its version is not ${schema.version}`);
  for (const [name, range] of Object.entries(packageReferences ?? {})) {
    if (!new RegExp(`<PackageReference Include="${escape(name)}" Version="${escape(range)}"`).test(project)) {
      problems.push(`${assembly}.csproj: no reference to ${name} ${range}`);
    }
  }
  problems.push(...pluginJsonProblems(path.join(dir, "pulumi-plugin.json"), schema));
  const logo = path.join(dir, "logo.png");
  if (!existsSync(logo) || !readFileSync(logo).subarray(0, 8).equals(PNG)) {
    problems.push(`logo.png is not a PNG: the generator downloads the schema's logoUrl (${schema.logoUrl}), which must serve one`);
  }
  if (!sourcesMention(dir, schema.pluginDownloadURL, ".cs")) problems.push(`no C# source names ${schema.pluginDownloadURL}`);
  return problems;
}

/** What is wrong with a Java project gen-sdk wrote for `schema` (nothing: an empty list). */
function javaProblems(dir, schema) {
  const { basePackage, dependencies } = schema.language.java;
  const gradle = path.join(dir, "build.gradle");
  if (!existsSync(gradle)) return ["no build.gradle: the schema's language.java asks for Gradle build files"];
  const build = readFileSync(gradle, "utf8");
  const problems = [];
  const coordinate = (key, value) => {
    if (!new RegExp(`^\\s*${key} = "${escape(value)}"$`, "m").test(build)) problems.push(`build.gradle: its ${key} is not "${value}"`);
  };
  coordinate("groupId", basePackage);
  coordinate("artifactId", schema.name);
  if (!build.includes(`? "${schema.version}"`)) problems.push(`build.gradle: its version is not ${schema.version}`);
  for (const [name, version] of Object.entries(dependencies ?? {})) {
    if (!build.includes(`implementation("${name}:${version}")`)) problems.push(`build.gradle: no dependency on ${name}:${version}`);
  }
  // Maven Central takes releases through its Portal's staging API (the OSSRH host is gone).
  if (!/id\("io\.github\.gradle-nexus\.publish-plugin"\)/.test(build) || !build.includes("PUBLISH_STAGING_URL")) {
    problems.push("build.gradle: it does not publish through the Central Portal's staging API (PUBLISH_STAGING_URL): a newer CLI's generator does");
  }
  // The plugin.json the build writes into the jar, which the Java host reads to tell the engine the plugin.
  const pluginName = /info\.metaClass\.name = "([^"]*)"/.exec(build)?.[1];
  if (pluginName !== schema.name) problems.push(`build.gradle: the plugin.json it writes names ${JSON.stringify(pluginName)}, not "${schema.name}"`);
  const javaPackage = path.join(dir, "src/main/java", ...basePackage.split("."), schema.name);
  if (!existsSync(javaPackage)) problems.push(`no ${path.relative(dir, javaPackage)}: the classes are not in ${basePackage}.${schema.name}`);
  if (!sourcesMention(dir, schema.pluginDownloadURL, ".java", ".gradle")) problems.push(`no Java source names ${schema.pluginDownloadURL}`);
  return problems;
}

function pluginJsonProblems(file, schema) {
  if (!existsSync(file)) return ["no pulumi-plugin.json"];
  const json = JSON.parse(readFileSync(file, "utf8"));
  const want = { resource: true, name: schema.name, version: schema.version, server: schema.pluginDownloadURL };
  return Object.entries(want)
    .filter(([key, value]) => json[key] !== value)
    .map(([key, value]) => `pulumi-plugin.json: ${key} is ${JSON.stringify(json[key])}, not ${JSON.stringify(value)}`);
}

function sourcesMention(dir, text, ...extensions) {
  return filesUnder(dir).some((f) => extensions.some((e) => f.endsWith(e)) && readFileSync(path.join(dir, f), "utf8").includes(text));
}

const CHECKS = { dotnet: dotnetProblems, java: javaProblems };

/** Generates the SDK of each plugin in `language` into `out/<name>`, checked; returns the folders. */
function generateSdks(language, out, schemaDir = path.join(REPO, "plugin/schema")) {
  if (!CHECKS[language]) throw new Error(`language ${language}: this script makes the dotnet and java SDKs`);
  mkdirSync(out, { recursive: true });
  return PLUGINS.map((plugin) => {
    const schemaFile = path.join(schemaDir, `${plugin}.json`);
    const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
    const work = mkdtempSync(path.join(tmpdir(), `gen-sdk-${language}-`));
    try {
      execFileSync("pulumi", ["package", "gen-sdk", schemaFile, "--language", language, "--out", work], { stdio: ["ignore", "inherit", "inherit"] });
      const generated = path.join(work, language);
      if (!existsSync(generated)) throw new Error(`pulumi package gen-sdk wrote no ${language}/ folder for ${plugin}`);
      const problems = CHECKS[language](generated, schema);
      if (problems.length) throw new Error(`the ${language} SDK of ${plugin}:\n  ${problems.join("\n  ")}`);
      const dir = path.join(out, plugin);
      rmSync(dir, { recursive: true, force: true });
      cpSync(generated, dir, { recursive: true });
      return dir;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
}

module.exports = { dotnetProblems, generateSdks, javaProblems };

if (require.main === module) {
  try {
    const [language, out] = process.argv.slice(2);
    if (!language || !out) throw new Error("usage: node scripts/release/generatedSdk.js <dotnet|java> <out-dir>");
    for (const dir of generateSdks(language, path.resolve(out))) console.log(dir);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
