#!/usr/bin/env node
// `node scripts/release/goModuleTag.js <tag> <commit>`: tags the Go module of the plugins' SDKs (plugin/sdks/go) for
// a release, `plugin/sdks/go/<tag>` on `<commit>`, and pushes the tag to origin: a Go module in a subfolder is
// versioned by tags that start with its folder, and `go get .../plugin/sdks/go@<tag>` then finds it. A tag already on
// origin at that commit is left as it is (the workflow run again); at another commit, it is an error: Go's checksum
// database remembers the first.
"use strict";
const { execFileSync } = require("node:child_process");

const MODULE_FOLDER = "plugin/sdks/go";

function git(args, cwd) {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

function tagModule(tag, commit, cwd = process.cwd(), log = console.log) {
  if (!/^v\d+\.\d+\.\d+/.test(tag)) throw new Error(`${tag} is not a release tag (v1.2.3)`);
  const name = `${MODULE_FOLDER}/${tag}`;
  const sha = git(["rev-parse", `${commit}^{commit}`], cwd);
  // An annotated tag lists its object, then the commit it points at (`<tag>^{}`).
  const remote = git(["ls-remote", "--tags", "origin", `refs/tags/${name}`, `refs/tags/${name}^{}`], cwd)
    .split("\n")
    .filter(Boolean);
  if (remote.length) {
    const at = (remote.find((l) => l.endsWith("^{}")) ?? remote[0]).split(/\s+/)[0];
    if (at !== sha) throw new Error(`${name} is on origin at ${at}, not ${sha}: a published Go module version is never moved`);
    log(`${name} is on origin already, at ${sha}`);
    return name;
  }
  git(["tag", name, sha], cwd);
  git(["push", "origin", `refs/tags/${name}`], cwd);
  log(`${name} pushed, at ${sha}`);
  return name;
}

module.exports = { tagModule };

if (require.main === module) {
  try {
    const [tag, commit] = process.argv.slice(2);
    if (!tag || !commit) throw new Error("usage: node scripts/release/goModuleTag.js <tag> <commit>");
    tagModule(tag, commit);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
