import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The folder a run keeps its stack in, inside the project's directory. */
export const KEPT_FOLDER = ".pulumi-demo";

/**
 * Where a run keeps what outlives one engine command: the file backend holding the stack's state, `PULUMI_HOME`, the
 * secrets passphrase (and other secrets a run makes once), and what the emulator holds. With `--keep` this is
 * `<project>/.pulumi-demo/` (ignored by Git), and a later run of the same project finds it there and carries on
 * from it, so that an edit of the program shows as the change it is; otherwise a temporary folder.
 */
export class StateFolder {
  private constructor(
    readonly dir: string,
    /** Whether the folder is the project's own `.pulumi-demo/` (kept, or found from an earlier `--keep`). */
    readonly inProject: boolean,
    /** Whether an earlier run kept it. */
    readonly found: boolean,
  ) {
    for (const sub of ["backend", "home"]) mkdirSync(join(dir, sub), { recursive: true });
  }

  /** The project's `.pulumi-demo/` where it exists or `keep` asks for it; a temporary folder otherwise. */
  static open(projectDir: string, keep: boolean): StateFolder {
    const kept = join(projectDir, KEPT_FOLDER);
    const found = existsSync(join(kept, "backend"));
    if (!found && !keep) return new StateFolder(mkdtempSync(join(tmpdir(), "pulumi-demo-")), false, false);
    mkdirSync(kept, { recursive: true });
    // Ignored wherever the project is a Git repository, whatever its own .gitignore says.
    writeFileSync(join(kept, ".gitignore"), "*\n");
    return new StateFolder(kept, true, found);
  }

  get backend(): string {
    return join(this.dir, "backend");
  }

  get home(): string {
    return join(this.dir, "home");
  }

  /** A file of the folder. */
  path(name: string): string {
    return join(this.dir, name);
  }

  /** A random secret made on first use and kept in a file only its owner reads (the passphrase, say). */
  secret(name: string): string {
    const file = this.path(name);
    if (existsSync(file)) return readFileSync(file, "utf8").trim();
    const value = randomBytes(18).toString("base64url");
    writeFileSync(file, `${value}\n`, { mode: 0o600 });
    return value;
  }

  /**
   * The file the emulator keeps what it holds in, written through (see `dataFile` of the emulator): whenever a run
   * stops, killed included, it holds every change the engine was told of, so that it agrees with the stack's state.
   */
  get emulatorDataFile(): string {
    return this.path("emulator.json");
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
