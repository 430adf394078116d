import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";

/**
 * .github/workflows/release.yml, read as GitHub reads it: what a release builds, in which order, and what gates the
 * publishing. (Whether it is a valid workflow is actionlint's check, which runs on every workflow file.)
 */
const REPO = repositoryRoot();
const yaml: { load(text: string): any } = require("js-yaml");
const workflow = yaml.load(readFileSync(join(REPO, ".github/workflows/release.yml"), "utf8"));
const jobs: Record<string, any> = workflow.jobs;
const { TARGETS } = require("../../scripts/release/pluginArchives");
const steps = (job: string): string[] => jobs[job].steps.map((s: any) => s.run ?? s.uses);
const BUILDS = ["test", "plugins", "npm-package", "python-sdks", "dotnet-sdks", "java-sdks"];
const PUBLISHES = ["publish-npm", "publish-pypi", "publish-nuget", "publish-maven"];

test("runs on version tags, one release at a time, with read-only rights unless a job needs more", () => {
  expect(workflow.on).toEqual({ push: { tags: ["v*"] } });
  expect(workflow.concurrency).toEqual({ group: "release", "cancel-in-progress": false });
  expect(workflow.permissions).toEqual({ contents: "read" });
  const writers = Object.entries(jobs)
    .filter(([, job]) => Object.values(job.permissions ?? {}).includes("write"))
    .map(([name, job]) => [name, job.permissions]);
  expect(writers).toEqual([
    ["publish-npm", { contents: "read", "id-token": "write" }],
    ["publish-pypi", { "id-token": "write" }],
    ["github-release", { contents: "write" }],
  ]);
});

test("the plugins are built on each platform's own runner, for the platforms the engine downloads, and checked", () => {
  const matrix = jobs.plugins.strategy.matrix.include;
  expect(matrix.map((m: any) => m.target)).toEqual(TARGETS);
  const runners = Object.fromEntries(matrix.map((m: any) => [m.target, m.runner]));
  expect(runners["linux-arm64"]).toMatch(/-arm$/);
  expect(runners["darwin-arm64"]).toMatch(/^macos-\d+$/);
  expect(runners["darwin-amd64"]).toMatch(/^macos-\d+-intel$/);
  expect(runners["windows-amd64"]).toMatch(/^windows-/);
  const run = steps("plugins");
  expect(run).toContain('npm run --silent plugins -- --version "$VERSION" --target "${{ matrix.target }}" | tee plugins.out');
  expect(run).toContain('node scripts/release/pluginArchives.js --version "$VERSION" --target "${{ matrix.target }}" --out archives < plugins.out');
  expect(jobs.plugins.env.VERSION).toBe("${{ needs.prepare.outputs.version }}");
});

test("nothing is published until the tests and every build passed; the GitHub release comes last, from the notes", () => {
  for (const job of [...BUILDS]) expect([job, jobs[job].needs]).toEqual([job, "prepare"]);
  for (const job of PUBLISHES) expect([job, [...jobs[job].needs].sort()]).toEqual([job, ["prepare", ...BUILDS].sort()]);
  expect([...jobs["github-release"].needs].sort()).toEqual(["prepare", ...PUBLISHES].sort());
  expect(steps("prepare")).toContain('node scripts/release/version.js "$GITHUB_REF_NAME" >> "$GITHUB_OUTPUT"');
  expect(steps("prepare")).toContain('node scripts/release/notes.js "${{ steps.release.outputs.version }}" > release-notes.md');
  const release = steps("github-release");
  expect(release).toContain('node scripts/release/goModuleTag.js "$GITHUB_REF_NAME" "$GITHUB_SHA"');
  expect(release).toContain(
    'node scripts/release/githubRelease.js --tag "$GITHUB_REF_NAME" --notes release-notes.md --prerelease "${{ needs.prepare.outputs.prerelease }}" assets/*',
  );
});

test("the release's assets carry SHA256SUMS of the archives and the npm package, as the step writes it and sha256sum --check reads it", () => {
  const step = jobs["github-release"].steps.find((s: any) => s.name === "Checksums of the assets").run as string;
  const dir = mkdtempSync(join(tmpdir(), "release-checksums-"));
  try {
    const version = "1.2.3";
    const assets = [`pulumi-resource-runtask-v${version}-linux-amd64.tar.gz`, `pulumi-resource-snapshot-v${version}-windows-amd64.tar.gz`];
    mkdirSync(join(dir, "assets"));
    mkdirSync(join(dir, "packages"));
    for (const asset of assets) writeFileSync(join(dir, "assets", asset), `archive ${asset}`);
    writeFileSync(join(dir, "packages", `pulumi-snapshot-runtask-${version}.tgz`), "package");
    // The step as the runner runs it (bash), the workflow's expressions given their values.
    execFileSync("bash", ["-e", "-c", step.replaceAll("${{ needs.prepare.outputs.version }}", version)], { cwd: dir });
    const sums = readFileSync(join(dir, "assets/SHA256SUMS"), "utf8");
    expect(
      sums
        .split("\n")
        .filter(Boolean)
        .map((l) => l.slice(66)),
    ).toEqual([...assets, `pulumi-snapshot-runtask-${version}.tgz`]);
    expect(execFileSync("sha256sum", ["--check", "SHA256SUMS"], { cwd: join(dir, "assets"), encoding: "utf8" })).toBe(
      [...assets, `pulumi-snapshot-runtask-${version}.tgz`].map((a) => `${a}: OK\n`).join(""),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The step comes before the release is made from `assets/*`.
  const names = jobs["github-release"].steps.map((s: any) => s.name);
  expect(names.indexOf("Checksums of the assets")).toBeLessThan(names.indexOf("The GitHub release, with the plugins' archives the engine downloads"));
});

test("each registry gets its packages: npm (dist-tag by pre-release), PyPI, NuGet, Maven Central", () => {
  expect(steps("publish-npm")).toContain('node scripts/release/publishNpm.js --tag "${{ needs.prepare.outputs.npm-tag }}" packages/*.tgz');
  expect(steps("npm-package")).toContain('for sdk in plugin/sdks/nodejs/*/; do node scripts/release/nodeSdk.js "$sdk" packages; done');
  expect(steps("publish-pypi")).toContain("pypa/gh-action-pypi-publish@release/v1");
  expect(steps("dotnet-sdks")).toContain("node scripts/release/generatedSdk.js dotnet sdks/dotnet");
  expect(steps("java-sdks")).toContain("node scripts/release/generatedSdk.js java sdks/java");
  // The CLI that generates the .NET and Java SDKs is the one the tests ran: version.js reads it from toolchain/go.mod.
  for (const job of ["dotnet-sdks", "java-sdks"]) {
    const cli = jobs[job].steps.find((s: any) => String(s.uses).startsWith("pulumi/actions@"));
    expect(cli.with["pulumi-version"]).toBe("${{ needs.prepare.outputs.pulumi-version }}");
  }
  expect(jobs["publish-maven"].steps.at(-1).env).toMatchObject({
    PUBLISH_STAGING_URL: "https://ossrh-staging-api.central.sonatype.com/service/local/",
    SIGNING_KEY: "${{ secrets.MAVEN_SIGNING_KEY }}",
  });
});
