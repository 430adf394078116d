import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messageOf } from "../provider/common/errors";
import type { PulumiCli } from "./pulumiCli";

/**
 * What a migration has changed so far, and how it was before: the stack (made by the run, or its exported state
 * before the import), the stack's settings file, and the project's files. A run that fails after it began to make
 * things takes them all back, so that the stack holds none of the objects that Terraform still manages (two tools
 * managing one object) and a second run meets what the first one met.
 */
export class RunChanges {
  private stackMade = false;
  private readonly files = new Map<string, string | undefined>();

  /**
   * @param stateBefore the stack's `pulumi stack export` before the run, where the stack was there already
   * @param settingsFile the stack's settings file (`Pulumi.<stack>.yaml`), whose text is kept to be put back
   */
  constructor(
    private readonly cli: PulumiCli,
    private readonly stateBefore: string | undefined,
    private readonly settingsFile: string,
  ) {
    this.remember(settingsFile);
  }

  /** Keeps `file`'s text (or its absence) before the run first writes it. */
  remember(file: string): void {
    if (!this.files.has(file)) this.files.set(file, existsSync(file) ? readFileSync(file, "utf8") : undefined);
  }

  /** Writes `file`, its text before kept. */
  write(file: string, text: string): void {
    this.remember(file);
    writeFileSync(file, text);
  }

  async initStack(): Promise<void> {
    await this.cli.must(["stack", "init", this.cli.stack]);
    this.stackMade = true;
  }

  /**
   * Puts everything back: a stack the run made is removed (`pulumi stack rm --force`, which leaves the objects at
   * the services), a stack that was there gets its state before the run again (`pulumi stack import`), and each file
   * its text before (or goes, where the run made it). Returns what could not be put back, in words; empty when
   * everything was.
   */
  async takeBack(): Promise<string[]> {
    const problems: string[] = [];
    try {
      if (this.stackMade) await this.cli.must(["stack", "rm", "--force", "--yes", "--preserve-config", "--stack", this.cli.stack]);
      else if (this.stateBefore !== undefined) await this.importState(this.stateBefore);
    } catch (err) {
      problems.push(`the stack could not be put back: ${messageOf(err)}`);
    }
    // The stack goes before the project's files: the CLI names the stack by the project of the folder's Pulumi.yaml.
    for (const [file, text] of this.files) {
      try {
        if (text === undefined) rmSync(file, { force: true });
        else writeFileSync(file, text);
      } catch (err) {
        problems.push(`${file} could not be put back: ${messageOf(err)}`);
      }
    }
    return problems;
  }

  private async importState(state: string): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), "pulumi-snapshot-runtask-state-"));
    try {
      const file = join(dir, "state.json");
      // Its secrets are the stack's ciphertexts, as `pulumi stack export` gave them.
      writeFileSync(file, state, { mode: 0o600 });
      await this.cli.must(["stack", "import", "--file", file, "--stack", this.cli.stack]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
