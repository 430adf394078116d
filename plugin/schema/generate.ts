import { writeFileSync } from "node:fs";
import type { PackageDefinition } from "../server/definition";
import { packageRoot, packageVersion } from "../server/packageRoot";
import { runtaskPackage } from "../packages/runtask";
import { snapshotPackage } from "../packages/snapshot";
import { buildSchema } from "./build";
import { DocComments } from "./docComments";
import { schemaFile } from "./load";

export const PACKAGES: readonly PackageDefinition[] = [snapshotPackage, runtaskPackage];

/** The schema text of a package, as `plugin/schema/<name>.json` holds it. */
export function schemaJson(pkg: PackageDefinition, docs = new DocComments(packageRoot())): string {
  return `${JSON.stringify(buildSchema(pkg, packageVersion(), docs), null, 2)}\n`;
}

/** `npm run schema`: writes each package's schema from the field tables and the SDK's doc comments. */
if (require.main === module) {
  const docs = new DocComments(packageRoot());
  for (const pkg of PACKAGES) {
    writeFileSync(schemaFile(pkg.name), schemaJson(pkg, docs));
    console.log(`wrote ${schemaFile(pkg.name)}`);
  }
}
