/**
 * `npm run demo`: the root Pulumi.yaml project, run through the Automation API against the emulator (or, with
 * `--real`, the services named by the environment): preview, up with live progress, the stack outputs with the
 * snapshot status once a real snapshot was taken, a second up that must change nothing, destroy, a summary.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { LocalWorkspace, type ConfigMap, type OpMap, type OutputMap, type Stack } from "@pulumi/pulumi/automation";
import { describeChanges, describeEngineEvent } from "../automation/progress";
import { findPulumiCli, missingPulumiCliMessage } from "../automation/pulumiCli";
import { startEmulator, type Emulator } from "../emulator";
import { DEFAULT_ORGANIZATION, DEFAULT_RUNTASK_TOKEN } from "../emulator/runtask/service";
import { DEFAULT_SNAPSHOT_TOKEN } from "../emulator/snapshot/service";
import { SnapshotEndpoints } from "../provider/services/snapshot/endpoints";
import { resolveSnapshotSettings } from "../provider/services/snapshot/settings";
import { DEMO_USAGE, parseDemoArguments, type DemoOptions } from "./options";
import { REPO, stageProject } from "./stage";
import { demoStackConfig, type DemoSettings } from "./stackConfig";

const STACK = "demo";
const SNAPSHOT_INTERVAL = "5s";
const SNAPSHOT_WAIT_MS = 30_000;

const say = (line = "") => process.stdout.write(`${line}\n`);

interface StepRecord {
  step: string;
  result: string;
  seconds: number;
}

async function main(argv: string[]): Promise<number> {
  let options: DemoOptions;
  try {
    const command = parseDemoArguments(argv);
    if (command.kind === "help") {
      say(DEMO_USAGE);
      return 0;
    }
    options = command.options;
  } catch (err) {
    process.stderr.write(`${message(err)}\n\n${DEMO_USAGE}\n`);
    return 2;
  }
  const cli = findPulumiCli();
  if (!cli) {
    process.stderr.write(`${missingPulumiCliMessage("The demo")}\n`);
    return 1;
  }
  return new Demo(options, cli).run();
}

class Demo {
  private readonly work = join(REPO, ".pulumi-demo", `run-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  private readonly steps: StepRecord[] = [];
  private emulator?: Emulator;
  private stack?: Stack;
  private destroyed = false;

  constructor(
    private readonly options: DemoOptions,
    private readonly cli: string,
  ) {}

  async run(): Promise<number> {
    let failure: unknown;
    try {
      await this.provision();
    } catch (err) {
      failure = err;
      say();
      say(`The demo failed: ${message(err)}`);
    }
    const cleanedUp = await this.cleanUp();
    this.summary(failure === undefined && cleanedUp);
    return failure === undefined && cleanedUp ? 0 : 1;
  }

  private async provision(): Promise<void> {
    say("pulumi-snapshot-runtask demo");
    say(`  Pulumi CLI: ${this.cli}`);
    const settings = await this.services();
    const config = demoStackConfig(settings);

    const { dir } = stageProject(join(this.work, "project"));
    say(`  project: ${dir} (the root Pulumi.yaml and its program, with the packed package installed)`);
    const backend = join(this.work, "state");
    mkdirSync(backend, { recursive: true });
    const passphrase = randomBytes(18).toString("base64url");
    say(`  backend: ${pathToFileURL(backend).href} (temporary), secrets passphrase: generated`);

    this.stack = await LocalWorkspace.createOrSelectStack(
      { stackName: STACK, workDir: dir },
      {
        pulumiHome: join(this.work, "pulumi-home"),
        envVars: { PULUMI_BACKEND_URL: pathToFileURL(backend).href, PULUMI_CONFIG_PASSPHRASE: passphrase, PULUMI_SKIP_UPDATE_CHECK: "true" },
      },
    );
    await this.stack.setAllConfig(config);
    const stack = this.stack;

    await this.step("preview", async () => describeChanges((await stack.preview(this.progress())).changeSummary, "planned"));
    let outputs: OutputMap = {};
    await this.step("up", async () => {
      const result = await stack.up(this.progress());
      outputs = result.outputs;
      printOutputs(outputs);
      return describeChanges(result.summary.resourceChanges);
    });

    await this.waitForSnapshot(String(outputs.snapshotConfiguration?.value), config);

    await this.step("up again", async () => {
      const result = await stack.up(this.progress());
      printOutputs(result.outputs);
      const changed = changesBesidesSame(result.summary.resourceChanges);
      if (changed) throw new Error(`the second up should change nothing, but it did: ${changed}`);
      return `no changes (${describeChanges(result.summary.resourceChanges)})`;
    });

    if (this.options.keep) {
      say();
      say("Kept (--keep): the stack, its state and its resources. Inspect it with:");
      say(`  cd ${dir}`);
      say(`  export PULUMI_BACKEND_URL=${pathToFileURL(backend).href} PULUMI_CONFIG_PASSPHRASE=${passphrase} PULUMI_HOME=${join(this.work, "pulumi-home")}`);
      say(`  pulumi stack output --stack ${STACK} && pulumi stack export --stack ${STACK}`);
      if (!this.options.real) say("  (the emulator stops with the demo, so further updates need --real or a running emulator)");
    } else {
      await this.step("destroy", async () => {
        const result = await stack.destroy(this.progress());
        this.destroyed = true;
        return describeChanges(result.summary.resourceChanges);
      });
    }
  }

  /** The emulator, or the real services from the environment (`--real`). */
  private async services(): Promise<DemoSettings> {
    const hmacKey = randomBytes(24).toString("base64url");
    const real = this.options.real;
    if (real) {
      say(`  services: ${real.snapshot.address} and ${real.runTask.address} (--real), organization ${real.runTask.organization}`);
      return { credentials: real, workspaceId: real.workspaceId, snapshotPath: real.snapshotPath, hmacKey, snapshotInterval: SNAPSHOT_INTERVAL, globalEnabled: real.globalEnabled };
    }
    this.emulator = await startEmulator();
    const workspace = this.emulator.runTask.workspace("app-production");
    say(`  services: the emulator at ${this.emulator.url}, organization ${DEFAULT_ORGANIZATION}, workspace ${workspace.name} (${workspace.id})`);
    return {
      credentials: {
        snapshot: { address: this.emulator.url, token: DEFAULT_SNAPSHOT_TOKEN },
        runTask: { address: this.emulator.url, token: DEFAULT_RUNTASK_TOKEN, organization: DEFAULT_ORGANIZATION },
      },
      workspaceId: workspace.id,
      snapshotPath: join(this.work, "snapshots"),
      hmacKey,
      snapshotInterval: SNAPSHOT_INTERVAL,
    };
  }

  private progress() {
    return {
      onEvent: (event: Parameters<typeof describeEngineEvent>[0]) => {
        const line = describeEngineEvent(event);
        if (line) say(`  ${line}`);
      },
      onOutput: this.options.verbose ? (text: string) => process.stdout.write(text) : undefined,
    };
  }

  /** Waits until the service has taken a snapshot for the configuration, reading its status over HTTP. */
  private async waitForSnapshot(name: string, config: ConfigMap): Promise<void> {
    say();
    say(`Waiting for the first snapshot of "${name}" (every ${SNAPSHOT_INTERVAL})...`);
    const client = new SnapshotEndpoints(resolveSnapshotSettings((key) => config[key]?.value, {}));
    const deadline = Date.now() + SNAPSHOT_WAIT_MS;
    while (Date.now() < deadline) {
      const status = await client.readStatus(name);
      if (status && status.last_snapshot_end) {
        const where = status.last_snapshot_url || status.last_snapshot_error;
        say(`  snapshot taken at ${String(status.last_snapshot_end)}: ${String(where)}`);
        return;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    say(`  no snapshot within ${SNAPSHOT_WAIT_MS / 1000}s; the status output will be empty`);
  }

  private async step(step: string, body: () => Promise<string>): Promise<string> {
    say();
    say(`== ${step}`);
    const started = Date.now();
    try {
      const result = await body();
      this.steps.push({ step, result, seconds: (Date.now() - started) / 1000 });
      say(`  ${step}: ${result}`);
      return result;
    } catch (err) {
      this.steps.push({ step, result: "FAILED", seconds: (Date.now() - started) / 1000 });
      throw err;
    }
  }

  /** Unless kept, destroys what is left, removes the stack and the temporary files; then stops the emulator. */
  private async cleanUp(): Promise<boolean> {
    let ok = true;
    if (!this.options.keep) {
      if (this.stack && !this.destroyed) {
        try {
          say("Destroying what the failed run left behind...");
          await this.stack.destroy(this.progress());
        } catch (err) {
          ok = false;
          say(`  destroy failed as well (${message(err)}); the state is kept in ${this.work}`);
        }
      }
      try {
        await this.stack?.workspace.removeStack(STACK);
      } catch {
        // the stack may not exist
      }
      if (ok) rmSync(this.work, { recursive: true, force: true });
    }
    if (this.emulator) {
      const snapshots = join(this.work, "snapshots");
      const files = this.options.keep ? safeList(snapshots) : [];
      if (files.length > 0) say(`Snapshots written by the emulator: ${files.join(", ")} in ${snapshots}`);
      await this.emulator.close();
    }
    return ok;
  }

  private summary(ok: boolean): void {
    say();
    say("Summary");
    const width = Math.max(...this.steps.map((s) => s.step.length), 4);
    for (const s of this.steps) say(`  ${s.step.padEnd(width)}  ${s.result}  (${s.seconds.toFixed(1)}s)`);
    say(ok ? "The demo ran to the end." : "The demo did not complete.");
  }
}

/** `2 updated` when anything but `same` happened, else undefined. */
export function changesBesidesSame(changes: OpMap | undefined): string | undefined {
  const other = Object.fromEntries(Object.entries(changes ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0));
  return Object.keys(other).length > 0 ? describeChanges(other) : undefined;
}

function printOutputs(outputs: OutputMap): void {
  say("  outputs:");
  for (const [key, { value, secret }] of Object.entries(outputs)) {
    const shown = secret ? "[secret]" : typeof value === "string" ? value : JSON.stringify(value);
    say(`    ${key} = ${shown}`);
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
