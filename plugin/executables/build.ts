/**
 * `npm run plugins`: the provider plugins as standalone executables (no Node.js needed to run them), each packed as
 * Pulumi packs a provider, `pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz`, into dist/plugins/, with the
 * checksums of the folder's archives beside them (`SHA256SUMS`). Progress goes to stderr; each archive's path, one a
 * line, to stdout last. An archive whose inputs have not changed since it was
 * made (the bundled script, with the version and schema in it; the Node.js binary; this build) is reused.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";
import { archiveName, CHECKSUMS_FILE, packArchive, sha256, writeChecksums } from "./archive";
import { bundlePlugin, bundleSeaMain } from "./bundle";
import { hostPlatform, parsePlatform, platformName, executableName, type Platform } from "./platform";
import { baseBinaryFor, makeSingleExecutable, type BaseBinary } from "./singleExecutable";

export const PLUGINS = ["snapshot", "runtask"] as const;

export const USAGE = `Usage: npm run plugins [-- options]

Builds the provider plugins snapshot and runtask as standalone executables and packs each as
dist/plugins/pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz, reusing an archive whose inputs have not changed,
and writes the checksums of every archive of that folder beside them (SHA256SUMS, as sha256sum --check reads it).
Prints each archive's path, one a line, last.

  --target <os>-<arch>  the platform to build for: linux-amd64, linux-arm64, darwin-amd64, darwin-arm64 or
                        windows-amd64 (default: this machine's); another platform's Node.js binary comes from npm.
                        darwin targets build on macOS only, which signs them.
  --version <semver>    the version to build (default: package.json's), embedded in the executables and their schemas
  --plugin <name>       snapshot or runtask alone (repeatable; default: both)
  --out <folder>        where the archives go (default: dist/plugins)
  --help                this text`;

export interface BuildOptions {
  target: Platform;
  version: string;
  plugins: string[];
  out: string;
}

/** Semantic versions as Pulumi parses a plugin's (blang/semver: no leading `v`, no leading zeros). */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** The command line's options, with their defaults; throws with what is wrong. */
export function parseArguments(args: string[], root: string): BuildOptions | "help" {
  const host = hostPlatform();
  const options: Partial<BuildOptions> & { plugins: string[] } = { plugins: [] };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === "--help" || flag === "-h") return "help";
    const value = args[++i];
    if (!["--target", "--version", "--plugin", "--out"].includes(flag)) throw new Error(`unknown option ${flag}`);
    if (value === undefined || value.startsWith("--")) throw new Error(`${flag} needs a value`);
    if (flag === "--target") {
      const target = parsePlatform(value);
      if (!target) throw new Error(`--target ${value}: not a platform of Pulumi's plugin archives (linux|darwin|windows)-(amd64|arm64)`);
      options.target = target;
    } else if (flag === "--version") {
      if (!SEMVER.test(value)) throw new Error(`--version ${value}: not a semantic version such as 1.2.3 or 1.3.0-alpha.1`);
      options.version = value;
    } else if (flag === "--plugin") {
      if (!(PLUGINS as readonly string[]).includes(value)) throw new Error(`--plugin ${value}: the plugins are ${PLUGINS.join(" and ")}`);
      options.plugins.push(value);
    } else {
      options.out = value;
    }
  }
  if (!options.target && !host)
    throw new Error(`this machine (${process.platform}-${process.arch}) is no platform of Pulumi's plugin archives: name one with --target`);
  return {
    target: options.target ?? host!,
    version: options.version ?? (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version,
    plugins: options.plugins.length ? [...new Set(options.plugins)] : [...PLUGINS],
    out: options.out ?? join(root, "dist/plugins"),
  };
}

/** What a build of an archive was made from, beside it, to tell whether the next build may reuse it. */
interface Stamp {
  inputs: string;
  sha256: string;
}

/** Builds, or reuses, each plugin's archive; returns their paths. */
export async function buildPlugins(options: BuildOptions, root: string, log: (line: string) => void): Promise<string[]> {
  const { target, version, out } = options;
  const stamps = join(out, ".stamps");
  mkdirSync(stamps, { recursive: true });
  const base = baseBinaryFor(target, join(root, "node_modules/.cache/plugin-executables"));
  const seaMain = bundleSeaMain(root);
  const recipe = createHash("sha256").update(recipeHash()).update(seaMain).digest("hex");
  let fetched: BaseBinary | undefined;
  const archives: string[] = [];
  for (const plugin of options.plugins) {
    const archive = join(out, archiveName(plugin, version, target));
    const shown = relative(process.cwd(), archive) || archive;
    const script = bundlePlugin(root, plugin, version);
    const inputs = createHash("sha256").update(script).update(base.identity).update(recipe).digest("hex");
    const stampFile = join(stamps, `${archiveName(plugin, version, target)}.json`);
    if (reusable(archive, stampFile, inputs)) {
      log(`${plugin} ${version} for ${platformName(target)}: nothing changed, reusing ${shown}`);
      archives.push(archive);
      continue;
    }
    rmSync(stampFile, { force: true });
    const started = Date.now();
    fetched ??= base.fetch(log);
    log(
      `${plugin} ${version} for ${platformName(target)}: making the executable (script ${mb(Buffer.byteLength(script))}, Node.js: ${fetched.source})`,
    );
    const work = join(out, `.work-${process.pid}`);
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    try {
      const scriptFile = join(work, `${plugin}.js`);
      const mainFile = join(work, "main.js");
      writeFileSync(scriptFile, script);
      writeFileSync(mainFile, seaMain);
      const executable = join(work, executableName(plugin, target));
      await makeSingleExecutable({ main: mainFile, script: scriptFile, base: fetched, target, version, output: executable, work, log });
      log(`${plugin}: packing ${shown} (executable ${mb(statSync(executable).size)})`);
      await packArchive(executable, archive);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    writeFileSync(stampFile, `${JSON.stringify({ inputs, sha256: sha256(archive) } satisfies Stamp)}\n`);
    log(`${plugin}: ${shown}, ${mb(statSync(archive).size)}, in ${Math.round((Date.now() - started) / 1000)} s`);
    archives.push(archive);
  }
  const checksums = writeChecksums(out);
  log(`checksums of the archives in ${relative(process.cwd(), checksums) || checksums} (sha256sum --check ${CHECKSUMS_FILE})`);
  return archives;
}

/** An archive is reused where its stamp names the same inputs and the archive is still the one made then. */
function reusable(archive: string, stampFile: string, inputs: string): boolean {
  if (!existsSync(archive) || !existsSync(stampFile)) return false;
  try {
    const stamp = JSON.parse(readFileSync(stampFile, "utf8")) as Stamp;
    return stamp.inputs === inputs && stamp.sha256 === sha256(archive);
  } catch {
    return false;
  }
}

/** This build's own code: a change to how executables are made makes them again. */
function recipeHash(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(__dirname)
    .filter((f) => /\.[jt]s$/.test(f))
    .sort())
    hash.update(file).update(readFileSync(join(__dirname, file)));
  return hash.digest("hex");
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

async function main(): Promise<void> {
  const root = repositoryRoot(__dirname);
  let options: BuildOptions | "help";
  try {
    options = parseArguments(process.argv.slice(2), root);
  } catch (err) {
    process.stderr.write(`plugins: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const archives = await buildPlugins(options, root, (line) => process.stderr.write(`plugins: ${line}\n`));
  process.stdout.write(archives.map((a) => `${a}\n`).join(""));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`plugins: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
