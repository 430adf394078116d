import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PackageDefinition } from "../server/definition";
import { packageRoot } from "../server/packageRoot";
import { runtaskPackage } from "../packages/runtask";
import { snapshotPackage } from "../packages/snapshot";
import { buildSchema, gitHubRepository, type PackageRelease } from "./build";
import { DocComments } from "./docComments";
import { schemaFile } from "./load";

export const PACKAGES: readonly PackageDefinition[] = [snapshotPackage, runtaskPackage];

/** What the schemas take from package.json: the version, and the GitHub repository the releases are made in. */
export function packageRelease(root = packageRoot()): PackageRelease {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return { version: manifest.version, repository: gitHubRepository(manifest.repository) };
}

/** The schema text of a package, as `plugin/schema/<name>.json` holds it. */
export function schemaJson(pkg: PackageDefinition, docs = new DocComments(packageRoot())): string {
  return `${JSON.stringify(buildSchema(pkg, packageRelease(), docs), null, 2)}\n`;
}

/** `npm run schema`: writes each package's schema from the field tables and the SDK's doc comments. */
if (require.main === module) {
  const docs = new DocComments(packageRoot());
  for (const pkg of PACKAGES) {
    writeFileSync(schemaFile(pkg.name), schemaJson(pkg, docs));
    console.log(`wrote ${schemaFile(pkg.name)}`);
  }
}
