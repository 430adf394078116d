import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const PACKAGE_NAME = "pulumi-snapshot-runtask";

/**
 * The repository root: the nearest folder up from `from` with this package's package.json. Found by walking up,
 * so that the same code works from the sources (ts-jest) and from a compiled copy (dist/, .bench-build/).
 */
export function repositoryRoot(from: string = __dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file) && JSON.parse(readFileSync(file, "utf8")).name === PACKAGE_NAME) return dir;
  }
  throw new Error(`no ${PACKAGE_NAME} package.json above ${from}`);
}
