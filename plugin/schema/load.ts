import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../server/packageRoot";

/** The JSON schema of a plugin's package, as shipped in `plugin/schema/<name>.json` (written by `npm run schema`). */
export function schemaText(name: string): string {
  return readFileSync(schemaFile(name), "utf8");
}

export function schemaFile(name: string): string {
  return join(packageRoot(), "plugin", "schema", `${name}.json`);
}
