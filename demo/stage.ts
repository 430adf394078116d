import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { createConsumerProject, type ConsumerProject } from "../toolchain/consumerProject";
import type { StagedProgram } from "./engineDeployment";
import { repositoryRoot } from "../toolchain/repository";

/** The repository root (this file is demo/stage.ts, built to dist/demo/stage.js). */
export const REPO = repositoryRoot(__dirname);

/** The demo's own Pulumi project: its name, and its program as the build writes it. */
export const DEMO_PROJECT = "snapshot-runtask-demo";
export const DEMO_PROGRAM = "dist/demo/program.js";

/**
 * The demo's program (demo/program.ts, built), ready to run: a consumer project in `dir` (the packed package
 * installed as a user's `npm install` makes it) with the program copied in as its main module. The program runs
 * there because the engine's dynamic provider plugin loads the package by name from the program's directory, which
 * this repository, being the package itself, cannot serve.
 */
export function stageDemoProgram(dir: string, repo = REPO): { project: ConsumerProject; staged: StagedProgram } {
  const built = join(repo, DEMO_PROGRAM);
  if (!existsSync(built)) throw new Error(`${built} does not exist: run \`npm run build\` first`);
  const project = createConsumerProject({ dir, name: DEMO_PROJECT });
  copyFileSync(built, join(dir, "index.js"));
  return { project, staged: { runtime: "nodejs", main: "index.js" } };
}
