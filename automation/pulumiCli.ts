import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export const PULUMI_INSTALL_URL = "https://www.pulumi.com/docs/install/";

/**
 * The `pulumi` executable found on PATH, or undefined. The Automation API runs this CLI for every operation
 * (`@pulumi/pulumi` does not contain the engine), so callers check first and fail with a useful message.
 */
export function findPulumiCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return executableIn(pathDirs(env), process.platform === "win32" ? ["pulumi.exe", "pulumi.cmd", "pulumi"] : ["pulumi"]);
}

/** The folders of `env`'s PATH, in order. */
export function pathDirs(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? env.Path ?? "").split(delimiter).filter(Boolean);
}

/** The first of `names` that is an executable file in one of `dirs`, the folders first. */
export function executableIn(dirs: readonly string[], names: readonly string[]): string | undefined {
  for (const dir of dirs) {
    for (const name of names) {
      const file = join(dir, name);
      try {
        if (!statSync(file).isFile()) continue;
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * What to tell a user who has no Pulumi CLI: how to install one, or where the package's repository builds the one
 * it is tested with (`npm run engine`), which users of a clone may have instead.
 */
export function missingPulumiCliMessage(what: string): string {
  return (
    `${what} needs the Pulumi CLI, and no \`pulumi\` executable was found on PATH.\n` +
    `Install it (${PULUMI_INSTALL_URL}), e.g. \`curl -fsSL https://get.pulumi.com | sh\` on Linux and macOS or ` +
    "`brew install pulumi/tap/pulumi`, open a new shell so that PATH includes it, and run again. In a clone of the " +
    "package's repository, `npm run engine` builds the CLI the package is tested with into `.engine/bin`: put that " +
    'folder on PATH, or pass `pulumiCommand: await PulumiCommand.get({ root: "<clone>/.engine" })`.'
  );
}
