import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export const PACKAGE_NAME = "pulumi-snapshot-runtask";

/**
 * Whether `pulumi-snapshot-runtask` is installed in a node_modules folder at `dir` or above it. The dynamic
 * provider plugin runs in the program's directory and loads the provider by package name from there, the way
 * Node resolves a bare name from that directory; a package that is only reachable some other way (the
 * package's own repository, a path alias) fails there on the first resource operation.
 */
export function packageInstalledFrom(dir: string): boolean {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, "node_modules", PACKAGE_NAME, "package.json"))) return true;
    if (dirname(d) === d) return false;
  }
}

/** Throws with the fix when the provider plugin would not find the package from `dir`. */
export function assertPackageInstalledFrom(dir: string): void {
  if (packageInstalledFrom(dir)) return;
  throw new Error(
    `${PACKAGE_NAME} is not installed in ${resolve(dir)} (no node_modules/${PACKAGE_NAME} there or above): the provider ` +
      "plugin runs in the program directory and loads the provider by package name from it. Install the package " +
      "there (`npm install pulumi-snapshot-runtask`), or pass a programDir where it is installed.",
  );
}
