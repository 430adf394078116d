import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as ts from "typescript";

const REPO = resolve(__dirname, "../..");

/** A piece of TypeScript to type-check, and where it comes from (for messages). */
export interface Block {
  source: string;
  line: number;
  code: string;
}

/**
 * Type-checks each block as a module of its own, with the project's options (the package name maps to the
 * sources); the diagnostics, as `source:line: message`.
 */
export function typeCheck(blocks: Block[]): string[] {
  // Under node_modules, so that `@pulumi/pulumi` and the types resolve as for a project in this repository.
  const dir = join(REPO, "node_modules/.cache/type-check-blocks", String(process.pid));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const files = blocks.map((b, i) => {
      const file = join(dir, `block-${i}.ts`);
      writeFileSync(file, `${b.code}\nexport {};\n`);
      return file;
    });
    const { config } = ts.readConfigFile(join(REPO, "tsconfig.json"), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, REPO);
    const program = ts.createProgram(files, { ...options, noEmit: true, types: ["node"] });
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      if (!d.file) return text;
      const i = files.indexOf(resolve(d.file.fileName));
      const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
      return i >= 0 ? `${blocks[i].source}:${blocks[i].line + 1 + line}: ${text}` : `${d.file.fileName}:${line + 1}: ${text}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
