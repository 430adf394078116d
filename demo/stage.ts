import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The repository root (this file is demo/stage.ts, built to dist/demo/stage.js). */
export const REPO = resolve(__dirname, existsSync(resolve(__dirname, "../package.json")) ? ".." : "../..");

/** The program file the root Pulumi.yaml names as `main`, relative to the project. */
export function projectMain(repo = REPO): string {
  const yaml = readFileSync(join(repo, "Pulumi.yaml"), "utf8");
  const main = /^main:\s*(\S+)\s*$/m.exec(yaml)?.[1];
  if (!main) throw new Error(`${join(repo, "Pulumi.yaml")} names no main program`);
  return main;
}

/**
 * Copies the root project (Pulumi.yaml and the built program it names) into `dir`, keeping the relative
 * layout, and returns the program's path there. The copy is needed because the provider plugin loads the
 * package by name from the program's directory, which this repository (the package itself) cannot serve.
 */
export function copyProject(dir: string, repo = REPO): string {
  const main = projectMain(repo);
  const built = join(repo, main);
  if (!existsSync(built)) throw new Error(`${built} does not exist: run \`npm run build\` first`);
  mkdirSync(dirname(join(dir, main)), { recursive: true });
  cpSync(join(repo, "Pulumi.yaml"), join(dir, "Pulumi.yaml"));
  cpSync(built, join(dir, main));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "snapshot-runtask-demo", private: true }, null, 2)}\n`);
  return join(dir, main);
}

/**
 * Installs the package into `dir/node_modules` as a user's `npm install` would: from `npm pack` of the
 * repository, so only what the package publishes is there. Its dependencies are taken from the repository's
 * installed tree: linked, except @pulumi/pulumi, which is copied, because the closure serializer names modules
 * by resolving them from its own location, which must be this node_modules for the provider text to be the
 * short `require("pulumi-snapshot-runtask/shim/...")`.
 */
export function installPackage(dir: string, repo = REPO): void {
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, "@pulumi"), { recursive: true });
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: repo, encoding: "utf8" }).trim().split("\n").pop()!;
  const pkg = join(modules, "pulumi-snapshot-runtask");
  mkdirSync(pkg);
  execFileSync("tar", ["xzf", join(dir, packed), "-C", pkg, "--strip-components=1"]);
  rmSync(join(dir, packed));
  for (const entry of readdirSync(join(repo, "node_modules"))) {
    if (entry === "@pulumi" || entry === ".bin" || entry.startsWith(".") || entry === "pulumi-snapshot-runtask") continue;
    symlinkSync(join(repo, "node_modules", entry), join(modules, entry));
  }
  for (const entry of readdirSync(join(repo, "node_modules/@pulumi"))) {
    const from = join(repo, "node_modules/@pulumi", entry);
    if (entry === "pulumi") cpSync(from, join(modules, "@pulumi", entry), { recursive: true });
    else symlinkSync(from, join(modules, "@pulumi", entry));
  }
}

/** The root project, ready to run: copied into `dir`, with the package installed there. */
export function stageProject(dir: string, repo = REPO): { dir: string; program: string } {
  mkdirSync(dir, { recursive: true });
  const program = copyProject(dir, repo);
  installPackage(dir, repo);
  return { dir, program };
}
