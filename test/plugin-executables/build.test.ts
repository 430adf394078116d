import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { extract } from "tar";
import { archiveEntries, sha256 } from "../../plugin/executables/archive";
import { executablePlatform, hostPlatform, platformName } from "../../plugin/executables/platform";
import { readHeader } from "../../plugin/executables/singleExecutable";
import { repositoryRoot } from "../../toolchain/repository";
import { NativeProviderClient } from "../support/plugin/pluginClient";
import { ProviderProcess } from "../support/plugin/providerProcess";
import { pluginArchives, runPluginsBuild, type PluginsBuild } from "../support/pluginArchives";

/**
 * `npm run plugins` as a developer and the release workflow run it, and the executables it packs as the engine and a
 * user meet them: run with no Node.js on PATH, answering GetPluginInfo and GetSchema from what the build wrote in.
 */
jest.setTimeout(600_000);

const REPO = repositoryRoot();
const VERSION: string = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
const HOST = platformName(hostPlatform()!);
const PULUMI_DIR = dirname(require.resolve("@pulumi/pulumi/package.json"));

let work: string;
/** An empty folder, the PATH of the executables: no Node.js anywhere. */
let noPath: string;
const executables: Record<string, string> = {};
/** The first build of this file: it makes the archives, or reuses those an earlier test file made. */
let first: PluginsBuild;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "plugins-build-"));
  noPath = join(work, "empty");
  mkdirSync(noPath);
  first = await runPluginsBuild();
  if (first.code !== 0) throw new Error(`npm run plugins failed:\n${first.stderr}`);
  for (const [plugin, archive] of Object.entries(first.archives)) executables[plugin] = await extracted(archive, join(work, plugin));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `npm run --silent plugins -- <args>` in the repository, as a developer runs it. */
function npmRunPlugins(args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", "plugins", "--", ...args], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The executable of `archive`, extracted into a folder of its own under `dir`. */
async function extracted(archive: string, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await extract({ file: archive, cwd: dir });
  const name = `pulumi-resource-${/^pulumi-resource-(\w+)-/.exec(basename(archive))![1]}`;
  return join(dir, name);
}

/** Starts an executable as the engine does, with `PATH` empty; and a client of it. */
async function started(executable: string): Promise<{ process: ProviderProcess; client: NativeProviderClient }> {
  const process = await ProviderProcess.start({ command: executable, args: ["127.0.0.1:0"], cwd: work, env: { PATH: noPath } });
  return { process, client: new NativeProviderClient(`127.0.0.1:${process.port}`, PULUMI_DIR) };
}

test("npm run plugins packs both plugins for this machine under Pulumi's names, printing progress, then each archive's path, one a line; run again, it reuses them", async () => {
  const paths = first.stdout.split("\n").filter(Boolean);
  expect(paths.map((p) => basename(p))).toEqual([
    `pulumi-resource-snapshot-v${VERSION}-${HOST}.tar.gz`,
    `pulumi-resource-runtask-v${VERSION}-${HOST}.tar.gz`,
  ]);
  expect(paths.every((p) => dirname(p) === join(REPO, "dist/plugins"))).toBe(true);
  expect(first.stdout).toBe(`${paths.join("\n")}\n`);
  const progress = first.stderr.split("\n").filter(Boolean);
  expect(progress.every((line) => line.startsWith("plugins: "))).toBe(true);
  for (const plugin of ["snapshot", "runtask"]) {
    // Made (several lines: making, packing, done) or reused (one line), each line naming the plugin.
    expect(progress.some((line) => line.startsWith(`plugins: ${plugin} ${VERSION} for ${HOST}: `))).toBe(true);
  }
  const before = paths.map((p) => ({ sha: sha256(p), mtime: statSync(p).mtimeMs }));

  const again = await npmRunPlugins();
  expect({ code: again.code, stdout: again.stdout }).toEqual({ code: 0, stdout: first.stdout });
  expect(again.stderr.split("\n").filter(Boolean)).toEqual([
    ...["snapshot", "runtask"].map(
      (p) => `plugins: ${p} ${VERSION} for ${HOST}: nothing changed, reusing dist/plugins/pulumi-resource-${p}-v${VERSION}-${HOST}.tar.gz`,
    ),
    "plugins: checksums of the archives in dist/plugins/SHA256SUMS (sha256sum --check SHA256SUMS)",
  ]);
  expect(paths.map((p) => ({ sha: sha256(p), mtime: statSync(p).mtimeMs }))).toEqual(before);
});

test("beside the archives, SHA256SUMS: the checksum of each archive of the folder, which sha256sum --check confirms", () => {
  const dir = join(REPO, "dist/plugins");
  const lines = readFileSync(join(dir, "SHA256SUMS"), "utf8").split("\n").filter(Boolean);
  // Other suites may build archives of their own into the folder meanwhile: this build's are among those listed.
  const listed = lines.map((l) => l.slice(66));
  expect(listed).toEqual(expect.arrayContaining(Object.values(first.archives).map((a) => basename(a))));
  expect(listed).toEqual([...listed].sort());
  expect(lines).toEqual(listed.map((a) => `${sha256(join(dir, a))}  ${a}`));
  const check = spawnSync("sha256sum", ["--check", "SHA256SUMS"], { cwd: dir, encoding: "utf8" });
  expect({ status: check.status, stdout: check.stdout }).toEqual({ status: 0, stdout: listed.map((a) => `${a}: OK\n`).join("") });
});

test("an archive holds the plugin's executable alone, at its root, executable, built for this machine", async () => {
  for (const plugin of ["snapshot", "runtask"]) {
    const archive = join(REPO, "dist/plugins", `pulumi-resource-${plugin}-v${VERSION}-${HOST}.tar.gz`);
    expect((await archiveEntries(archive)).map((e) => ({ path: e.path, mode: e.mode & 0o777 }))).toEqual([
      { path: `pulumi-resource-${plugin}`, mode: 0o755 },
    ]);
    expect(executablePlatform(readHeader(executables[plugin]))).toEqual(hostPlatform());
  }
});

test.each(["snapshot", "runtask"])(
  "pulumi-resource-%s runs with no Node.js on PATH, as the engine starts it: its port alone, then its version and schema as the build wrote them in",
  async (plugin) => {
    const { process, client } = await started(executables[plugin]);
    try {
      expect(process.output).toBe("");
      expect(await client.pluginInfo()).toBe(VERSION);
      expect(await client.schema()).toEqual(JSON.parse(readFileSync(join(REPO, "plugin/schema", `${plugin}.json`), "utf8")));
    } finally {
      client.close();
      // The engine ends a plugin with SIGINT: it stops at once, cleanly.
      expect(await process.interrupt()).toBe(0);
    }
  },
);

test("run by hand, the executable prints its version, its usage, and in a terminal what it is before its port", async () => {
  const exe = executables.runtask;
  const version = spawnSync(exe, ["--version"], { env: { PATH: noPath }, encoding: "utf8" });
  expect({ status: version.status, stdout: version.stdout }).toEqual({ status: 0, stdout: `${VERSION}\n` });
  const help = spawnSync(exe, ["--help"], { env: { PATH: noPath }, encoding: "utf8" });
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/^Usage: pulumi-resource-runtask \[engine-address\]\n/);
  expect(help.stdout.replace(/\s+/g, " ")).toContain(
    `install it with \`pulumi plugin install resource runtask ${VERSION} --file pulumi-resource-runtask-v${VERSION}-<os>-<arch>.tar.gz\``,
  );
  // `script` gives it a terminal, as a user's shell does.
  const terminal = spawn("script", ["-qfec", exe, "/dev/null"], {
    cwd: work,
    env: { PATH: `${noPath}:/usr/bin:/bin` },
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no port within 30 s: ${lines.join(" | ")}`)), 30_000);
    createInterface({ input: terminal.stdout }).on("line", (line) => {
      lines.push(line.trim());
      if (/^\d+$/.test(line.trim())) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const exited = new Promise((resolve) => terminal.once("exit", resolve));
  process.kill(-terminal.pid!, "SIGTERM");
  await exited;
  expect(lines).toEqual([
    `pulumi-resource-runtask ${VERSION}: a provider plugin, which the Pulumi engine starts; it serves on the port below until Ctrl-C (--help says more)`,
    expect.stringMatching(/^\d+$/),
  ]);
});

test("installed as another version than its own, the executable refuses to start, naming both; installed as its own, it serves", async () => {
  const installedAs = (version: string) => {
    const dir = join(work, "plugins", `resource-runtask-v${version}`);
    mkdirSync(dir, { recursive: true });
    copyFileSync(executables.runtask, join(dir, "pulumi-resource-runtask"));
    return join(dir, "pulumi-resource-runtask");
  };
  const wrong = spawnSync(installedAs("9.9.9"), ["127.0.0.1:0"], { env: { PATH: noPath }, encoding: "utf8", timeout: 30_000 });
  expect({ status: wrong.status, stdout: wrong.stdout }).toEqual({ status: 1, stdout: "" });
  expect(wrong.stderr).toContain(
    `pulumi-resource-runtask ${VERSION} is installed as version 9.9.9 (${join(work, "plugins/resource-runtask-v9.9.9")})`,
  );
  expect(wrong.stderr).toContain("pulumi plugin rm resource runtask 9.9.9");

  const { process, client } = await started(installedAs(VERSION));
  try {
    expect(await client.pluginInfo()).toBe(VERSION);
  } finally {
    client.close();
    await process.stop();
  }
});

test("--version builds another version, which the archive's name, the executable and its schema carry", async () => {
  const { runtask } = await pluginArchives(["--version", "0.2.0", "--plugin", "runtask"]);
  expect(basename(runtask)).toBe(`pulumi-resource-runtask-v0.2.0-${HOST}.tar.gz`);
  const { process, client } = await started(await extracted(runtask, join(work, "0.2.0")));
  try {
    expect(await client.pluginInfo()).toBe("0.2.0");
    const schema = await client.schema();
    expect(schema.version).toBe("0.2.0");
    expect({ ...schema, version: VERSION }).toEqual(JSON.parse(readFileSync(join(REPO, "plugin/schema/runtask.json"), "utf8")));
  } finally {
    client.close();
    await process.stop();
  }
});

test("what cannot be built is refused before anything is made, saying why", async () => {
  const refused = async (args: string[]) => {
    const run = await runPluginsBuild(args);
    return { code: run.code, stdout: run.stdout, message: run.stderr.split("\n")[0] };
  };
  expect(await refused(["--target", "plan9-amd64"])).toEqual({
    code: 2,
    stdout: "",
    message: "plugins: --target plan9-amd64: not a platform of Pulumi's plugin archives (linux|darwin|windows)-(amd64|arm64)",
  });
  expect(await refused(["--version", "v1.2.3"])).toMatchObject({
    code: 2,
    message: "plugins: --version v1.2.3: not a semantic version such as 1.2.3 or 1.3.0-alpha.1",
  });
  expect(await refused(["--plugin", "aws"])).toMatchObject({ code: 2, message: "plugins: --plugin aws: the plugins are snapshot and runtask" });
  expect(await refused(["--out"])).toMatchObject({ code: 2, message: "plugins: --out needs a value" });
  if (hostPlatform()!.os !== "darwin") {
    expect(await refused(["--target", "darwin-arm64"])).toEqual({
      code: 1,
      stdout: "",
      message: `plugins: darwin-arm64 executables are built on macOS, which signs them (codesign); this machine is ${HOST}`,
    });
  }
  const help = await runPluginsBuild(["--help"]);
  expect({ code: help.code, usage: help.stdout.split("\n")[0] }).toEqual({ code: 0, usage: "Usage: npm run plugins [-- options]" });
});

test("the archives and their build stay out of the npm package and of Git", () => {
  const packed = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO, encoding: "utf8" });
  expect(packed.status).toBe(0);
  const files: string[] = JSON.parse(packed.stdout)[0].files.map((f: { path: string }) => f.path);
  expect(files).toContain("dist/plugin/bin/runtask.js");
  expect(files.filter((f) => f.startsWith("dist/plugins/") || f.startsWith("dist/plugin/executables/"))).toEqual([]);
  const ignored = spawnSync("git", ["check-ignore", "--no-index", `dist/plugins/pulumi-resource-runtask-v${VERSION}-${HOST}.tar.gz`], {
    cwd: REPO,
    encoding: "utf8",
  });
  expect(ignored.status).toBe(0);
});
