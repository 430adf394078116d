import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The project name in `dir/Pulumi.yaml` (its top-level `name:`), or undefined where there is none. */
export function projectName(dir: string): string | undefined {
  try {
    return /^name:\s*(\S+)\s*$/m.exec(readFileSync(join(dir, "Pulumi.yaml"), "utf8"))?.[1];
  } catch {
    return undefined;
  }
}

/** Sets the project name in `dir/Pulumi.yaml`. */
export function renameProject(dir: string, name: string): void {
  const file = join(dir, "Pulumi.yaml");
  writeFileSync(file, readFileSync(file, "utf8").replace(/^name:.*$/m, `name: ${name}`));
}
