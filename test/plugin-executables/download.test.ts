import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { hostPlatform, platformName } from "../../plugin/executables/platform";
import type { ConsumerProject } from "../../toolchain/consumerProject";
import { repositoryRoot } from "../../toolchain/repository";
import { EmulatorCommand } from "../support/emulatorCommand";
import { EngineStack, testEngine } from "../support/engine/engineStack";
import { enginePathOnly, fromPluginCache, installPlugin } from "../support/engine/pluginCache";
import { offlineEngineEnv } from "../../toolchain/pulumiEngine";
import { pluginArchives } from "../support/pluginArchives";

/**
 * The engine's own download of the plugins, from a loopback HTTP server that serves the archives `npm run plugins`
 * made as a release does (`<server>/releases/download/v<version>/<archive>`): `pulumi plugin install --server`, and a
 * program whose plugins are not installed at all, the download pointed at the server by the `pluginDownloadURL`
 * resource option or by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES; and the wrong archives a release could serve, each
 * refused with a message that says what is wrong. The engine checks an archive's gzip and tar only
 * (pkg/pluginstorage, sdk/go/common/workspace/plugins.go): a platform's executable the kernel refuses, and the plugin
 * itself refuses another version's name (plugin/executables/main.ts).
 */
jest.setTimeout(600_000);

const REPO = repositoryRoot();
const VERSION: string = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
const HOST = hostPlatform()!;
/** The other Linux architecture: an archive of another platform, built here as the release builds it. */
const OTHER_PLATFORM = platformName({ os: "linux", arch: HOST.arch === "amd64" ? "arm64" : "amd64" });
/** Where the schema's `pluginDownloadURL` points: this package's GitHub releases. */
const RELEASES = "github://api.github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask";

let archives: Record<string, string>;
let otherPlatform: string;
let emulator: EmulatorCommand;
let path: { dir: string; remove(): void };
let work: string;
let project: ConsumerProject;
const stacks: EngineStack[] = [];

/** The release server: what it serves by URL path, and every path asked for. */
const served = new Map<string, string>();
const asked: string[] = [];
let server: Server;
let base: string;

/** Serves `file` as the asset `name` of release `v<version>`. */
function release(version: string, name: string, file: string): void {
  served.set(`/releases/download/v${version}/${name}`, file);
}

const assetOf = (plugin: string, version: string) => `pulumi-resource-${plugin}-v${version}-${platformName(HOST)}.tar.gz`;

beforeAll(async () => {
  archives = await pluginArchives();
  otherPlatform = (await pluginArchives(["--target", OTHER_PLATFORM, "--plugin", "runtask"])).runtask;
  emulator = await EmulatorCommand.start(["--organization", "acme", "--workspace", "app"]);
  path = enginePathOnly(testEngine());
  work = mkdtempSync(join(tmpdir(), "plugin-download-"));
  project = { dir: work, binDir: join(work, "no-executables"), remove: () => rmSync(work, { recursive: true, force: true }) };
  server = createServer((req, res) => {
    asked.push(req.url ?? "");
    const file = served.get(req.url ?? "");
    if (!file) return void res.writeHead(404).end("Not Found");
    // With its length, as a release's server sends it: the engine refuses a download of unknown length
    // ("expected -1 bytes but copied ...", pluginDownloader.tryDownload).
    const body = readFileSync(file);
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const plugin of ["runtask", "snapshot"]) release(VERSION, assetOf(plugin, VERSION), archives[plugin]);
});

afterAll(async () => {
  for (const s of stacks) s.remove();
  await emulator?.close();
  await new Promise((resolve) => server?.close(resolve));
  path?.remove();
  project?.remove();
});

beforeEach(() => {
  asked.length = 0;
});

/** A YAML stack whose engine downloads the plugins it lacks, with `env` (overrides) besides. */
function downloadingStack(projectName: string, env: NodeJS.ProcessEnv = {}): EngineStack {
  const stack = EngineStack.yaml({
    project,
    projectName,
    config: emulator.stackConfig(),
    secretKeys: ["runtask:token", "snapshot:token"],
    pluginCache: { path: path.dir, download: true },
    env,
  });
  stacks.push(stack);
  return stack;
}

function installedPlugins(home: string): string[] {
  return readdirSync(join(home, "plugins"))
    .filter((f) => !/\.(lock|lastused|partial)$/.test(f))
    .sort();
}

test("pulumi plugin install --server fetches the archive of this platform from a release's URL, and installs what runs", async () => {
  const home = mkdtempSync(join(work, "home-"));
  const env = fromPluginCache(offlineEngineEnv(testEngine(), { home, backend: work, passphrase: "unused" }), { path: path.dir, download: true });
  // The URL as a release's, with the version for the engine to fill in.
  const install = await installPlugin(env, "runtask", VERSION, { server: `${base}/releases/download/v\${VERSION}` });
  expect({ code: install.code, output: install.code === 0 ? "" : install.output }).toEqual({ code: 0, output: "" });
  expect(asked).toEqual([`/releases/download/v${VERSION}/${assetOf("runtask", VERSION)}`]);
  expect(installedPlugins(home)).toEqual([`resource-runtask-v${VERSION}`]);
  const executable = join(home, "plugins", `resource-runtask-v${VERSION}`, "pulumi-resource-runtask");
  expect(spawnSync(executable, ["--version"], { env: { PATH: path.dir }, encoding: "utf8" }).stdout).toBe(`${VERSION}\n`);
});

test("pulumi plugin install --server --checksum checks the download against SHA256SUMS's line for its name: another archive's checksum is refused, and nothing installed", async () => {
  const home = mkdtempSync(join(work, "home-"));
  const env = fromPluginCache(offlineEngineEnv(testEngine(), { home, backend: work, passphrase: "unused" }), { path: path.dir, download: true });
  const sums = readFileSync(join(REPO, "dist/plugins/SHA256SUMS"), "utf8");
  const checksumOf = (name: string) => new RegExp(`^([0-9a-f]{64})  ${name.replace(/[.]/g, "\\.")}$`, "m").exec(sums)![1];
  const server = `${base}/releases/download/v\${VERSION}`;

  const wrong = await installPlugin(env, "runtask", VERSION, { server, checksum: checksumOf(assetOf("snapshot", VERSION)) });
  expect(wrong.code).toBe(1);
  expect(wrong.output).toContain(
    `invalid checksum, expected ${checksumOf(assetOf("snapshot", VERSION))}, actual ${checksumOf(assetOf("runtask", VERSION))}`,
  );
  expect(existsSync(join(home, "plugins")) ? installedPlugins(home) : []).toEqual([]);

  const right = await installPlugin(env, "runtask", VERSION, { server, checksum: checksumOf(assetOf("runtask", VERSION)) });
  expect({ code: right.code, output: right.code === 0 ? "" : right.output }).toEqual({ code: 0, output: "" });
  expect(installedPlugins(home)).toEqual([`resource-runtask-v${VERSION}`]);
});

test("a program whose plugins are not installed: the engine downloads them from where the program or the overrides point, installs them and runs them", async () => {
  const override = `^${RELEASES.replace(/[.]/g, "\\.")}$=${base}/releases/download/v\${VERSION}`;
  const stack = downloadingStack("downloaded", { PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: override });
  // runtask from the URL the resource names; snapshot from this package's releases, which the overrides send to the server.
  stack.yamlProgram(`resources:
  scanner:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/scan
    options:
      version: ${VERSION}
      pluginDownloadURL: ${base}/releases/download/v${VERSION}
  nightly:
    type: snapshot:index:SnapshotAutoConfig
    properties:
      interval: 1h
      storageType: cloudC-gcs
      pathPrefix: nightly/
      cloudCGcsBucket: backups
    options:
      version: ${VERSION}
      pluginDownloadURL: ${RELEASES}
`);
  const up = await stack.up();
  expect({ ok: up.ok, error: up.error, changes: up.changes }).toEqual({ ok: true, error: undefined, changes: { create: 3 } });
  expect([...asked].sort()).toEqual(["runtask", "snapshot"].map((p) => `/releases/download/v${VERSION}/${assetOf(p, VERSION)}`));
  expect(installedPlugins(stack.home)).toEqual([`resource-runtask-v${VERSION}`, `resource-snapshot-v${VERSION}`]);
  const held = await emulator.holdings();
  expect([held.tasks.map((t) => t.name), held.configs]).toEqual([["scanner"], ["nightly"]]);

  // Installed now: the next command downloads nothing.
  asked.length = 0;
  const destroy = await stack.destroy();
  expect({ ok: destroy.ok, error: destroy.error, changes: destroy.changes }).toEqual({ ok: true, error: undefined, changes: { delete: 3 } });
  expect(asked).toEqual([]);
});

test("a wrong archive served for this platform and version is refused, with a message that says what is wrong", async () => {
  const corrupt = join(work, "corrupt.tar.gz");
  const whole = readFileSync(archives.runtask);
  writeFileSync(corrupt, whole.subarray(0, Math.floor(whole.length / 3)));
  release("0.3.0", assetOf("runtask", "0.3.0"), corrupt);
  release("0.4.0", assetOf("runtask", "0.4.0"), otherPlatform);
  release("0.5.0", assetOf("runtask", "0.5.0"), archives.runtask);
  expect(basename(otherPlatform)).toBe(`pulumi-resource-runtask-v${VERSION}-${OTHER_PLATFORM}.tar.gz`);

  const stack = downloadingStack("wrong-archives");
  const previewAt = async (version: string) => {
    stack.yamlProgram(`resources:
  scanner:
    type: runtask:index:RunTask
    properties:
      url: https://hooks.example.com/scan
    options:
      version: ${version}
      pluginDownloadURL: ${base}/releases/download/v${version}
`);
    const preview = await stack.preview();
    expect(preview.ok).toBe(false);
    expect(asked).toContain(`/releases/download/v${version}/${assetOf("runtask", version)}`);
    return preview.output.replace(/\s+/g, " ");
  };

  // Cut short: the engine's unpacking fails, and nothing is installed.
  expect(await previewAt("0.3.0")).toMatch(
    /Could not automatically download and install resource plugin 'pulumi-resource-runtask' at version v0\.3\.0.*unexpected EOF/,
  );
  expect(installedPlugins(stack.home)).toEqual([]);

  // Another platform's executable: installed (the engine looks no further than the archive's name), the kernel refuses it.
  expect(await previewAt("0.4.0")).toContain(`resource-runtask-v0.4.0/pulumi-resource-runtask: exec format error`);

  // Another version's executable under this version's name: the plugin refuses to start, naming both.
  expect(await previewAt("0.5.0")).toContain(
    `pulumi-resource-runtask ${VERSION} is installed as version 0.5.0 (${join(stack.home, "plugins/resource-runtask-v0.5.0")}): the archive it came from holds another version's executable`,
  );
  expect(await emulator.holdings()).toMatchObject({ tasks: [] });
});
