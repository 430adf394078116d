import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";

/**
 * What a tag releases (scripts/release/version.js: the version, whether it is a pre-release, npm's dist-tag, the CLI
 * that generates the .NET and Java SDKs) and its notes (scripts/release/notes.js: CHANGELOG.md's section), as the
 * release workflow's first job computes them.
 */
const REPO = repositoryRoot();
const { releaseOf, pinnedPulumi } = require("../../scripts/release/version");
const { notesOf } = require("../../scripts/release/notes");
const VERSION: string = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;

const run = (script: string, args: string[]) =>
  spawnSync(process.execPath, [join(REPO, "scripts/release", script), ...args], { cwd: REPO, encoding: "utf8" });

describe("the release a tag makes", () => {
  test.each([
    ["v1.2.3", "1.2.3", false, "latest"],
    ["v1.2.3-rc.1", "1.2.3-rc.1", true, "next"],
    ["v2.0.0-beta", "2.0.0-beta", true, "next"],
    ["v0.1.0", "0.1.0", false, "latest"],
  ])("%s: version %s, pre-release %s, npm dist-tag %s", (tag, version, prerelease, npmTag) => {
    expect(releaseOf(tag, version, "3.274.1")).toEqual({ version, prerelease, npmTag, pulumiVersion: "3.274.1" });
  });

  test.each([
    ["1.2.3", "1.2.3", /tag 1\.2\.3 is not v<semantic version>/],
    ["v1.2", "1.2", /is not v<semantic version>/],
    ["v01.2.3", "01.2.3", /is not v<semantic version>/],
    ["v1.2.4", "1.2.3", /names version 1\.2\.4, but package\.json is at 1\.2\.3: bump package\.json/],
    ["v1.2.3+build.5", "1.2.3+build.5", /build metadata/],
  ])("%s against package.json %s is refused", (tag, version, message) => {
    expect(() => releaseOf(tag, version, "3.274.1")).toThrow(message);
  });

  test("the CLI that generates the .NET and Java SDKs is the one toolchain/go.mod pins, which the tests run", () => {
    expect(pinnedPulumi()).toBe(/github\.com\/pulumi\/pulumi\/pkg\/v3 v(\S+)/.exec(readFileSync(join(REPO, "toolchain/go.mod"), "utf8"))![1]);
    expect(() => pinnedPulumi("module x\n")).toThrow(/requires no github\.com\/pulumi\/pulumi\/pkg\/v3/);
  });

  test("as the workflow runs it: key=value lines for $GITHUB_OUTPUT, or exit 1 with the reason", () => {
    const ok = run("version.js", [`v${VERSION}`]);
    expect({ status: ok.status, stdout: ok.stdout }).toEqual({
      status: 0,
      stdout: `version=${VERSION}\nprerelease=false\nnpm-tag=latest\npulumi-version=${pinnedPulumi()}\n`,
    });
    const wrong = run("version.js", ["v99.0.0"]);
    expect({ status: wrong.status, stdout: wrong.stdout, stderr: wrong.stderr.trim() }).toEqual({
      status: 1,
      stdout: "",
      stderr: `tag v99.0.0 names version 99.0.0, but package.json is at ${VERSION}: bump package.json (and CHANGELOG.md) first`,
    });
  });
});

describe("the release notes", () => {
  const CHANGELOG = `# Changelog

Intro text.

## [Unreleased]

### Added

- Something coming.

## [1.2.0] - 2026-11-30

### Fixed

- A fix.

\`\`\`sh
## not a heading
\`\`\`

## 1.1.0

- Older.

## [1.0.0] - 2026-01-01

[1.2.0]: https://github.com/acme/x/compare/v1.1.0...v1.2.0
[1.0.0]: https://github.com/acme/x/releases/tag/v1.0.0
`;

  test("a version's section, without its heading, whatever the heading's form", () => {
    expect(notesOf("1.2.0", CHANGELOG)).toBe("### Fixed\n\n- A fix.\n\n```sh\n## not a heading\n```\n");
    expect(notesOf("1.1.0", CHANGELOG)).toBe("- Older.\n");
  });

  test("a pre-release without a section of its own takes Unreleased; with one, its own", () => {
    expect(notesOf("1.3.0-rc.1", CHANGELOG)).toBe("### Added\n\n- Something coming.\n");
    expect(notesOf("1.2.0-rc.1", `## [1.2.0-rc.1]\n\n- The candidate.\n${CHANGELOG}`)).toBe("- The candidate.\n");
  });

  test("a release without notes is refused: no section, or an empty one (link references are not notes)", () => {
    expect(() => notesOf("1.3.0", CHANGELOG)).toThrow(/CHANGELOG\.md has no section "## \[1\.3\.0\]": write the release's notes there/);
    expect(() => notesOf("1.0.0", CHANGELOG)).toThrow(/section "1\.0\.0" is empty/);
    expect(() => notesOf("2.0.0-rc.1", "# Changelog\n")).toThrow(/nor "## \[Unreleased\]"/);
  });

  test("CHANGELOG.md as committed: its Unreleased section is the notes of a pre-release of the next version", () => {
    const changelog = readFileSync(join(REPO, "CHANGELOG.md"), "utf8");
    expect(notesOf(`${VERSION}-rc.1`, changelog)).toMatch(/^The first release\.\n\n### Added\n/);
    const printed = run("notes.js", [`${VERSION}-rc.1`]);
    expect({ status: printed.status, stdout: printed.stdout }).toEqual({ status: 0, stdout: notesOf(`${VERSION}-rc.1`, changelog) });
  });
});
