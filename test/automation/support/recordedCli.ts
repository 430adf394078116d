import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { testEngine } from "../../support/engine/engineStack";

/** One call of the `pulumi` CLI, as cliRecorder.js logged it when the call ended. */
export interface RecordedCall {
  args: string[];
  cwd: string;
  /** The names of the CLI's environment variables. */
  env: string[];
  /** Whether each of the tokens and the passphrase was set (their values are not logged). */
  secrets: Record<"RUNTASK_TOKEN" | "SERVICE_TOKEN" | "PULUMI_CONFIG_PASSPHRASE" | "PULUMI_ACCESS_TOKEN", boolean>;
  /** The values of variables that hold no secret: the backend, the secrets provider's fallback, PULUMI_HOME. */
  values: Record<string, string>;
  /** The project's and the stack's settings files in the working directory as the call found them. */
  files: Record<string, string>;
  /** The pid of the process that ran the CLI (this test's, or another process's). */
  caller: number;
  code: number | null;
  signal?: string | null;
  /** `recorder` where the recorder answered (`pulumi version`, when the test set an old version). */
  answered?: string;
  started: string;
  ended: string;
}

/** The os module itself (an `import *` of it is a copy whose functions cannot be replaced). */
const os: typeof import("node:os") = jest.requireActual("node:os");

const ENV_KEYS = [
  "PATH",
  "TMPDIR",
  "PULUMI_HOME",
  "PULUMI_BACKEND_URL",
  "PULUMI_CONFIG_PASSPHRASE",
  "PULUMI_SKIP_UPDATE_CHECK",
  "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION",
] as const;

/**
 * The real Pulumi CLI (the project's build, `npm run engine`) for this test process, behind cliRecorder.js as
 * `pulumi` first on PATH: every call the helper makes runs the real CLI, and is logged. The rest of the offline
 * environment: PULUMI_HOME and TMPDIR in folders of their own (TMPDIR empty, so that a test can tell that a call
 * left no temporary folder behind), no update check, no plugin download, no ambient backend or passphrase.
 */
export class RecordedCli {
  readonly root = mkdtempSync(join(os.tmpdir(), "recorded-cli-"));
  readonly tmp = join(this.root, "tmp");
  readonly home = join(this.root, "pulumi-home");
  /** The real CLI, for a test's own calls (another party's `stack init`). */
  readonly realCli: string;
  private readonly log = join(this.root, "log");
  private readonly saved: Partial<Record<(typeof ENV_KEYS)[number], string | undefined>> = {};

  constructor() {
    const engine = testEngine();
    this.realCli = engine.cli;
    const bin = join(this.root, "bin");
    for (const dir of [bin, this.tmp, this.home, this.log]) mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(bin, "pulumi"),
      `#!/bin/sh\nexec "${process.execPath}" "${join(__dirname, "cliRecorder.js")}" "${this.log}" "${engine.cli}" "$@"\n`,
    );
    chmodSync(join(bin, "pulumi"), 0o755);
    for (const key of ENV_KEYS) this.saved[key] = process.env[key];
    // The engine's folders (the YAML host, the dynamic provider plugin, Node 22) after the recorder.
    process.env.PATH = [bin, ...engine.path, process.env.PATH ?? ""].join(delimiter);
    process.env.TMPDIR = this.tmp;
    // A test file's process.env is a copy of the process's own under jest, which os.tmpdir() reads: the helper's work
    // folders and the Automation API's event logs are made in this process, so its os.tmpdir() is pointed here too.
    // Modules that copy the function when they load (the Automation API's) must be loaded after this.
    jest.spyOn(os, "tmpdir").mockReturnValue(this.tmp);
    process.env.PULUMI_HOME = this.home;
    process.env.PULUMI_SKIP_UPDATE_CHECK = "true";
    process.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
    delete process.env.PULUMI_BACKEND_URL;
    delete process.env.PULUMI_CONFIG_PASSPHRASE;
  }

  /** A folder outside TMPDIR (a file backend, a project folder). */
  dir(...parts: string[]): string {
    const d = join(this.root, "work", ...parts);
    mkdirSync(d, { recursive: true });
    return d;
  }

  /** Empties the log. */
  reset(): void {
    rmSync(join(this.log, "calls.jsonl"), { force: true });
  }

  calls(): RecordedCall[] {
    const file = join(this.log, "calls.jsonl");
    if (!existsSync(file)) return [];
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordedCall);
  }

  /** The calls of one command (`up`, `stack init`), by this process unless `caller` says another. */
  callsOf(command: string, caller = process.pid): RecordedCall[] {
    const words = command.split(" ");
    return this.calls().filter((c) => c.caller === caller && words.every((w, i) => c.args[i] === w));
  }

  /**
   * Has the recorder answer `pulumi version` with `version` in place of the CLI (`undefined`: the CLI answers
   * again). Nothing else is answered for the CLI.
   */
  answerVersion(version: string | undefined): void {
    const file = join(this.log, "version");
    if (version === undefined) rmSync(file, { force: true });
    else writeFileSync(file, `v${version}\n`);
  }

  /**
   * Holds the next calls of `command` (e.g. `stack init`) before the CLI runs, until the returned release is
   * called; `held()` tells when one is waiting.
   */
  hold(command: string): { held: () => boolean; release: () => void } {
    writeFileSync(join(this.log, "hold"), command);
    return {
      held: () => existsSync(join(this.log, "holding")),
      release: () => {
        rmSync(join(this.log, "hold"), { force: true });
        rmSync(join(this.log, "holding"), { force: true });
      },
    };
  }

  /**
   * What calls left in TMPDIR and in PULUMI_HOME/workspaces. Two folders of the provider plugins are theirs and not
   * counted: the objects each deployment holds (provider/takeover/heldObjects.ts), shared by the deployments of the machine,
   * and Node's compile cache of the dynamic provider plugin (provider/common/compileCache.ts), reused by each run.
   */
  leftovers(): string[] {
    const workspaces = join(this.home, "workspaces");
    return [
      ...readdirSync(this.tmp).filter((name) => !["pulumi-snapshot-runtask-holds", "node-compile-cache"].includes(name)),
      ...(existsSync(workspaces) ? readdirSync(workspaces).map((f) => `workspaces/${f}`) : []),
    ];
  }

  remove(): void {
    jest.mocked(os.tmpdir).mockRestore();
    for (const key of ENV_KEYS) {
      if (this.saved[key] === undefined) delete process.env[key];
      else process.env[key] = this.saved[key];
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}
