import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as ts from "typescript";
import type { ConsumerProject } from "../../toolchain/consumerProject";
import { REPO } from "./demoCommand";

/**
 * Copies `examples/<name>` into the consumer project (below it, so that its programs find the installed package
 * as they would in the example's own node_modules): every TypeScript file transpiled to JavaScript as the
 * Pulumi Node.js runtime does it for a TypeScript project, its Pulumi.yaml and data files as they are. Returns
 * the example's directory, relative to the project.
 */
export function stageExample(project: ConsumerProject, name: string): string {
  const from = join(REPO, "examples", name);
  const dir = join("examples", name);
  mkdirSync(join(project.dir, dir), { recursive: true });
  for (const file of readdirSync(from)) {
    if (file.endsWith(".ts")) {
      const { outputText } = ts.transpileModule(readFileSync(join(from, file), "utf8"), {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      });
      writeFileSync(join(project.dir, dir, file.replace(/\.ts$/, ".js")), outputText);
    } else if (file === "Pulumi.yaml" || (file.endsWith(".json") && file !== "package.json")) {
      copyFileSync(join(from, file), join(project.dir, dir, file));
    }
  }
  return dir;
}
