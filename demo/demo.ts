import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConfigMap, OpMap, OutputMap } from "@pulumi/pulumi/automation";
import { sleep } from "../automation/abort";
import { describeChanges } from "../automation/progress";
import { startEmulator, type Emulator, type FaultOptions } from "../emulator";
import { DEFAULT_ORGANIZATION, DEFAULT_RUNTASK_TOKEN } from "../emulator/runtask/service";
import { DEFAULT_SNAPSHOT_TOKEN } from "../emulator/snapshot/service";
import { proxyRoute } from "../provider/http/proxyRoute";
import { RUNTASK_SETTING_KEYS } from "../provider/services/runtask/settings";
import { SnapshotEndpoints } from "../provider/services/snapshot/endpoints";
import { resolveSnapshotSettings, SNAPSHOT_SETTING_KEYS } from "../provider/services/snapshot/settings";
import { Deployment, type Counted, type StagedProgram } from "./engineDeployment";
import { Interrupted, Interruption } from "./interruption";
import { KeptStackShell, shellWord } from "./keptStackShell";
import type { DemoOptions, ProgramOptions } from "./options";
import { programNeeds } from "./programNeeds";
import type { PulumiEngine } from "../toolchain/pulumiEngine";
import { DEMO_PROJECT, REPO, stageDemoProgram } from "./stage";
import { demoStackConfig, proxyConfig, serviceConfig, type DemoSettings } from "./stackConfig";
import { StateFolder } from "./stateFolder";
import { clearEmptyMetadata } from "./stoppedRun";
import { keptSecrets } from "./secretConfig";
import { flagKey, readUserProgram, stageUserProgram, userStackConfig, type UserProgram } from "./userProgram";
import type { ConsumerProject } from "../toolchain/consumerProject";
import type { ServiceSettings } from "./yamlProject";

const STACK = "demo";
const SNAPSHOT_INTERVAL = "5s";
const SNAPSHOT_WAIT_MS = 30_000;

export const say = (line = "") => process.stdout.write(`${line}\n`);

interface StepRecord {
  step: string;
  result: string;
  seconds: number;
}

/** The stack to run: the staged project and its program, its name, its config and environment. */
interface StackPlan {
  staged: { project: ConsumerProject; staged: StagedProgram };
  projectName: string;
  stack: string;
  config: ConfigMap;
  env: NodeJS.ProcessEnv;
}

/** How a run ended. */
type Outcome = "done" | "failed" | "interrupted";

/**
 * The demo, through the Pulumi engine: the demo's program (demo/program.ts) against the emulator (or, with `--real`,
 * the services named by the environment): preview, up with progress per resource, the stack outputs, a real
 * snapshot, a second up that must change and write nothing, destroy, a summary. With `--program`, a user's own
 * project instead: preview with the engine's diff, up, destroy. The stack's state and the emulator's data live in a
 * state folder (stateFolder.ts): kept in the project with `--keep`, and carried on from by the next run. A Ctrl-C
 * stops the run once the engine has recorded what it was doing (interruption.ts), and keeps what it made.
 */
export class Demo {
  private readonly steps: StepRecord[] = [];
  private readonly startedIn = process.cwd();
  private staging?: string;
  private state?: StateFolder;
  private emulator?: Emulator;
  private deployment?: Deployment;
  private shell?: KeptStackShell;
  /** Whether the stack holds nothing any more (destroyed, or never given anything), so that it can go. */
  private emptied = false;
  private readonly interruption = new Interruption(say);

  constructor(
    private readonly options: DemoOptions,
    private readonly engine: PulumiEngine,
  ) {}

  async run(): Promise<number> {
    this.interruption.start();
    let outcome: Outcome = "done";
    try {
      await (this.options.program ? this.provisionProgram(this.options.program) : this.provisionDemo());
    } catch (err) {
      say();
      // Whatever a step failed with after a Ctrl-C (the CLI's "update canceled", a child process ended by the same
      // SIGINT) is the Ctrl-C.
      if (this.interruption.interrupted || err instanceof Interrupted) {
        outcome = "interrupted";
        say("The demo was interrupted (Ctrl-C).");
      } else {
        outcome = "failed";
        say(`The demo failed: ${message(err)}`);
        this.missingConfigHint(message(err));
      }
    }
    const cleanedUp = await this.cleanUp(outcome);
    this.interruption.stop();
    this.summary(outcome, cleanedUp);
    return outcome === "interrupted" ? 130 : outcome === "done" && cleanedUp ? 0 : 1;
  }

  private get engineLine(): string {
    const where = this.engine.source === "path" ? "on PATH" : "built by npm run engine";
    return `  engine: the Pulumi engine, through the Automation API and the \`pulumi\` CLI (${this.engine.cli}, ${where})`;
  }

  private async provisionDemo(): Promise<void> {
    say("pulumi-snapshot-runtask demo");
    say(this.engineLine);
    const state = this.openState(REPO);
    this.shell = new KeptStackShell(state, this.engine, DEMO_PROJECT, STACK);
    const settings = await this.services(state);
    const config = { ...demoStackConfig(settings), ...this.proxy() };
    // Against the emulator, the environment's settings of the services are not the emulator's.
    const env = this.options.real ? {} : this.environmentReplaced([]);
    this.sayProxy(this.options.real ? "them" : "the emulator");
    this.interruption.check();
    const staged = stageDemoProgram(this.stagingDir());
    this.interruption.check();
    const deployment = await this.deploy({ staged, projectName: DEMO_PROJECT, stack: STACK, config, env });

    await this.step("preview", async () => counts(await deployment.preview(false), "planned"));
    let outputs: OutputMap = {};
    await this.step("up", async () => {
      const up = await deployment.up();
      outputs = up.result.outputs;
      printOutputs(outputs);
      return counts({ result: up.result.changes, stackOp: up.stackOp });
    });

    await this.waitForSnapshot(String(outputs.snapshotConfiguration?.value), config);

    await this.step("up again", async () => {
      this.emulator?.requests.reset();
      const up = await deployment.up();
      printOutputs(up.result.outputs);
      const changed = changesBesidesSame(up.result.changes);
      if (changed) throw new Error(`the second up should change nothing, but it did: ${changed}`);
      const writes = this.emulator?.requests.writes();
      if (writes) throw new Error(`the second up should write nothing, but it sent ${writes} write requests`);
      return `no changes (${counts({ result: up.result.changes, stackOp: up.stackOp })})${writes === 0 ? ", nothing written to the services" : ""}`;
    });
    await this.keepOrDestroy(deployment);
  }

  /** `--program`: the user's project, staged with the packed package installed, through preview, up and destroy. */
  private async provisionProgram(options: ProgramOptions): Promise<void> {
    const program = readUserProgram(options.dir);
    say(`pulumi-snapshot-runtask: the program in ${program.dir} (project ${program.name}, stack ${options.stack})`);
    say(`${this.engineLine}${program.runtime === "yaml" ? ", the package's provider plugins on PATH" : ""}`);
    const state = this.openState(program.dir);
    this.shell = new KeptStackShell(state, this.engine, program.name, options.stack);
    const stackConfig = userStackConfig(program, options, (keys) => keptSecrets(program, options.stack, keys, state, this.engine, this.shell!));
    const { config, env, services } = options.real ? realServicesOf(stackConfig, this.proxy()) : await this.emulatorFor(program, stackConfig, state);
    if (options.real) this.sayProxy("them");
    this.interruption.check();
    const staged = stageUserProgram(program, this.stagingDir(), services);
    this.interruption.check();
    const deployment = await this.deploy({ staged, projectName: program.name, stack: options.stack, config, env });

    await this.step("preview", async () => counts(await deployment.preview(true), "planned"));
    await this.step("up", async () => {
      const up = await deployment.up();
      printOutputs(up.result.outputs);
      return counts({ result: up.result.changes, stackOp: up.stackOp });
    });
    await this.keepOrDestroy(deployment);
  }

  /** The project's kept state folder where there is one or `--keep` asks for it, else a temporary one. */
  private openState(projectDir: string): StateFolder {
    const state = StateFolder.open(projectDir, this.options.keep);
    this.state = state;
    if (state.found) say(`  state: ${state.dir}, kept by an earlier run (--keep): this run carries on from it`);
    else say(`  state: ${state.dir}${state.inProject ? " (--keep)" : " (temporary)"}, a file backend, secrets by a passphrase`);
    // Before any `pulumi` command reads the stack.
    for (const file of clearEmptyMetadata(state.backend)) say(`  removed ${file}, which a \`pulumi\` killed while writing it left empty`);
    return state;
  }

  /** A folder of its own for the staged project, removed at the end. */
  private stagingDir(): string {
    this.staging = mkdtempSync(join(tmpdir(), "pulumi-demo-project-"));
    return join(this.staging, "project");
  }

  private async deploy(plan: StackPlan): Promise<Deployment> {
    say(`  project: ${plan.staged.project.dir} (the program, with the packed package installed)`);
    this.deployment = await Deployment.open({
      engine: this.engine,
      project: plan.staged.project,
      program: plan.staged.staged,
      projectName: plan.projectName,
      stack: plan.stack,
      config: plan.config,
      env: plan.env,
      state: this.state!,
      shell: this.shell!,
      say,
      verbose: this.options.verbose,
      interrupt: this.interruption.signal,
    });
    return this.deployment;
  }

  private async keepOrDestroy(deployment: Deployment): Promise<void> {
    if (this.options.keep) return;
    await this.step("destroy", async () => {
      const destroyed = await deployment.destroy();
      this.emptied = true;
      return counts(destroyed);
    });
  }

  /**
   * `--program` against the emulator: it holds the organizations the program and its stack config name, every
   * `ws-...` id they name, and the run tasks a YAML program imports; its addresses and tokens replace the services'
   * settings of the stack config, the environment and a YAML program's provider resources, so that nothing reaches a
   * real service. Kept data (`--keep`) is loaded first.
   */
  private async emulatorFor(
    program: UserProgram,
    stackConfig: ConfigMap,
    state: StateFolder,
  ): Promise<{ config: ConfigMap; env: NodeJS.ProcessEnv; services: ServiceSettings }> {
    const needs = programNeeds(program, stackConfig);
    const organization = needs.organizations[0] ?? DEFAULT_ORGANIZATION;
    // The emulator takes no snapshots: a program's paths are on the service's hosts, not on this machine.
    const kept = existsSync(state.emulatorDataFile);
    const emulator = await startEmulator({ snapshot: { takeSnapshots: false }, dataFile: state.emulatorDataFile, faults: this.latency() });
    this.emulator = emulator;
    const store = emulator.runTask.store;
    for (const name of needs.organizations) if (!store.organizations.has(name)) emulator.runTask.addOrganization(name);
    for (const [id, org] of needs.workspaces) if (!store.workspaces.has(id)) emulator.runTask.addWorkspace(org || organization, id, id);
    const imported = needs.imports.filter((i) => !store.tasksOf(i.organization).some((t) => t.name === i.name));
    for (const { organization: org, ...fields } of imported) {
      emulator.runTask.addTask(org, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as typeof fields);
    }
    say(`  services: the emulator at ${emulator.url}${kept ? ", holding what it held when the stack was kept" : ""}`);
    this.sayLatency();
    for (const org of [organization, ...needs.organizations.slice(1)]) {
      const workspaces = emulator.runTask.workspaces(org).map((w) => (w.name === w.id ? w.id : `${w.name} (${w.id})`));
      say(`    organization ${org}: workspaces ${workspaces.join(", ") || "none"}`);
    }
    if (needs.imports.length > 0) say(`    run tasks the program imports: ${needs.imports.map((i) => `${i.organization}/${i.name}`).join(", ")}`);
    const replaced = Object.keys(stackConfig).filter((k) => /^(snapshot|runtask):/.test(k) && k !== "runtask:organization");
    // The environment's settings of the services are not the emulator's either.
    const env = this.environmentReplaced(replaced);
    const services: ServiceSettings = {
      snapshot: { address: emulator.url, token: DEFAULT_SNAPSHOT_TOKEN },
      runtask: { address: emulator.url, token: DEFAULT_RUNTASK_TOKEN },
    };
    if (program.runtime === "yaml" && Object.values(program.document.resources ?? {}).some((r) => /^pulumi:providers:/.test(String(r?.type)))) {
      say("    in place of the addresses and tokens of the program's provider resources too");
    }
    this.sayProxy("the emulator");
    const config: ConfigMap = Object.fromEntries(Object.entries(stackConfig).filter(([k]) => !replaced.includes(k)));
    Object.assign(
      config,
      serviceConfig({
        snapshot: services.snapshot,
        runTask: { ...services.runtask, organization },
      }),
      this.proxy(),
    );
    return { config, env, services };
  }

  /**
   * The environment of a run against the emulator: the services' variables (RUNTASK_ADDR, RUNTASK_PROXY_ADDR, ...)
   * unset, so that nothing reaches a real service or a proxy the user set for one; what it leaves out is said, with
   * the stack config's settings left out (`replaced`). `--proxy` is the way to put a proxy in front of the emulator:
   * the environment's HTTPS_PROXY and HTTP_PROXY never reach it, since loopback is never proxied by them.
   */
  private environmentReplaced(replaced: string[]): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    const variables = [...Object.values(SNAPSHOT_SETTING_KEYS), ...Object.values(RUNTASK_SETTING_KEYS)].map(([, variable]) => variable);
    for (const variable of variables) env[variable] = undefined;
    const set = variables.filter((v) => process.env[v]);
    const places = [
      ...(replaced.length > 0 ? [`the stack's ${replaced.join(", ")}`] : []),
      ...(set.length > 0 ? [`the environment's ${set.join(", ")}`] : []),
    ];
    if (places.length > 0) say(`    in place of ${places.join(", and of ")} (--real uses them)`);
    return env;
  }

  /**
   * Where the requests to the services go: through `--proxy`, or, where the environment names proxies, straight to
   * the emulator, which they do not reach (HTTPS_PROXY and HTTP_PROXY never take loopback addresses; the services'
   * own proxy variables are left out, as above).
   */
  private sayProxy(target: "the emulator" | "them"): void {
    if (this.options.proxy) {
      say(`    proxy: every request to ${target} goes through ${proxyRoute("--proxy", this.options.proxy).name} (--proxy)`);
      return;
    }
    if (target !== "the emulator") return;
    const general = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"].filter((v) => process.env[v]);
    const own = [SNAPSHOT_SETTING_KEYS.proxy[1], RUNTASK_SETTING_KEYS.proxy[1]].filter((v) => process.env[v]);
    if (general.length === 0 && own.length === 0) return;
    const why = general.length > 0 ? `${general.join(", ")} never takes the emulator's loopback address; ` : "";
    say(`    no proxy: ${why}--proxy <url> sends the emulator's requests through one`);
  }

  /** `--proxy`'s stack config, where it was given. */
  private proxy(): ConfigMap {
    return this.options.proxy ? proxyConfig(this.options.proxy) : {};
  }

  /** The emulator (holding what it held when kept), or the real services from the environment (`--real`). */
  private async services(state: StateFolder): Promise<DemoSettings> {
    const hmacKey = state.secret("demo-hmac-key");
    const real = this.options.real;
    if (real) {
      say(`  services: ${real.snapshot.address} and ${real.runTask.address} (--real), organization ${real.runTask.organization}`);
      return {
        credentials: real,
        workspaceId: real.workspaceId,
        snapshotPath: real.snapshotPath,
        hmacKey,
        snapshotInterval: SNAPSHOT_INTERVAL,
        globalEnabled: real.globalEnabled,
      };
    }
    this.emulator = await startEmulator({ dataFile: state.emulatorDataFile, faults: this.latency() });
    const workspace = this.emulator.runTask.workspace("app-production", DEFAULT_ORGANIZATION);
    say(`  services: the emulator at ${this.emulator.url}, organization ${DEFAULT_ORGANIZATION}, workspace ${workspace.name} (${workspace.id})`);
    this.sayLatency();
    return {
      credentials: {
        snapshot: { address: this.emulator.url, token: DEFAULT_SNAPSHOT_TOKEN },
        runTask: { address: this.emulator.url, token: DEFAULT_RUNTASK_TOKEN, organization: DEFAULT_ORGANIZATION },
      },
      workspaceId: workspace.id,
      snapshotPath: state.path("snapshots"),
      hmacKey,
      snapshotInterval: SNAPSHOT_INTERVAL,
    };
  }

  /** `--latency`: the emulator's answers held once their requests are carried out. */
  private latency(): FaultOptions | undefined {
    return this.options.latencyMs ? { answerLatencyMs: this.options.latencyMs } : undefined;
  }

  private sayLatency(): void {
    if (this.options.latencyMs) say(`    each answer held ${this.options.latencyMs} ms once its request is carried out (--latency)`);
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
      await sleep(500, this.interruption.signal);
    }
    say(`  no snapshot within ${SNAPSHOT_WAIT_MS / 1000}s; the status output will be empty`);
  }

  private async step(step: string, body: () => Promise<string>): Promise<string> {
    this.interruption.check();
    say();
    say(`== ${step}`);
    const started = Date.now();
    try {
      const result = await body();
      this.steps.push({ step, result, seconds: (Date.now() - started) / 1000 });
      say(`  ${step}: ${result}`);
      return result;
    } catch (err) {
      this.steps.push({ step, result: this.interruption.interrupted ? "interrupted" : "FAILED", seconds: (Date.now() - started) / 1000 });
      throw err;
    }
  }

  /**
   * After a failure without `--keep`, destroys what the stack holds, if anything. Then removes the stack and the state
   * folder where the stack is empty, and otherwise keeps the folder and says how to look at the stack: with `--keep`,
   * a folder kept by an earlier run, or a temporary one whose stack holds objects at real services. The emulator is
   * closed first (its data file written once more); the staged project goes either way.
   */
  private async cleanUp(outcome: Outcome): Promise<boolean> {
    let ok = true;
    const state = this.state;
    const deployment = this.deployment;
    if (deployment && outcome === "failed" && !this.emptied && !this.options.keep) {
      try {
        if (await deployment.holdsResources()) {
          say("Destroying what the run left behind...");
          await deployment.destroy();
        }
        this.emptied = true;
      } catch (err) {
        ok = false;
        say(`  destroy failed as well (${message(err)})`);
      }
    }
    if (this.emptied) await deployment?.removeStack().catch(() => undefined);
    process.chdir(this.startedIn);
    const snapshots = state && this.options.keep ? safeList(state.path("snapshots")) : [];
    await this.emulator?.close();
    const real = this.options.real !== undefined || this.options.program?.real === true;
    const stays =
      state !== undefined &&
      !this.emptied &&
      (state.inProject || (real && deployment !== undefined && (await deployment.holdsResources().catch(() => true))));
    if (state && stays) {
      say();
      const why = this.options.keep
        ? " (--keep)"
        : outcome === "done"
          ? ""
          : ` (the run ${outcome === "interrupted" ? "was interrupted" : "failed"})`;
      say(`Kept${why}: the stack's state and the emulator's data, in ${state.dir}. Look at the stack with:`);
      say(`  ${this.shell!.environment()}`);
      say(
        `  ${this.shell!.command(["stack", "output", "--stack", this.shell!.stack])} && ${this.shell!.command(["stack", "export", "--stack", this.shell!.stack])}`,
      );
      if (this.emulator) say("  Run the demo again on the same project to carry on from it (against the emulator, which holds its objects again).");
      if (outcome !== "done" && !this.options.keep) say("  (run it again without --keep to destroy the stack)");
      if (snapshots.length > 0) say(`Snapshots written by the emulator: ${snapshots.join(", ")} in ${state.path("snapshots")}`);
    } else if (state && (this.emptied || !state.found)) {
      state.remove();
    }
    if (this.staging) rmSync(this.staging, { recursive: true, force: true });
    return ok;
  }

  /**
   * After a failure that says a config value is missing, how to give it through the demo: the SDK's message advises
   * `pulumi config set --secret <key>`, which works here only as the demo prints it (the kept stack's backend and
   * passphrase, the CLI the demo ran, the stack named), and only for a kept stack, whose passphrase the next run has.
   */
  private missingConfigHint(failure: string): void {
    const program = this.options.program;
    if (!program) return;
    const project = readUserProgram(program.dir).name;
    // The SDK's words (`Missing required configuration variable 'my-stack:hmacKey'`): a hint only, no behaviour.
    const keys = [...new Set([...failure.matchAll(/configuration variable '([^']+)'/gi)].map((m) => m[1]))];
    for (const key of keys) {
      const short = flagKey(project, key);
      say(`  Give ${key} with --secret ${short}=<value> (or --config ${short}=<value> for a value that is not secret).`);
      if (this.state?.inProject && this.shell) {
        say(`  Or store it, encrypted with the kept stack's passphrase, in Pulumi.${program.stack}.yaml, which the next run reads:`);
        say(`    ${this.shell.environment()}`);
        say(`    cd ${shellWord(program.dir)} && ${this.shell.command(["config", "set", "--secret", "--stack", program.stack, short, "<value>"])}`);
      }
    }
  }

  private summary(outcome: Outcome, cleanedUp: boolean): void {
    say();
    say("Summary");
    const width = Math.max(...this.steps.map((s) => s.step.length), 4);
    for (const s of this.steps) say(`  ${s.step.padEnd(width)}  ${s.result}  (${s.seconds.toFixed(1)}s)`);
    say(
      outcome === "interrupted"
        ? "The demo was interrupted."
        : outcome === "done" && cleanedUp
          ? "The demo ran to the end."
          : "The demo did not complete.",
    );
  }
}

/**
 * `--program --real`: the services the stack config and the environment name, as `pulumi up` would reach them; with
 * `--proxy`, through that proxy.
 */
function realServicesOf(config: ConfigMap, proxy: ConfigMap): { config: ConfigMap; env: NodeJS.ProcessEnv; services: undefined } {
  say("  services: those the stack config and the environment name (--real)");
  return { config: { ...config, ...proxy }, env: {}, services: undefined };
}

/** `2 updated` when anything but `same` happened, else undefined. */
export function changesBesidesSame(changes: OpMap | undefined): string | undefined {
  const other = Object.fromEntries(Object.entries(changes ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0));
  return Object.keys(other).length > 0 ? describeChanges(other) : undefined;
}

/**
 * A command's counts, as the engine gives them, saying that they count the stack resource (`pulumi:pulumi:Stack`),
 * which the program does not declare: `4 to create, the stack among them`.
 */
export function counts({ result, stackOp }: Counted<OpMap>, kind: "done" | "planned" = "done"): string {
  const described = describeChanges(result, kind);
  if (stackOp === undefined || !((result[stackOp] ?? 0) > 0)) return described;
  const kinds = Object.values(result).filter((n) => (n ?? 0) > 0).length;
  if (kinds === 1) return `${described}, the stack among them`;
  const word = describeChanges({ [stackOp]: 1 }, kind).replace(/^1 /, "");
  return `${described}, the stack among ${word.startsWith("to ") ? "those" : "the"} ${word}`;
}

function printOutputs(outputs: OutputMap): void {
  if (Object.keys(outputs).length === 0) return;
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

export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
