import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_NAME, repositoryRoot } from "../../demo/repository";

/**
 * Installs the package into `dir/node_modules` as a user's `npm install` would: from `npm pack` of the
 * repository (its `prepare` build skipped: the package is built already), so that only what it publishes is there (a file missing from `files` or `exports` fails
 * as it would for a user). Its dependencies come from the repository's installed tree, without the network:
 * linked, except @pulumi/pulumi, which is copied, because the closure serializer names modules by resolving them
 * from its own location, which must be this node_modules for the provider text to be the short
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
}
