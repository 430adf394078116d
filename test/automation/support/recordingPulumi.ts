import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** One invocation of the stand-in CLI, as it logged it. */
export interface RecordedCall {
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** The Pulumi.yaml and Pulumi.<stack>.yaml files in its working directory when it started. */
  files: Record<string, string>;
  /** What it read on its standard input, when it read it. */
  stdin?: string;
  code: number;
  started: string;
  ended: string;
}

/** What the stand-in's engine does (see recordingPulumiCli.js). */
export interface Scenario {
  /** The version `pulumi version` reports; default 3.210.0 (engine events over gRPC; 3.205 and before: an event log file). */
  version?: string;
  /** The resources the program declares. */
  resources?: { type: string; name: string }[];
  /** Resources whose create or delete fails, with the provider's message. */
  failures?: { name: string; message: string }[];
  outputs?: Record<string, { value: unknown; secret: boolean }>;
  /** How long an update runs (holding the stack's lock) before its steps. */
  runMs?: number;
  /** Another process creates the stack between the call's `stack select` and its `stack init`. */
  createdElsewhereBeforeInit?: boolean;
}

export interface StoredStack {
  secretsManager: { type: string; url?: string };
  resources: { type: string; name: string }[];
  outputs: Record<string, unknown>;
  history: { message: string; result: string }[];
}

const SCRIPT = join(__dirname, "recordingPulumiCli.js");
const ENV_KEYS = ["PATH", "RECORDING_PULUMI_DIR", "TMPDIR", "PULUMI_HOME", "PULUMI_BACKEND_URL", "PULUMI_CONFIG_PASSPHRASE"] as const;

/**
 * The stand-in `pulumi` on PATH for this test process, with everything it keeps in one directory: its log, the
 * scenario, the backends. TMPDIR points at an empty directory of its own, so that a test can tell that a call
 * left no temporary directory behind, and PULUMI_HOME at another.
 */
export class RecordingPulumi {
  readonly root = mkdtempSync(join(tmpdir(), "recording-pulumi-"));
  readonly tmp = join(this.root, "tmp");
  readonly home = join(this.root, "pulumi-home");
  private readonly saved: Partial<Record<(typeof ENV_KEYS)[number], string | undefined>> = {};

  constructor() {
    const bin = join(this.root, "bin");
    for (const dir of [bin, this.tmp, this.home]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(bin, "pulumi"), `#!/bin/sh\nexec "${process.execPath}" "${SCRIPT}" "$@"\n`);
    chmodSync(join(bin, "pulumi"), 0o755);
    for (const key of ENV_KEYS) this.saved[key] = process.env[key];
    process.env.PATH = `${bin}${delimiter}${process.env.PATH ?? ""}`;
    process.env.RECORDING_PULUMI_DIR = this.root;
    process.env.TMPDIR = this.tmp;
    process.env.PULUMI_HOME = this.home;
    delete process.env.PULUMI_BACKEND_URL;
    delete process.env.PULUMI_CONFIG_PASSPHRASE;
    this.reset();
  }

  /** A directory outside TMPDIR (a program directory, a file backend). */
  dir(...parts: string[]): string {
    const d = join(this.root, "work", ...parts);
    mkdirSync(d, { recursive: true });
    return d;
  }

  /** A new scenario, an empty log. The backends stay. */
  reset(scenario: Scenario = {}): void {
    writeFileSync(join(this.root, "scenario.json"), JSON.stringify(scenario));
    rmSync(join(this.root, "calls.jsonl"), { force: true });
  }

  calls(): RecordedCall[] {
    const file = join(this.root, "calls.jsonl");
    if (!existsSync(file)) return [];
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordedCall);
  }

  /** The calls of one command, e.g. `up` or `stack init`. */
  callsOf(command: string): RecordedCall[] {
    const words = command.split(" ");
    return this.calls().filter((c) => words.every((w, i) => c.args[i] === w));
  }

  private stackDir(backendUrl: string, project: string): string {
    return join(this.root, "backends", encodeURIComponent(backendUrl), project);
  }

  stack(backendUrl: string, project: string, name: string): StoredStack | undefined {
    const file = join(this.stackDir(backendUrl, project), `${name}.json`);
    return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as StoredStack) : undefined;
  }

  /** Every stack any backend holds, as `backend project/stack`. */
  allStacks(): string[] {
    const base = join(this.root, "backends");
    if (!existsSync(base)) return [];
    return readdirSync(base).flatMap((backend) =>
      readdirSync(join(base, backend)).flatMap((project) =>
        readdirSync(join(base, backend, project))
          .filter((f) => f.endsWith(".json"))
          .map((f) => `${decodeURIComponent(backend)} ${project}/${f.slice(0, -".json".length)}`),
      ),
    );
  }

  /** Holds the stack's lock as an update run from elsewhere would; returns its release. */
  holdLock(backendUrl: string, project: string, name: string): () => void {
    const dir = this.stackDir(backendUrl, project);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${name}.lock`);
    writeFileSync(file, JSON.stringify({ pid: 1 }));
    return () => rmSync(file, { force: true });
  }

  lockHeld(backendUrl: string, project: string, name: string): boolean {
    return existsSync(join(this.stackDir(backendUrl, project), `${name}.lock`));
  }

  /** What a call left in TMPDIR and in PULUMI_HOME/workspaces. */
  leftovers(): string[] {
    const workspaces = join(this.home, "workspaces");
    return [...readdirSync(this.tmp), ...(existsSync(workspaces) ? readdirSync(workspaces).map((f) => `workspaces/${f}`) : [])];
  }

  remove(): void {
    for (const key of ENV_KEYS) {
      if (this.saved[key] === undefined) delete process.env[key];
      else process.env[key] = this.saved[key];
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}
