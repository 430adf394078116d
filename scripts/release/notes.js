#!/usr/bin/env node
// `node scripts/release/notes.js <version> [CHANGELOG.md]`: prints the release notes of a version, its section of the
// changelog (Keep a Changelog: `## [1.2.0] - 2026-11-30`, or `## 1.2.0`), without its heading. A pre-release without a
// section of its own takes the `Unreleased` section, the notes of what it previews. Exits 1, saying why, when there
// are no notes: a release is not made without them.
"use strict";
const { readFileSync } = require("node:fs");
const path = require("node:path");

/** The `## ` sections of a changelog: each heading's version (or `Unreleased`) and the text under it. */
function sections(changelog) {
  const found = [];
  let current;
  let fenced = false;
  for (const line of changelog.split(/\r?\n/)) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^## +\[?([^\]\s]+)\]?(?:\s.*)?$/.exec(line);
    if (heading) found.push((current = { name: heading[1], lines: [] }));
    else if (!fenced && /^# /.test(line)) current = undefined;
    else if (current) current.lines.push(line);
  }
  // Link references (`[1.2.0]: https://...`) close a Keep a Changelog file; they belong to no section.
  return found.map(({ name, lines }) => ({
    name,
    text: lines
      .filter((l) => !/^\[[^\]]+\]:\s/.test(l))
      .join("\n")
      .trim(),
  }));
}

/** The notes of `version`; throws when the changelog has none for it. */
function notesOf(version, changelog) {
  const all = sections(changelog);
  const own = all.find((s) => s.name === version || s.name === `v${version}`);
  const prerelease = /^[^+]*-/.test(version);
  const section = own ?? (prerelease ? all.find((s) => s.name.toLowerCase() === "unreleased") : undefined);
  if (!section) {
    throw new Error(
      `CHANGELOG.md has no section "## [${version}]"${prerelease ? ' nor "## [Unreleased]"' : ""}: ` +
        "write the release's notes there (move the Unreleased entries under the version, with the date) and tag again",
    );
  }
  if (!section.text) throw new Error(`CHANGELOG.md's section "${section.name}" is empty: the release would have no notes`);
  return `${section.text}\n`;
}

module.exports = { notesOf, sections };

if (require.main === module) {
  try {
    const [version, file = path.resolve(__dirname, "../../CHANGELOG.md")] = process.argv.slice(2);
    if (!version) throw new Error("usage: node scripts/release/notes.js <version> [CHANGELOG.md]");
    process.stdout.write(notesOf(version, readFileSync(file, "utf8")));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
