import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createConsumerProject, repositoryRoot, type ConsumerProject } from "../engine";

/** The repository root (this file is demo/stage.ts, built to dist/demo/stage.js). */
export const REPO = repositoryRoot(__dirname);

/** The program file the root Pulumi.yaml names as `main`, relative to the project. */
export function projectMain(repo = REPO): string {
  const yaml = readFileSync(join(repo, "Pulumi.yaml"), "utf8");
  const main = /^main:\s*(\S+)\s*$/m.exec(yaml)?.[1];
  if (!main) throw new Error(`${join(repo, "Pulumi.yaml")} names no main program`);
  return main;
}

/**
 * Copies the root project (Pulumi.yaml and the built program it names) into `dir`, keeping the relative
 * layout, and returns the program's path there. The copy is needed because the provider plugin loads the
 * package by name from the program's directory, which this repository (the package itself) cannot serve.
 */
export function copyProject(dir: string, repo = REPO): string {
  const main = projectMain(repo);
  const built = join(repo, main);
  if (!existsSync(built)) throw new Error(`${built} does not exist: run \`npm run build\` first`);
  mkdirSync(dirname(join(dir, main)), { recursive: true });
  cpSync(join(repo, "Pulumi.yaml"), join(dir, "Pulumi.yaml"));
  cpSync(built, join(dir, main));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "snapshot-runtask-demo", private: true }, null, 2)}\n`);
  return join(dir, main);
}

/**
 * The root project, ready to run: a consumer project in `dir` (the packed package installed as a user's
 * `npm install` would, see engine/project), with the root project copied over it.
 */
export function stageProject(dir: string, repo = REPO): { project: ConsumerProject; dir: string; program: string } {
  const project = createConsumerProject({ dir });
  const program = copyProject(dir, repo);
  return { project, dir, program };
}
