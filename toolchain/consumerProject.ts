import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PACKAGE_NAME, repositoryRoot } from "./repository";

/** A folder with the packed package installed in its node_modules, as a user's `npm install` makes it. */
export interface ConsumerProject {
  dir: string;
  /** `node_modules/.bin`: the package's executables (the provider plugins, the emulator), as npm links them. */
  binDir: string;
  remove(): void;
}

/**
 * A consumer project in `dir` (default: a new temporary folder): a `package.json` and the package installed (see
 * installPackage). Programs are copied in, or written, and run there: the dynamic provider plugin loads the package
 * by name from the program's directory.
 */
export function createConsumerProject(options: { dir?: string; name?: string } = {}): ConsumerProject {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "consumer-"));
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "package.json"))) {
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: options.name ?? "consumer", version: "1.0.0", private: true }, null, 2)}\n`);
  }
  installPackage(dir);
  return { dir, binDir: join(dir, "node_modules/.bin"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Installs the package into `dir/node_modules` as a user's `npm install` would: from `npm pack` of the
 * repository (its `prepare` build skipped: the package is built already), so that only what it publishes is there
 * (a file missing from `files` or `exports` fails as it would for a user), with its executables linked in
 * `node_modules/.bin`. Its dependencies come from the repository's installed tree, without the network: linked,
 * except @pulumi/pulumi, which is copied, because the closure serializer names modules by resolving them from its
 * own location, which must be this node_modules for the provider text to be the short
 * `require("pulumi-snapshot-runtask/shim/...")`.
 */
export function installPackage(dir: string, repo = repositoryRoot()): void {
  if (!existsSync(join(repo, "dist/sdk/index.js"))) throw new Error("the package is not built: run `npm run build` (npm test and npm run demo do)");
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, "@pulumi"), { recursive: true });
  const packed = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", dir], { cwd: repo, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  const pkg = join(modules, PACKAGE_NAME);
  mkdirSync(pkg);
  execFileSync("tar", ["xzf", join(dir, packed), "-C", pkg, "--strip-components=1"]);
  rmSync(join(dir, packed));
  for (const entry of readdirSync(join(repo, "node_modules"))) {
    if (entry === "@pulumi" || entry.startsWith(".") || entry === PACKAGE_NAME) continue;
    symlinkSync(join(repo, "node_modules", entry), join(modules, entry));
  }
  for (const entry of readdirSync(join(repo, "node_modules/@pulumi"))) {
    const from = join(repo, "node_modules/@pulumi", entry);
    if (entry === "pulumi") cpSync(from, join(modules, "@pulumi", entry), { recursive: true });
    else symlinkSync(from, join(modules, "@pulumi", entry));
  }
  const bins: Record<string, string> = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).bin ?? {};
  mkdirSync(join(modules, ".bin"), { recursive: true });
  for (const [name, file] of Object.entries(bins)) {
    chmodSync(join(pkg, file), 0o755);
    symlinkSync(join("..", PACKAGE_NAME, file), join(modules, ".bin", name));
  }
}
