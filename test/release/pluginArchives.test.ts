import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";
import { FakeCommands } from "./fakeCommands";

/**
 * The release's check of the archives `npm run plugins` made on each platform's runner
 * (scripts/release/pluginArchives.js): it takes the paths printed last, wants exactly the two plugins of this version
 * and platform under Pulumi's names, each holding its executable; signs macOS's ad hoc (`codesign`, a stand-in here)
 * and packs them again; runs with `--help` what this machine can run; and refuses anything else, saying what.
 */
const REPO = repositoryRoot();
const SCRIPT = join(REPO, "scripts/release/pluginArchives.js");
const { hostTarget } = require("../../scripts/release/pluginArchives");
const HOST: string = hostTarget();

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "plugin-archives-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** An archive as `npm run plugins` packs one: the executable (a shell script here) at its root. */
function archive(plugin: string, version: string, target: string, options: { exe?: string; usage?: string; exit?: number } = {}): string {
  const {
    exe = `pulumi-resource-${plugin}${target.startsWith("windows") ? ".exe" : ""}`,
    usage = `Usage: pulumi-resource-${plugin} [engine-address]`,
    exit = 0,
  } = options;
  const dir = mkdtempSync(join(work, "pack-"));
  writeFileSync(join(dir, exe), `#!/bin/sh\necho '${usage}'\nexit ${exit}\n`);
  chmodSync(join(dir, exe), 0o755);
  writeFileSync(join(dir, "LICENSE"), "Apache-2.0\n");
  const file = join(work, `pulumi-resource-${plugin}-v${version}-${target}.tar.gz`);
  expect(spawnSync("tar", ["-czf", file, "-C", dir, exe, "LICENSE"]).status).toBe(0);
  return file;
}

function finish(printed: string[], version: string, target: string, env: NodeJS.ProcessEnv = process.env) {
  const out = join(work, "out");
  const run = spawnSync(process.execPath, [SCRIPT, "--version", version, "--target", target, "--out", out], {
    input: ["building the plugins...", "packing...", ...printed, ""].join("\n"),
    encoding: "utf8",
    env,
  });
  return { status: run.status, stdout: run.stdout.trim(), stderr: run.stderr.trim(), out };
}

test("this machine's archives: checked, run with --help, copied, their paths printed", () => {
  const archives = ["snapshot", "runtask"].map((p) => archive(p, "1.2.3", HOST));
  const run = finish(archives, "1.2.3", HOST);
  expect(run.status).toBe(0);
  expect(run.stdout.split("\n")).toEqual(["snapshot", "runtask"].map((p) => join(run.out, `pulumi-resource-${p}-v1.2.3-${HOST}.tar.gz`)));
  expect(run.stderr).toContain("pulumi-resource-runtask: runs on this machine");
  for (const [i, file] of run.stdout.split("\n").entries()) expect(readFileSync(file).equals(readFileSync(archives[i]))).toBe(true);
});

test("macOS's: each executable signed ad hoc and verified, then packed again with every entry", () => {
  const codesign = new FakeCommands().add("codesign", "");
  const archives = ["snapshot", "runtask"].map((p) => archive(p, "1.2.3", "darwin-arm64"));
  const run = finish(archives, "1.2.3", "darwin-arm64", codesign.env());
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.stringContaining("signed ad hoc") });
  const calls = codesign.calls("codesign");
  expect(calls.map((c) => c.slice(0, -1))).toEqual([
    ["--sign", "-", "--force"],
    ["--verify", "--strict"],
    ["--sign", "-", "--force"],
    ["--verify", "--strict"],
  ]);
  expect(calls.map((c) => c[c.length - 1].split("/").pop())).toEqual([
    "pulumi-resource-snapshot",
    "pulumi-resource-snapshot",
    "pulumi-resource-runtask",
    "pulumi-resource-runtask",
  ]);
  const listed = spawnSync("tar", ["-tzf", join(run.out, "pulumi-resource-runtask-v1.2.3-darwin-arm64.tar.gz")], { encoding: "utf8" }).stdout;
  expect(listed.split("\n").filter(Boolean).sort()).toEqual(["LICENSE", "pulumi-resource-runtask"]);
});

test("a failed signature fails the release", () => {
  const codesign = new FakeCommands().add("codesign", "if (args[0] === '--verify') process.exit(1);");
  const run = finish(
    ["snapshot", "runtask"].map((p) => archive(p, "1.2.3", "darwin-amd64")),
    "1.2.3",
    "darwin-amd64",
    codesign.env(),
  );
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/codesign --verify --strict/);
});

test.each([
  [
    "a missing plugin",
    () => [archive("runtask", "1.2.3", "linux-arm64")],
    /the release wants .* \(missing: pulumi-resource-snapshot-v1\.2\.3-linux-arm64\.tar\.gz\)/,
  ],
  [
    "another version's archives",
    () => ["snapshot", "runtask"].map((p) => archive(p, "1.2.2", "linux-arm64")),
    /\(missing: .*\) \(not this release's: pulumi-resource-snapshot-v1\.2\.2-linux-arm64\.tar\.gz, pulumi-resource-runtask-v1\.2\.2-linux-arm64\.tar\.gz\)/,
  ],
  [
    "another platform's archives",
    () => ["snapshot", "runtask"].map((p) => archive(p, "1.2.3", "linux-amd64")),
    /not this release's: pulumi-resource-snapshot-v1\.2\.3-linux-amd64\.tar\.gz/,
  ],
  ["no archive printed", () => [], /npm run plugins printed no archive/],
])("%s is refused, saying which", (_what, make, message) => {
  const run = finish(make(), "1.2.3", "linux-arm64");
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(message);
});

test("an archive without its executable, or a target the release does not build, is refused", () => {
  const wrong = [archive("snapshot", "1.2.3", "windows-amd64"), archive("runtask", "1.2.3", "windows-amd64", { exe: "pulumi-resource-runtask" })];
  const run = finish(wrong, "1.2.3", "windows-amd64");
  expect(run.status).toBe(1);
  expect(run.stderr).toBe(
    "pulumi-resource-runtask-v1.2.3-windows-amd64.tar.gz holds pulumi-resource-runtask, LICENSE, not pulumi-resource-runtask.exe",
  );
  expect(finish([], "1.2.3", "linux-386").stderr).toMatch(/target linux-386 is not one the release builds/);
});

test("an executable that does not run here fails the release", () => {
  const bad = ["snapshot", "runtask"].map((p) => archive(p, "1.2.3", HOST, p === "runtask" ? { usage: "Segmentation fault", exit: 139 } : {}));
  const run = finish(bad, "1.2.3", HOST);
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/pulumi-resource-runtask --help exited 139: Segmentation fault/);
});
