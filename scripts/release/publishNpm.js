#!/usr/bin/env node
// `node scripts/release/publishNpm.js --tag <dist-tag> <tarball>...`: publishes each packed package to the npm
// registry with provenance (the registry records that the release workflow built it from the tagged commit), under
// the dist-tag (`next` for a pre-release, so that `latest` stays on the last release), unless that version is there
// already: a release whose later job failed is run again without failing on what it published the first time.
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const path = require("node:path");

/** The name and version of a packed package, from its package.json. */
function manifestOf(tarball) {
  const json = execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" });
  const { name, version } = JSON.parse(json);
  return { name, version };
}

/** Whether the registry has this version of the package; throws when it cannot say. */
function published(name, version) {
  const view = spawnSync("npm", ["view", `${name}@${version}`, "version", "--json"], { encoding: "utf8" });
  if (view.status === 0) return view.stdout.trim() !== "";
  if (/\bE404\b/.test(view.stdout + view.stderr)) return false;
  throw new Error(`npm view ${name}@${version} failed: ${(view.stderr || view.stdout).trim()}`);
}

function publishAll(tarballs, tag, log = console.log) {
  for (const tarball of tarballs) {
    const { name, version } = manifestOf(tarball);
    if (published(name, version)) {
      log(`${name}@${version} is on the registry already`);
      continue;
    }
    execFileSync("npm", ["publish", path.resolve(tarball), "--provenance", "--access", "public", "--tag", tag], { stdio: "inherit" });
    log(`${name}@${version} published (${tag})`);
  }
}

module.exports = { manifestOf, publishAll };

if (require.main === module) {
  try {
    const args = process.argv.slice(2);
    const at = args.indexOf("--tag");
    if (at < 0 || !args[at + 1] || args.length < 3) throw new Error("usage: node scripts/release/publishNpm.js --tag <dist-tag> <tarball>...");
    const tag = args[at + 1];
    publishAll(
      args.filter((_, i) => i !== at && i !== at + 1),
      tag,
    );
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
