import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "../support/demoCommand";

/**
 * Every GitHub Actions workflow file of the repository, wherever it is (the release workflow, the examples'), passes
 * actionlint at the version toolchain/actionlint/go.mod pins, built by `npm run actionlint` (npm test runs it).
 * shellcheck and pyflakes, which actionlint runs on `run:` scripts where it finds them on PATH, are left out so that
 * every machine checks alike.
 */

const ACTIONLINT = join(REPO, ".engine/actionlint/actionlint");

/** The repository's workflow files, committed or not (ignored files left out), relative to its root. */
function workflowFiles(): string[] {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: REPO, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).stdout.split("\n");
  const files = [...git("ls-files", "--cached"), ...git("ls-files", "--others", "--exclude-standard")];
  return [...new Set(files.filter((f) => /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(f) && existsSync(join(REPO, f))))].sort();
}

function actionlint(file: string, cwd = REPO): { code: number | null; output: string } {
  if (!existsSync(ACTIONLINT)) throw new Error("actionlint is not built: run `npm run actionlint` (npm test does)");
  const run = spawnSync(ACTIONLINT, ["-no-color", "-shellcheck=", "-pyflakes=", file], { cwd, encoding: "utf8" });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

const workflows = workflowFiles();

test("the workflow files are found wherever they are", () => {
  expect(workflows).toEqual(
    expect.arrayContaining([
      ".github/workflows/release.yml",
      "examples/gitops/.github/workflows/infrastructure.yml",
      "examples/yaml-gitops/.github/workflows/infrastructure.yml",
    ]),
  );
});

test.each(workflows)("%s passes actionlint", (file) => {
  expect({ file, ...actionlint(file) }).toEqual({ file, code: 0, output: "" });
});

test("actionlint fails a workflow with mistakes, and says where", () => {
  const dir = mkdtempSync(join(tmpdir(), "actionlint-"));
  try {
    mkdirSync(join(dir, ".github/workflows"), { recursive: true });
    const file = ".github/workflows/broken.yml";
    writeFileSync(
      join(dir, file),
      [
        "on: push",
        "jobs:",
        "  update:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - uses: actions/checkout@v6",
        "        with:",
        "          fetch-deep: 1",
        "      - run: echo ${{ secret.TOKEN }}",
        "",
      ].join("\n"),
    );
    const result = actionlint(file, dir);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/broken\.yml:8:\d+: input "fetch-deep" is not defined/);
    expect(result.output).toMatch(/broken\.yml:9:\d+: undefined variable "secret"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
