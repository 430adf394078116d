import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { findPulumiCli } from "../automation/pulumiCli";
import { repositoryRoot } from "./repository";

/** The Pulumi engine programs run through: the `pulumi` CLI and the folder of the executables beside it. */
export interface PulumiEngine {
  /** The `pulumi` executable. */
  cli: string;
  /** Where it came from: the project's own build (`npm run engine`), or a `pulumi` on PATH. */
  source: "built" | "path";
  /**
   * The folders to put first on PATH for it: the CLI's own (the YAML language host and the dynamic provider plugin
   * `pulumi-resource-pulumi-nodejs` sit beside the built one), and Node 22's, which the plugins' executables and
   * `pulumi-resource-pulumi-nodejs` run on.
   */
  path: string[];
}

/** The folder `npm run engine` builds into. */
export function builtEngineDir(repo = repositoryRoot()): string {
  return join(repo, ".engine/bin");
}

/**
 * The project's own build of the engine (`npm run engine`) or a `pulumi` on PATH, whichever `prefer` says first
 * where both are there; undefined where neither is. The tests prefer the build (the version they are written
 * against), the demo a user's own CLI.
 */
export function findPulumiEngine(prefer: "built" | "path", env: NodeJS.ProcessEnv = process.env): PulumiEngine | undefined {
  const builtDir = builtEngineDir();
  const built = (): PulumiEngine | undefined =>
    existsSync(join(builtDir, "pulumi")) ? { cli: join(builtDir, "pulumi"), source: "built", path: [builtDir, nodeDir()] } : undefined;
  const onPath = (): PulumiEngine | undefined => {
    const cli = findPulumiCli(env);
    return cli ? { cli, source: "path", path: [dirname(cli), nodeDir()] } : undefined;
  };
  return prefer === "built" ? (built() ?? onPath()) : (onPath() ?? built());
}

/**
 * The engine found as findPulumiEngine finds it, else built (`npm run engine`: minutes the first time, its progress
 * on this process's stderr where `progress` says so). Throws where it cannot be built.
 */
export function ensurePulumiEngine(prefer: "built" | "path", progress: "inherit" | "ignore" = "inherit"): PulumiEngine {
  const found = findPulumiEngine(prefer);
  if (found) return found;
  const build = spawnSync(process.execPath, [join(repositoryRoot(), "toolchain/engine.js")], { stdio: ["ignore", "ignore", progress] });
  const engine = build.status === 0 ? findPulumiEngine(prefer) : undefined;
  if (!engine) throw new Error("the Pulumi engine could not be built (`npm run engine` says why), and no `pulumi` CLI is on PATH");
  return engine;
}

/** The folder of the Node.js that runs this process (Node 22 under npm scripts, through the `node` dev dependency). */
function nodeDir(): string {
  return dirname(process.execPath);
}

/**
 * The environment of a `pulumi` command that touches nothing outside `home` and `backend`: no update check, no
 * plugin download, the secrets passphrase given, and the engine's folders first on PATH, then `extraPath` (where the
 * provider plugins' executables are).
 */
export function offlineEngineEnv(
  engine: PulumiEngine,
  options: { home: string; backend: string; passphrase: string; extraPath?: string[] },
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...base,
    PATH: [...engine.path, ...(options.extraPath ?? []), base.PATH ?? ""].join(delimiter),
    PULUMI_HOME: options.home,
    PULUMI_BACKEND_URL: `file://${options.backend}`,
    PULUMI_CONFIG_PASSPHRASE: options.passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}

/**
 * Puts in `dir` a `pulumi-language-nodejs` for PATH, and returns `dir`: `pulumi import` starts the project's language
 * host though it runs no program, and the engine built here has none (nodejsLanguageHost.js stands in, on this Node).
 */
export function nodejsLanguageHostOnPath(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const script = join(repositoryRoot(), "toolchain/nodejsLanguageHost.js");
  writeFileSync(join(dir, "pulumi-language-nodejs"), `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`, { mode: 0o755 });
  return dir;
}
