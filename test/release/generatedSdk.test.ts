import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { schemaText } from "../../plugin/schema/load";
import { repositoryRoot } from "../../toolchain/repository";
import { FakeCommands } from "./fakeCommands";

/**
 * The release's check of the .NET and Java SDKs a released CLI generates (scripts/release/generatedSdk.js), which
 * cannot be generated here: their generators are not in the Go module proxy. The projects below are written as the
 * generators' templates write them (pulumi/pulumi-dotnet `csharpProjectFileTemplateText`, pulumi/pulumi-java
 * `build.gradle.template`) for this repository's schemas; the check passes them, and names what is wrong in each
 * project that would publish the wrong package. The script runs `pulumi package gen-sdk`, stood in for here.
 */
const REPO = repositoryRoot();
const { dotnetProblems, javaProblems } = require("../../scripts/release/generatedSdk");
const schema = JSON.parse(schemaText("runtask"));
const LOGO = readFileSync(join(REPO, "docs/logo.png"));

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "generated-sdk-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

function write(dir: string, files: Record<string, string | Buffer>): string {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/** A .NET project as the generator writes it for a schema (the parts the check reads). */
function dotnetProject(s: any, change: (files: Record<string, string | Buffer>) => void = () => {}): Record<string, string | Buffer> {
  const assembly = `${s.language.csharp.rootNamespace}.${s.name[0].toUpperCase()}${s.name.slice(1)}`;
  const files: Record<string, string | Buffer> = {
    [`${assembly}.csproj`]: `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <Authors>${s.publisher}</Authors>
    <PackageIcon>logo.png</PackageIcon>
    <Version>${s.version}</Version>
    <TargetFramework>net6.0</TargetFramework>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Pulumi" Version="${s.language.csharp.packageReferences.Pulumi}" />
  </ItemGroup>
</Project>
`,
    "pulumi-plugin.json": JSON.stringify({ resource: true, name: s.name, version: s.version, server: s.pluginDownloadURL }, null, 2),
    "logo.png": LOGO,
    "Utilities.cs": `dst.PluginDownloadURL = src?.PluginDownloadURL ?? "${s.pluginDownloadURL}";\n`,
    "RunTask.cs": "namespace PulumiSnapshotRunTask.Runtask {}\n",
  };
  change(files);
  return files;
}

/** A Java project as the generator writes it for a schema, with Gradle build files (the parts the check reads). */
function javaProject(s: any, change: (files: Record<string, string | Buffer>) => void = () => {}): Record<string, string | Buffer> {
  const { basePackage, gradleNexusPublishPluginVersion, dependencies } = s.language.java;
  const files: Record<string, string | Buffer> = {
    "build.gradle": `plugins {
    id("signing")
    id("java-library")
    id("maven-publish")
    id("io.github.gradle-nexus.publish-plugin") version "${gradleNexusPublishPluginVersion}"
}

group = "${basePackage}"

def resolvedVersion = System.getenv("PACKAGE_VERSION") ?:
    (project.version == "unspecified"
         ? "${s.version}"
         : project.version)

def publishRepoURL = System.getenv("PUBLISH_REPO_URL") ?: "https://central.sonatype.com/repository/maven-snapshots/"
def publishStagingURL = System.getenv("PUBLISH_STAGING_URL") ?: "https://ossrh-staging-api.central.sonatype.com/service/local/"

dependencies {
${Object.entries(dependencies)
  .map(([k, v]) => `    implementation("${k}:${v}")`)
  .join("\n")}
}

def genPulumiResources = tasks.register('genPulumiResources') {
    doLast {
        info.metaClass.resource = true
        info.metaClass.name = "${s.name}"
        info.metaClass.version = resolvedVersion
        info.metaClass.server = "${s.pluginDownloadURL}"
    }
}

publishing {
    publications {
        mainPublication(MavenPublication) {
            groupId = "${basePackage}"
            artifactId = "${s.name}"
            version = resolvedVersion
        }
    }
}
`,
    "settings.gradle": `rootProject.name = "${basePackage}.${s.name}"\n`,
    [`src/main/java/${basePackage.replace(/\./g, "/")}/${s.name}/RunTask.java`]: `package ${basePackage}.${s.name};\n`,
  };
  change(files);
  return files;
}

describe(".NET", () => {
  test("a project as the generator writes it for the schema passes", () => {
    expect(dotnetProblems(write(work, dotnetProject(schema)), schema)).toEqual([]);
  });

  test("what would publish the wrong package is named", () => {
    const dir = write(
      work,
      dotnetProject(schema, (files) => {
        files["PulumiSnapshotRunTask.Runtask.csproj"] = (files["PulumiSnapshotRunTask.Runtask.csproj"] as string)
          .replace(`<Version>${schema.version}</Version>`, "<Version>0.0.1</Version>")
          .replace(/Version="\[[^"]+"/, 'Version="[3.30.0,4)"');
        files["logo.png"] = "<html>404: Not Found</html>";
        files["pulumi-plugin.json"] = JSON.stringify({ resource: true, name: "runtask", version: schema.version });
        files["Utilities.cs"] = "";
      }),
    );
    expect(dotnetProblems(dir, schema)).toEqual([
      `PulumiSnapshotRunTask.Runtask.csproj: its version is not ${schema.version}`,
      `PulumiSnapshotRunTask.Runtask.csproj: no reference to Pulumi ${schema.language.csharp.packageReferences.Pulumi}`,
      `pulumi-plugin.json: server is undefined, not "${schema.pluginDownloadURL}"`,
      `logo.png is not a PNG: the generator downloads the schema's logoUrl (${schema.logoUrl}), which must serve one`,
      `no C# source names ${schema.pluginDownloadURL}`,
    ]);
  });

  test("a project named otherwise is refused at once", () => {
    expect(dotnetProblems(write(work, { "Pulumi.Runtask.csproj": "<Project />" }), schema)).toEqual([
      "no PulumiSnapshotRunTask.Runtask.csproj: the package would not be PulumiSnapshotRunTask.Runtask",
    ]);
  });
});

describe("Java", () => {
  test("a project as the generator writes it for the schema passes", () => {
    expect(javaProblems(write(work, javaProject(schema)), schema)).toEqual([]);
  });

  test("an older generator's project (no coordinates for a publisher other than Pulumi, the retired OSSRH host) is named", () => {
    const dir = write(
      work,
      javaProject(schema, (files) => {
        files["build.gradle"] = (files["build.gradle"] as string)
          .replace(`groupId = "${schema.language.java.basePackage}"`, 'groupId = ""')
          .replace(`artifactId = "runtask"`, 'artifactId = ""')
          .replace(`info.metaClass.name = "runtask"`, 'info.metaClass.name = ""')
          .replace(/def publishStagingURL.*\n/, "");
      }),
    );
    expect(javaProblems(dir, schema)).toEqual([
      `build.gradle: its groupId is not "${schema.language.java.basePackage}"`,
      'build.gradle: its artifactId is not "runtask"',
      "build.gradle: it does not publish through the Central Portal's staging API (PUBLISH_STAGING_URL): a newer CLI's generator does",
      'build.gradle: the plugin.json it writes names "", not "runtask"',
    ]);
  });

  test("classes outside the base package, or no Gradle build, are named", () => {
    const dir = write(
      work,
      javaProject(schema, (files) => {
        delete files[`src/main/java/${schema.language.java.basePackage.replace(/\./g, "/")}/runtask/RunTask.java`];
        files["src/main/java/com/pulumi/runtask/RunTask.java"] = "package com.pulumi.runtask;\n";
      }),
    );
    expect(javaProblems(dir, schema)).toEqual([
      `no src/main/java/${schema.language.java.basePackage.replace(/\./g, "/")}/runtask: the classes are not in ${schema.language.java.basePackage}.runtask`,
    ]);
    expect(javaProblems(mkdtempSync(join(work, "empty-")), schema)).toEqual([
      "no build.gradle: the schema's language.java asks for Gradle build files",
    ]);
  });
});

test("as the workflow runs it: gen-sdk of each schema with the CLI, each project checked, then placed under the folder given", () => {
  // pulumi: `package gen-sdk <schema> --language <l> --out <dir>` writes <dir>/<l>/, here from the fixtures above.
  const fixtures = join(work, "fixtures");
  for (const plugin of ["snapshot", "runtask"]) {
    const s = JSON.parse(schemaText(plugin));
    write(join(fixtures, plugin, "dotnet"), dotnetProject(s));
    write(join(fixtures, plugin, "java"), javaProject(s));
  }
  const pulumi = new FakeCommands().add(
    "pulumi",
    `const plugin = require("node:path").basename(args[2], ".json");
     const language = args[args.indexOf("--language") + 1], out = args[args.indexOf("--out") + 1];
     fs.cpSync(path.join(${JSON.stringify(fixtures)}, plugin, language), path.join(out, language), { recursive: true });`,
  );
  const out = join(work, "sdks");
  const run = spawnSync(process.execPath, [join(REPO, "scripts/release/generatedSdk.js"), "java", out], {
    cwd: REPO,
    env: pulumi.env(),
    encoding: "utf8",
  });
  expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
    status: 0,
    stdout: `${join(out, "snapshot")}\n${join(out, "runtask")}\n`,
    stderr: "",
  });
  expect(pulumi.calls("pulumi").map((c) => c.slice(0, 2).concat(c.slice(3, 5)))).toEqual([
    ["package", "gen-sdk", "--language", "java"],
    ["package", "gen-sdk", "--language", "java"],
  ]);
  expect(pulumi.calls("pulumi").map((c) => c[2])).toEqual(["snapshot", "runtask"].map((p) => join(REPO, "plugin/schema", `${p}.json`)));
  expect(readFileSync(join(out, "runtask/build.gradle"), "utf8")).toContain('artifactId = "runtask"');

  // A project that would publish the wrong package stops the release before anything is built.
  writeFileSync(join(fixtures, "runtask", "dotnet", "logo.png"), "Not Found");
  const bad = spawnSync(process.execPath, [join(REPO, "scripts/release/generatedSdk.js"), "dotnet", out], {
    cwd: REPO,
    env: pulumi.env(),
    encoding: "utf8",
  });
  expect(bad.status).toBe(1);
  expect(bad.stderr).toMatch(/^the dotnet SDK of runtask:\n {2}logo\.png is not a PNG/m);
});
