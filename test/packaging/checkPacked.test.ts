import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";

/** What the release workflow checks before it publishes, on a fresh pack of this repository. */
test("scripts/checkPacked.js: the packed package installs, type-checks under Pulumi's template, and works", () => {
  const repo = repositoryRoot();
  const dir = mkdtempSync(join(tmpdir(), "pack-"));
  try {
    const tarball = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", dir], { cwd: repo, encoding: "utf8" })
      .trim()
      .split("\n")
      .pop()!;
    const out = execFileSync(process.execPath, [join(repo, "scripts/checkPacked.js"), join(dir, tarball)], {
      cwd: repo,
      encoding: "utf8",
      stdio: "pipe",
    });
    expect(out).toContain("round trip through the installed provider: ok");
    expect(out).toContain(`${tarball}: installs, type-checks and works`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);

test("the release workflow tests, checks the packed package, and publishes it with provenance on a version tag", () => {
  const workflow = readFileSync(join(repositoryRoot(), ".github/workflows/release.yml"), "utf8");
  expect(workflow).toMatch(/on:\s*\n\s+push:\s*\n\s+tags: \["v\*"\]/);
  expect(workflow).toMatch(/id-token: write/);
  const order = ["run: bash .ci/run", "npm pack --ignore-scripts", "run: node scripts/checkPacked.js", "run: node scripts/release/publishNpm.js"].map(
    (s) => workflow.indexOf(s),
  );
  expect(order.every((i) => i > 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  expect(readFileSync(join(repositoryRoot(), "scripts/release/publishNpm.js"), "utf8")).toContain("--provenance");
});
