#!/usr/bin/env node
// `node scripts/release/version.js <tag>`: what a release of that tag is, as `key=value` lines for $GITHUB_OUTPUT:
// `version` (the tag without its `v`, which must be package.json's version), `prerelease` (`true` for a semver
// pre-release such as 0.2.0-rc.1: the GitHub release is marked so and npm's `latest` stays on the last release),
// `npm-tag` (`latest` or `next`) and `pulumi-version` (the CLI toolchain/go.mod pins, which generates the .NET and
// Java SDKs as it runs the tests). Exits 1, saying why, on a tag that is no release of this package.
"use strict";
const { readFileSync } = require("node:fs");
const path = require("node:path");

const REPO = path.resolve(__dirname, "../..");
/** Semantic Versioning 2.0.0's grammar (semver.org), anchored. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** The release a tag makes of a package at `packageVersion`; throws when the tag is not `v<packageVersion>`. */
function releaseOf(tag, packageVersion, pulumiVersion) {
  const match = /^v(.*)$/.exec(tag);
  if (!match || !SEMVER.test(match[1])) throw new Error(`tag ${tag} is not v<semantic version> (v1.2.3, v1.2.3-rc.1)`);
  const version = match[1];
  if (version !== packageVersion) {
    throw new Error(`tag ${tag} names version ${version}, but package.json is at ${packageVersion}: bump package.json (and CHANGELOG.md) first`);
  }
  if (/\+/.test(version)) throw new Error(`tag ${tag} carries build metadata, which npm and PyPI drop: tag the version alone`);
  const prerelease = SEMVER.exec(version)[4] !== undefined;
  return { version, prerelease, npmTag: prerelease ? "next" : "latest", pulumiVersion };
}

/** The version of github.com/pulumi/pulumi/pkg/v3 that toolchain/go.mod requires, without its `v`. */
function pinnedPulumi(goMod = readFileSync(path.join(REPO, "toolchain/go.mod"), "utf8")) {
  const match = /^\s*github\.com\/pulumi\/pulumi\/pkg\/v3 v(\S+)/m.exec(goMod);
  if (!match) throw new Error("toolchain/go.mod requires no github.com/pulumi/pulumi/pkg/v3");
  return match[1];
}

module.exports = { releaseOf, pinnedPulumi };

if (require.main === module) {
  try {
    if (process.argv.length !== 3) throw new Error("usage: node scripts/release/version.js <tag>");
    const { version } = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8"));
    const release = releaseOf(process.argv[2], version, pinnedPulumi());
    process.stdout.write(
      `version=${release.version}\nprerelease=${release.prerelease}\nnpm-tag=${release.npmTag}\npulumi-version=${release.pulumiVersion}\n`,
    );
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
