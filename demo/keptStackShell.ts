import type { PulumiEngine } from "../toolchain/pulumiEngine";
import type { StateFolder } from "./stateFolder";

/**
 * The shell commands the demo prints for a stack it keeps, written to work as printed: the CLI the demo ran, by its
 * path where that is not the `pulumi` on PATH (the project's own build), and the environment that points it at the
 * stack's file backend and passphrase. `PULUMI_CONFIG_PASSPHRASE` is unset, since the CLI prefers it to the file.
 */
export class KeptStackShell {
  constructor(
    private readonly state: StateFolder,
    private readonly engine: PulumiEngine,
    private readonly project: string,
    private readonly stackName: string,
  ) {}

  /** The stack's fully qualified name in its file backend. */
  get stack(): string {
    return `organization/${this.project}/${this.stackName}`;
  }

  /** The line that points a shell at the stack. */
  environment(): string {
    const variables = [
      `PULUMI_BACKEND_URL=${shellWord(`file://${this.state.backend}`)}`,
      `PULUMI_HOME=${shellWord(this.state.home)}`,
      `PULUMI_CONFIG_PASSPHRASE_FILE=${shellWord(this.state.path("passphrase"))}`,
    ];
    return `export ${variables.join(" ")}; unset PULUMI_CONFIG_PASSPHRASE`;
  }

  /** A command of the CLI the demo ran, for a shell the environment line has set up. */
  command(args: string[]): string {
    const cli = this.engine.source === "path" ? "pulumi" : shellWord(this.engine.cli);
    return [cli, ...args.map(shellWord)].join(" ");
  }
}

/** `text` as one word of a POSIX shell. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
