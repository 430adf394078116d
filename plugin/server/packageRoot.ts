import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The installed package's root (where its package.json is), from the compiled code or the sources alike. */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file) && JSON.parse(readFileSync(file, "utf8")).name === "pulumi-snapshot-runtask") return dir;
  }
  throw new Error(`the pulumi-snapshot-runtask package is not above ${from}`);
}

/** The package's version, the plugins' version. */
export function packageVersion(): string {
  return JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")).version;
}
