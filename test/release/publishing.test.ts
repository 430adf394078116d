import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";
import { FakeCommands } from "./fakeCommands";

/**
 * The release's publishing steps, as the workflow runs them, with `npm` and `gh` stood in for (they would reach the
 * registry and GitHub) and a real Git remote: each ends where it should on a first run, and on a second run (the
 * workflow run again after a later job failed) publishes nothing twice and moves nothing.
 */
const REPO = repositoryRoot();
const script = (name: string) => join(REPO, "scripts/release", name);

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "release-publishing-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const run = (name: string, args: string[], env: NodeJS.ProcessEnv, cwd = work) => {
  const result = spawnSync(process.execPath, [script(name), ...args], { cwd, env, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
};

describe("publishNpm.js", () => {
  /** A packed package, as npm pack writes one. */
  function tarball(name: string, version: string): string {
    const dir = join(work, `${name}-src`, "package");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version }));
    const file = join(work, `${name}-${version}.tgz`);
    execFileSync("tar", ["-czf", file, "-C", join(dir, ".."), "package"]);
    return file;
  }

  /** npm: `view` answers from the state's published versions (E404 otherwise), `publish` records. */
  const npm = () =>
    new FakeCommands().add(
      "npm",
      `if (args[0] === "view") {
         if (state.viewFails) { console.error("npm error code ECONNRESET"); process.exit(1); }
         const [name, version] = args[1].split(/@(?=[^@]*$)/);
         if ((state.published || []).includes(args[1])) { console.log(JSON.stringify(version)); process.exit(0); }
         console.log(JSON.stringify({ error: { code: "E404" } })); console.error("npm error code E404"); process.exit(1);
       }
       if (args[0] === "publish") {
         const manifest = JSON.parse(require("node:child_process").execFileSync("tar", ["-xzOf", args[1], "package/package.json"], { encoding: "utf8" }));
         state.published = [...(state.published || []), manifest.name + "@" + manifest.version];
       }`,
    );

  test("publishes each package with provenance under the dist-tag; a second run publishes nothing", () => {
    const fake = npm();
    const packages = [tarball("pulumi-snapshot-runtask", "1.2.3-rc.1"), tarball("pulumi-snapshot-runtask-runtask", "1.2.3-rc.1")];
    const first = run("publishNpm.js", ["--tag", "next", ...packages], fake.env());
    expect(first).toEqual({
      status: 0,
      stdout: "pulumi-snapshot-runtask@1.2.3-rc.1 published (next)\npulumi-snapshot-runtask-runtask@1.2.3-rc.1 published (next)",
      stderr: "",
    });
    expect(fake.calls("npm").filter((c) => c[0] === "publish")).toEqual(
      packages.map((p) => ["publish", p, "--provenance", "--access", "public", "--tag", "next"]),
    );
    const again = run("publishNpm.js", ["--tag", "next", ...packages], fake.env());
    expect(again.stdout).toBe(
      "pulumi-snapshot-runtask@1.2.3-rc.1 is on the registry already\npulumi-snapshot-runtask-runtask@1.2.3-rc.1 is on the registry already",
    );
    expect(fake.calls("npm").filter((c) => c[0] === "publish")).toHaveLength(2);
  });

  test("a registry that cannot say whether a version is there stops the release, publishing nothing", () => {
    const fake = npm().state({ viewFails: true });
    const result = run("publishNpm.js", ["--tag", "latest", tarball("pulumi-snapshot-runtask", "1.2.3")], fake.env());
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/npm view pulumi-snapshot-runtask@1\.2\.3 failed: npm error code ECONNRESET/);
    expect(fake.calls("npm").filter((c) => c[0] === "publish")).toEqual([]);
  });
});

describe("githubRelease.js", () => {
  /** gh: `release view` fails with "release not found" until `release create` has run. */
  const gh = () =>
    new FakeCommands().add(
      "gh",
      `if (args[0] === "release" && args[1] === "view") { if (!state.made) { console.error("release not found"); process.exit(1); } console.log("{}"); }
       if (args[0] === "release" && args[1] === "create") state.made = true;`,
    );

  test("makes the release of the tag: title, notes file, pre-release mark, assets; run again, it updates the same release", () => {
    const fake = gh();
    writeFileSync(join(work, "notes.md"), "- A change.\n");
    const assets = ["pulumi-resource-runtask-v1.2.3-rc.1-linux-amd64.tar.gz", "checksums.txt"];
    const args = ["--tag", "v1.2.3-rc.1", "--notes", "notes.md", "--prerelease", "true", ...assets];
    expect(run("githubRelease.js", args, fake.env()).stdout).toBe("release v1.2.3-rc.1 made (pre-release): 2 assets");
    expect(run("githubRelease.js", args, fake.env()).stdout).toBe("release v1.2.3-rc.1 updated: 2 assets");
    expect(fake.calls("gh")).toEqual([
      ["release", "view", "v1.2.3-rc.1", "--json", "tagName"],
      ["release", "create", "v1.2.3-rc.1", ...assets, "--verify-tag", "--title", "v1.2.3-rc.1", "--notes-file", "notes.md", "--prerelease=true"],
      ["release", "view", "v1.2.3-rc.1", "--json", "tagName"],
      ["release", "edit", "v1.2.3-rc.1", "--title", "v1.2.3-rc.1", "--notes-file", "notes.md", "--prerelease=true"],
      ["release", "upload", "v1.2.3-rc.1", ...assets, "--clobber"],
    ]);
  });

  test("a release is not a pre-release; a mark other than true or false is refused", () => {
    const fake = gh();
    expect(run("githubRelease.js", ["--tag", "v1.2.3", "--notes", "n.md", "--prerelease", "false", "a.tgz"], fake.env()).stdout).toBe(
      "release v1.2.3 made: 1 assets",
    );
    expect(fake.calls("gh")[1]).toContain("--prerelease=false");
    expect(run("githubRelease.js", ["--tag", "v1.2.3", "--notes", "n.md", "--prerelease", "yes"], fake.env()).stderr).toBe(
      "--prerelease is true or false",
    );
  });
});

describe("goModuleTag.js", () => {
  const git = (args: string[], cwd: string) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

  /** A clone of a bare origin, with two commits; returns their ids. */
  function repository(): { clone: string; origin: string; first: string; second: string } {
    const origin = join(work, "origin.git");
    const clone = join(work, "clone");
    git(["init", "--quiet", "--bare", origin], work);
    git(["clone", "--quiet", origin, clone], work);
    const commit = (message: string) => {
      writeFileSync(join(clone, "file.txt"), message);
      git(["add", "file.txt"], clone);
      git(["-c", "user.name=Release", "-c", "user.email=release@example.com", "commit", "--quiet", "-m", message], clone);
      return git(["rev-parse", "HEAD"], clone);
    };
    const first = commit("first");
    const second = commit("second");
    git(["push", "--quiet", "origin", "HEAD"], clone);
    return { clone, origin, first, second };
  }

  test("pushes plugin/sdks/go/<tag> at the release's commit; run again, leaves it; at another commit, refuses", () => {
    const { clone, origin, first, second } = repository();
    const tagged = run("goModuleTag.js", ["v1.2.3", second], process.env, clone);
    expect(tagged).toEqual({ status: 0, stdout: `plugin/sdks/go/v1.2.3 pushed, at ${second}`, stderr: "" });
    expect(git(["rev-parse", "refs/tags/plugin/sdks/go/v1.2.3"], origin)).toBe(second);
    expect(run("goModuleTag.js", ["v1.2.3", second], process.env, clone).stdout).toBe(`plugin/sdks/go/v1.2.3 is on origin already, at ${second}`);
    const moved = run("goModuleTag.js", ["v1.2.3", first], process.env, clone);
    expect(moved.status).toBe(1);
    expect(moved.stderr).toBe(`plugin/sdks/go/v1.2.3 is on origin at ${second}, not ${first}: a published Go module version is never moved`);
    expect(git(["rev-parse", "refs/tags/plugin/sdks/go/v1.2.3"], origin)).toBe(second);
  });

  test("an annotated tag on origin is compared by the commit it points at", () => {
    const { clone, second } = repository();
    git(["-c", "user.name=R", "-c", "user.email=r@example.com", "tag", "-a", "-m", "v1.0.0", "plugin/sdks/go/v1.0.0", second], clone);
    git(["push", "--quiet", "origin", "refs/tags/plugin/sdks/go/v1.0.0"], clone);
    git(["tag", "-d", "plugin/sdks/go/v1.0.0"], clone);
    expect(run("goModuleTag.js", ["v1.0.0", second], process.env, clone).stdout).toBe(`plugin/sdks/go/v1.0.0 is on origin already, at ${second}`);
    expect(run("goModuleTag.js", ["latest", second], process.env, clone).stderr).toBe("latest is not a release tag (v1.2.3)");
  });
});
