#!/usr/bin/env node
// `node scripts/release/githubRelease.js --tag <tag> --notes <file> --prerelease <true|false> <asset>...`: makes the
// GitHub release of a tag with `gh` (GH_TOKEN): its title the tag, its notes the file's (the changelog's section),
// marked pre-release or not, with the assets attached. Where the release exists already (the workflow run again), its
// assets are replaced and its notes and pre-release mark set again, so that a second run ends where the first should.
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");

function releaseExists(tag) {
  const view = spawnSync("gh", ["release", "view", tag, "--json", "tagName"], { encoding: "utf8" });
  if (view.status === 0) return true;
  if (/release not found/i.test(view.stderr)) return false;
  throw new Error(`gh release view ${tag} failed: ${view.stderr.trim()}`);
}

function makeRelease({ tag, notes, prerelease, assets }, log = console.log) {
  const gh = (args) => execFileSync("gh", args, { stdio: "inherit" });
  const mark = `--prerelease=${prerelease}`;
  if (releaseExists(tag)) {
    gh(["release", "edit", tag, "--title", tag, "--notes-file", notes, mark]);
    if (assets.length) gh(["release", "upload", tag, ...assets, "--clobber"]);
    log(`release ${tag} updated: ${assets.length} assets`);
  } else {
    gh(["release", "create", tag, ...assets, "--verify-tag", "--title", tag, "--notes-file", notes, mark]);
    log(`release ${tag} made${prerelease ? " (pre-release)" : ""}: ${assets.length} assets`);
  }
}

function option(args, name) {
  const at = args.indexOf(`--${name}`);
  if (at < 0 || args[at + 1] === undefined) throw new Error(`--${name} is required`);
  return [args[at + 1], args.filter((_, i) => i !== at && i !== at + 1)];
}

module.exports = { makeRelease };

if (require.main === module) {
  try {
    let args = process.argv.slice(2);
    let tag, notes, prerelease;
    [tag, args] = option(args, "tag");
    [notes, args] = option(args, "notes");
    [prerelease, args] = option(args, "prerelease");
    if (!["true", "false"].includes(prerelease)) throw new Error("--prerelease is true or false");
    makeRelease({ tag, notes, prerelease: prerelease === "true", assets: args });
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
