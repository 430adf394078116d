import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as ts from "typescript";

/** Compiler options where the project has no tsconfig.json: those of Pulumi's TypeScript template, not strict. */
const DEFAULT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  esModuleInterop: true,
  skipLibCheck: true,
};

/**
 * Compiles a TypeScript program staged in `dir` (the package installed beside it) as Pulumi's Node.js language host
 * does before it runs one: with the project's tsconfig.json where there is one, type-checked unless its `noCheck` or
 * `PULUMI_NODEJS_TRANSPILE_ONLY=true` says otherwise, so that a type error stops the run with the compiler's message,
 * before the engine is asked anything. Each of `files` (relative to `dir`) is then written beside itself as the
 * CommonJS JavaScript that runs.
 */
export function compileProgram(dir: string, files: string[], env: NodeJS.ProcessEnv = process.env): void {
  const { options, roots } = projectOptions(dir, files);
  // Without `types`, the compiler loads every @types package in node_modules: a user's project has those it installed
  // (@types/node, from Pulumi's template), the staged one those of this repository's tree, which would only cost time.
  if (options.types === undefined) options.types = ["node"];
  const transpileOnly = env.PULUMI_NODEJS_TRANSPILE_ONLY !== undefined ? env.PULUMI_NODEJS_TRANSPILE_ONLY === "true" : options.noCheck === true;
  if (!transpileOnly) {
    const program = ts.createProgram(roots, { ...options, noEmit: true });
    const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length > 0) throw new CompileError(errors, dir);
  }
  for (const file of files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))) {
    const { outputText } = ts.transpileModule(readFileSync(join(dir, file), "utf8"), {
      fileName: file,
      compilerOptions: { ...options, module: ts.ModuleKind.CommonJS, inlineSourceMap: true, sourceMap: false, declaration: false },
    });
    writeFileSync(join(dir, file.replace(/\.ts$/, ".js")), outputText);
  }
}

/** A program that does not type-check: the compiler's diagnostics, with paths as in the project. */
export class CompileError extends Error {
  constructor(diagnostics: readonly ts.Diagnostic[], dir: string) {
    const text = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => dir,
      getNewLine: () => "\n",
    });
    super(`the program does not compile (the Node.js language host type-checks it before running it):\n${text.trimEnd()}`);
  }
}

/** The project's compiler options and files (its tsconfig.json, as ts-node reads it), else the defaults and `files`. */
function projectOptions(dir: string, files: string[]): { options: ts.CompilerOptions; roots: string[] } {
  const tsconfig = join(dir, "tsconfig.json");
  const sources = files.filter((f) => /\.tsx?$/.test(f)).map((f) => join(dir, f));
  if (!existsSync(tsconfig)) return { options: { ...DEFAULT_OPTIONS }, roots: sources };
  const { config, error } = ts.readConfigFile(tsconfig, ts.sys.readFile);
  if (error) throw new CompileError([error], dir);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dir, undefined, tsconfig);
  const problems = parsed.errors.filter((d) => d.category === ts.DiagnosticCategory.Error && d.code !== NO_INPUTS);
  if (problems.length > 0) throw new CompileError(problems, dir);
  return { options: parsed.options, roots: parsed.fileNames.length > 0 ? parsed.fileNames : sources };
}

/** "No inputs were found in config file": a tsconfig whose `include` names nothing; its files are the program's. */
const NO_INPUTS = 18003;
