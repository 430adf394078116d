import { randomBytes } from "node:crypto";
import { readdirSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { OpMap, OutputMap } from "@pulumi/pulumi/automation";
import { describeChanges } from "../automation/progress";
import { startEmulator, type Emulator } from "../emulator";
import { DEFAULT_ORGANIZATION, DEFAULT_RUNTASK_TOKEN } from "../emulator/runtask/service";
import { DEFAULT_SNAPSHOT_TOKEN } from "../emulator/snapshot/service";
import type { StackConfig } from "../engine";
import { RUNTASK_SETTING_KEYS } from "../provider/services/runtask/settings";
import { SnapshotEndpoints } from "../provider/services/snapshot/endpoints";
import { resolveSnapshotSettings, SNAPSHOT_SETTING_KEYS } from "../provider/services/snapshot/settings";
import type { Deployment, DeploymentContext } from "./deployment";
import type { DemoOptions, ProgramOptions } from "./options";
import { projectMain, REPO, stageProject } from "./stage";
import { demoStackConfig, serviceConfig, type DemoSettings } from "./stackConfig";
import {
  explicitProviders,
  namedOrganizations,
  namedWorkspaceIds,
  readUserProgram,
  stageUserProgram,
  userStackConfig,
  type UserProgram,
} from "./userProgram";

const STACK = "demo";
const SNAPSHOT_INTERVAL = "5s";
const SNAPSHOT_WAIT_MS = 30_000;

export const say = (line = "") => process.stdout.write(`${line}\n`);

/** What runs the demo's stack: its name for the opening lines, and how to make the deployment. */
export interface DemoEngine {
  description: string;
  /** The Pulumi engine, or the engine driver (which alone puts the emulator's settings in explicit providers'). */
  kind: "pulumi" | "driver";
  deploy(ctx: DeploymentContext): Promise<Deployment>;
}

interface StepRecord {
  step: string;
  result: string;
  seconds: number;
}

/**
 * The demo: the root Pulumi.yaml project against the emulator (or, with `--real`, the services named by the
 * environment): preview, up with progress per resource, the stack outputs, a real snapshot, a second up that
 * must change and write nothing, destroy, a summary. With `--program`, a user's own project instead: preview, up,
 * destroy. Everything it writes goes to its work directory, which it removes at the end unless `--keep`.
 */
export class Demo {
  private readonly work = join(REPO, ".pulumi-demo", `run-${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}`);
  private readonly steps: StepRecord[] = [];
  private emulator?: Emulator;
  private deployment?: Deployment;
  private destroyed = false;

  constructor(
    private readonly options: DemoOptions,
    private readonly engine: DemoEngine,
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
    if (this.options.program) return this.provisionProgram(this.options.program);
    say("pulumi-snapshot-runtask demo");
    say(`  engine: ${this.engine.description}`);
    const settings = await this.services();
    const config = demoStackConfig(settings);

    const { project } = stageProject(join(this.work, "project"));
    say(`  project: ${project.dir} (the root Pulumi.yaml and its program, with the packed package installed)`);
    const deployment = await this.deploy({
      project,
      main: projectMain(),
      runtime: "nodejs",
      stack: STACK,
      config,
      env: {},
      againstEmulator: !this.options.real,
    });

    await this.step("preview", async () => describeChanges(await deployment.preview(), "planned"));
    let outputs: OutputMap = {};
    await this.step("up", async () => {
      const result = await deployment.up();
      outputs = result.outputs;
      printOutputs(outputs);
      return describeChanges(result.changes);
    });

    await this.waitForSnapshot(String(outputs.snapshotConfiguration?.value), config);

    await this.step("up again", async () => {
      this.emulator?.requests.reset();
      const result = await deployment.up();
      printOutputs(result.outputs);
      const changed = changesBesidesSame(result.changes);
      if (changed) throw new Error(`the second up should change nothing, but it did: ${changed}`);
      const writes = this.emulator?.requests.writes();
      if (writes) throw new Error(`the second up should write nothing, but it sent ${writes} write requests`);
      return `no changes (${describeChanges(result.changes)})${writes === 0 ? ", nothing written to the services" : ""}`;
    });

    await this.keepOrDestroy(deployment, this.options.real !== undefined);
  }

  /** `--program`: the user's project, staged with the packed package installed, through preview, up and destroy. */
  private async provisionProgram(options: ProgramOptions): Promise<void> {
    const program = readUserProgram(options.dir);
    say(`pulumi-snapshot-runtask: the program in ${program.dir} (project ${program.name}, stack ${options.stack})`);
    say(`  engine: ${this.engine.description}${program.runtime === "yaml" ? ", on the package's provider plugins" : ""}`);
    if (this.engine.kind === "pulumi" && !options.real && explicitProviders(program).length > 0) {
      throw new Error(
        `the program's provider resources (${explicitProviders(program).join(", ")}) keep their own addresses and tokens ` +
          "under the Pulumi engine, which would reach the services they name: run it with --real, or without a Pulumi CLI on PATH",
      );
    }
    const stackConfig = userStackConfig(program, options);
    const { config, env } = options.real ? this.realServicesOf(stackConfig) : await this.emulatorFor(program, stackConfig);
    const { project, main } = stageUserProgram(program, join(this.work, "project"));
    say(`  project: ${project.dir} (a copy of the program, with the packed package installed)`);
    const deployment = await this.deploy({
      project,
      main,
      runtime: program.runtime,
      stack: options.stack,
      config,
      env,
      againstEmulator: !options.real,
    });

    await this.step("preview", async () => describeChanges(await deployment.preview(), "planned"));
    await this.step("up", async () => {
      const result = await deployment.up();
      printOutputs(result.outputs);
      return describeChanges(result.changes);
    });
    await this.keepOrDestroy(deployment, options.real);
  }

  private async deploy(ctx: Omit<DeploymentContext, "work" | "say" | "verbose">): Promise<Deployment> {
    const deployment = await this.engine.deploy({ ...ctx, work: this.work, say, verbose: this.options.verbose });
    this.deployment = deployment;
    for (const line of deployment.describe()) say(line);
    return deployment;
  }

  private async keepOrDestroy(deployment: Deployment, real: boolean): Promise<void> {
    if (this.options.keep) {
      say();
      say("Kept (--keep): the stack, its state and its resources. Inspect it with:");
      for (const line of await deployment.keep()) say(line);
      if (!real) say("  (the emulator stops with the demo, so further updates need --real or a running emulator)");
    } else {
      await this.step("destroy", async () => {
        const changes = await deployment.destroy();
        this.destroyed = true;
        return describeChanges(changes);
      });
    }
  }

  /** `--program --real`: the services the stack config and the environment name, as `pulumi up` would reach them. */
  private realServicesOf(config: StackConfig): { config: StackConfig; env: NodeJS.ProcessEnv } {
    say("  services: those the stack config and the environment name (--real)");
    return { config, env: {} };
  }

  /**
   * `--program` against the emulator: it holds the organization the stack config names and every `ws-...` id the
   * program or its config names, and its addresses and tokens replace the services' settings of the stack config
   * and the environment, so that nothing reaches a real service.
   */
  private async emulatorFor(program: UserProgram, stackConfig: StackConfig): Promise<{ config: StackConfig; env: NodeJS.ProcessEnv }> {
    const organizations = namedOrganizations(program, stackConfig);
    const organization = organizations[0] ?? DEFAULT_ORGANIZATION;
    // The emulator takes no snapshots: a program's paths are on the service's hosts, not on this machine.
    const emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
    this.emulator = emulator;
    for (const name of organizations) if (!emulator.runTask.store.organizations.has(name)) emulator.runTask.addOrganization(name);
    for (const id of namedWorkspaceIds(program, stackConfig)) {
      if (!emulator.runTask.store.workspaces.has(id)) emulator.runTask.addWorkspace(organization, id, id);
    }
    const workspaces = [...emulator.runTask.store.workspaces.values()].filter((w) => w.organization === organization);
    say(
      `  services: the emulator at ${emulator.url}, organization${organizations.length > 1 ? "s" : ""} ${[organization, ...organizations.slice(1)].join(", ")}`,
    );
    say(`    workspaces (of ${organization}): ${workspaces.map((w) => (w.name === w.id ? w.id : `${w.name} (${w.id})`)).join(", ") || "none"}`);
    const replaced = Object.keys(stackConfig).filter((k) => /^(snapshot|runtask):/.test(k) && k !== "runtask:organization");
    if (replaced.length > 0) say(`    in place of the stack's ${replaced.join(", ")} (--real uses them)`);
    if (program.runtime === "yaml") say("    in place of the addresses and tokens of the program's provider resources too");
    const config: StackConfig = Object.fromEntries(Object.entries(stackConfig).filter(([k]) => !replaced.includes(k)));
    Object.assign(
      config,
      serviceConfig({
        snapshot: { address: emulator.url, token: DEFAULT_SNAPSHOT_TOKEN },
        runTask: { address: emulator.url, token: DEFAULT_RUNTASK_TOKEN, organization },
      }),
    );
    // The environment's settings of the services are not the emulator's either.
    const env: NodeJS.ProcessEnv = {};
    for (const [, variable] of [...Object.values(SNAPSHOT_SETTING_KEYS), ...Object.values(RUNTASK_SETTING_KEYS)]) env[variable] = undefined;
    return { config, env };
  }

  /** The emulator, or the real services from the environment (`--real`). */
  private async services(): Promise<DemoSettings> {
    const hmacKey = randomBytes(24).toString("base64url");
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

  /** Waits until the service has taken a snapshot for the configuration, reading its status over HTTP. */
  private async waitForSnapshot(name: string, config: StackConfig): Promise<void> {
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

  /** Unless kept, destroys what is left, removes the stack and the work directory; then stops the emulator. */
  private async cleanUp(): Promise<boolean> {
    let ok = true;
    if (!this.options.keep) {
      if (this.deployment && !this.destroyed) {
        try {
          say("Destroying what the failed run left behind...");
          await this.deployment.destroy();
        } catch (err) {
          ok = false;
          say(`  destroy failed as well (${message(err)}); the state is kept in ${this.work}`);
        }
      }
      try {
        await this.deployment?.removeStack();
      } catch {
        // the stack may not exist
      }
      if (ok) {
        rmSync(this.work, { recursive: true, force: true });
        removeIfEmpty(dirname(this.work));
      }
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

/** The `.pulumi-demo` folder goes too once no run is left in it. */
function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // gone already
  }
}

export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
