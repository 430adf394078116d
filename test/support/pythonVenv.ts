import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "../../toolchain/repository";
import { mustRun } from "./engine/languageProject";

/** A Python virtual environment: its folder and interpreter (pip as `python -m pip`). */
export interface PythonVenv {
  dir: string;
  python: string;
}

/**
 * The virtual environment of the Python SDK tests, with what test/plugin-sdks/python/requirements.txt pins, from
 * PyPI. Kept under node_modules/.cache (which `npm ci` empties) by a hash of the requirements, so that a local run
 * reuses it; made in a folder of its own and renamed when complete, so that an interrupted run leaves none half made.
 * Fails where there is no `python3` with `venv`: the Python SDKs cannot be tested without one.
 */
export async function pythonVenv(): Promise<PythonVenv> {
  const repo = repositoryRoot();
  const requirements = join(repo, "test/plugin-sdks/python/requirements.txt");
  const hash = createHash("sha256").update(readFileSync(requirements)).digest("hex").slice(0, 12);
  const cache = join(repo, "node_modules/.cache/plugin-sdks");
  const dir = join(cache, `venv-${hash}`);
  const of = (d: string): PythonVenv => ({ dir: d, python: join(d, "bin/python") });
  if (existsSync(of(dir).python)) return of(dir);
  mkdirSync(cache, { recursive: true });
  const next = `${dir}.${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  await mustRun("python3", ["-m", "venv", next], { cwd: cache });
  // The scripts of a venv (bin/pip) name the folder it was made in, which is renamed below: pip runs as `python -m pip`.
  await mustRun(of(next).python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements], { cwd: cache });
  rmSync(dir, { recursive: true, force: true });
  renameSync(next, dir);
  return of(dir);
}
