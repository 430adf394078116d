import { existsSync, readFileSync, readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { Refusal } from "./refusal";

export type Language = "yaml" | "typescript";

const RUNTIMES: Record<Language, string> = { yaml: "yaml", typescript: "nodejs" };

/** The Pulumi project the program goes to: the `--out` folder, with its `Pulumi.yaml` where it has one. */
export interface TargetProject {
  dir: string;
  name: string;
  language: Language;
  /** The folder's own `Pulumi.yaml` (a project the user set up, its stack config in it), else undefined. */
  existing?: string;
}

/**
 * The project in `dir`: a new one (the folder absent or empty of a project), or one the user set up for the stack
 * (a `Pulumi.yaml` of the language's runtime that declares no program yet), which the migration adds its program to.
 * A folder that holds a program already is refused: the written program would replace it.
 */
export function targetProject(dir: string, language: Language, name?: string): { project: TargetProject } | { refusals: Refusal[] } {
  const abs = resolve(dir);
  const file = join(abs, "Pulumi.yaml");
  if (!existsSync(file)) {
    const projectName = name ?? basename(abs).replace(/[^A-Za-z0-9_.-]+/g, "-");
    const written = (language === "yaml" ? [] : ["index.ts", "package.json"]).filter((f) => existsSync(join(abs, f)));
    if (written.length > 0) {
      return {
        refusals: [
          { problem: `--out ${dir} holds ${written.join(" and ")} but no Pulumi.yaml`, fix: "give a new folder, or the folder of a Pulumi project" },
        ],
      };
    }
    return { project: { dir: abs, name: projectName, language } };
  }
  const text = readFileSync(file, "utf8");
  const projectName = /^name:\s*["']?([^"'\s#]+)/m.exec(text)?.[1];
  const runtime = /^runtime:\s*["']?([A-Za-z]+)/m.exec(text)?.[1] ?? /^runtime:\s*\r?\n\s+name:\s*["']?([A-Za-z]+)/m.exec(text)?.[1];
  const refusals: Refusal[] = [];
  if (!projectName || !runtime)
    refusals.push({ problem: `${file} gives no project name or runtime this command can read`, fix: "give a new folder as --out" });
  else if (runtime !== RUNTIMES[language]) {
    refusals.push({
      problem: `${file} is a project of runtime ${runtime}, not ${RUNTIMES[language]}`,
      fix: `give --language to match it, or a new folder as --out`,
    });
  }
  if (name !== undefined && projectName !== undefined && name !== projectName) {
    refusals.push({
      problem: `--project ${name}, but ${file} names project ${projectName}`,
      fix: "leave out --project, or give a new folder as --out",
    });
  }
  if (language === "yaml" && /^config:[ \t]*[^\s#]/m.test(text)) {
    refusals.push({
      problem: `${file} writes its config: block in flow style`,
      fix: "write it in block style (one key a line), or give a new folder as --out",
    });
  }
  const program =
    language === "yaml"
      ? /^(resources|variables|outputs):/m.test(text) || existsSync(join(abs, "Main.yaml"))
      : existsSync(join(abs, "index.ts")) || readdirSync(abs).some((f) => f === "index.js");
  if (program) {
    refusals.push({
      problem: `--out ${dir} holds a program already; the migration writes the program of the stack`,
      fix: "give a new folder (or the folder of a project without a program); move other resources over by hand afterwards",
    });
  }
  return refusals.length > 0 ? { refusals } : { project: { dir: abs, name: projectName!, language, existing: text } };
}

/** The runtime of a language's `Pulumi.yaml`. */
export function runtimeOf(language: Language): string {
  return RUNTIMES[language];
}
