import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct, type JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";
import * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { startEmulator } from "../emulator";
import { NULL_PROVIDER_MODULE } from "./nullProvider";
import { benchConfig, median, type Measured, type Setting } from "./setting";

export interface StartupFigures {
  /** Where it was measured on its own, when, on what code and under what load. */
  measured?: Measured;
  runs: number;
  /** Median milliseconds from the plugin's start to its first Check answered (what a preview waits for first). */
  check: StartupTimes;
  /** The same to the first Create answered, after its Check (what an up waits for). */
  create: StartupTimes;
  /** The same for the first command after installation: Node's compile cache, which later commands read, empty. */
  createFirstCommand: StartupTimes;
  /** The provider plugin `pulumi-resource-snapshot`: median milliseconds from its start to its first answer, Check and Create. */
  plugin: { firstAnswerMs: number; checkMs: number; createMs: number };
}

export interface StartupTimes {
  /** With the null provider. */
  nullProviderMs: number;
  providerMs: number;
  /** What ours adds: the difference of the medians from the moment the plugin printed its port. */
  addedMs: number;
}

const DYNAMIC_URN = "urn:pulumi:dev::startup::pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig::cfg";
const PLUGIN_URN = "urn:pulumi:dev::startup::snapshot:index:SnapshotAutoConfig::cfg";
const ARGS = { interval: "24h", pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" };

/** A resource's provider text, as the SDK stores one for a provider that is a module: a `require` of it. */
const providerText = (module: string) => `exports.handler = () => require(${JSON.stringify(module)});\n`;

/** A plugin process, started as the engine starts one, and a gRPC client of it. */
export class Plugin {
  private constructor(
    private readonly child: ChildProcess,
    private readonly client: grpc.Client,
  ) {}

  /** Starts `command` with the engine's address as its argument; resolves once it printed its port. */
  static async start(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Plugin> {
    const child = spawn(command, ["127.0.0.1:0"], { cwd, env, stdio: ["ignore", "pipe", "ignore"], detached: true });
    const port = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
      child.once("exit", (code) => reject(new Error(`${command} exited (${code}) before printing its port`)));
    });
    return new Plugin(child, new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()));
  }

  call<T>(method: string, request: { serializeBinary(): Uint8Array }, response: { deserializeBinary(b: Uint8Array): T }): Promise<T> {
    return new Promise((resolve, reject) =>
      this.client.makeUnaryRequest(
        `/pulumirpc.ResourceProvider/${method}`,
        (m: typeof request) => Buffer.from(m.serializeBinary()),
        (b: Buffer) => response.deserializeBinary(b),
        request,
        (err, res) => (err ? reject(err) : resolve(res!)),
      ),
    );
  }

  configure(args: Record<string, unknown>, acceptSecrets: boolean) {
    const req = new providerPb.ConfigureRequest().setArgs(struct(args)).setAcceptsecrets(acceptSecrets);
    return this.call("Configure", req, providerPb.ConfigureResponse);
  }

  async check(urn: string, news: Record<string, unknown>): Promise<Record<string, unknown>> {
    const req = new providerPb.CheckRequest().setUrn(urn).setOlds(struct({})).setNews(struct(news));
    return (await this.call("Check", req, providerPb.CheckResponse)).getInputs()?.toJavaScript() ?? {};
  }

  create(urn: string, inputs: Record<string, unknown>) {
    return this.call("Create", new providerPb.CreateRequest().setUrn(urn).setProperties(struct(inputs)), providerPb.CreateResponse);
  }

  info() {
    return this.call("GetPluginInfo", new Empty(), pluginPb.PluginInfo);
  }

  async stop(): Promise<void> {
    this.client.close();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    // The dynamic plugin runs under a shell script: the whole process group goes.
    process.kill(-this.child.pid!, "SIGTERM");
    await exited;
  }
}

function struct(props: Record<string, unknown>): Struct {
  return Struct.fromJavaScript(props as Record<string, JavaScriptValue>);
}

/**
 * Start-up measured directly, each plugin started as the engine starts it (the executable found on PATH, the
 * engine's address its argument, the port read from its stdout): the dynamic provider plugin with the null
 * provider and with ours, alternating, so that both see the machine in the same state; ours also with an empty
 * compile cache (the first command after installation); and the provider plugin `pulumi-resource-snapshot`.
 */
export async function startup(setting: Setting, runs: number): Promise<StartupFigures> {
  const emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  // Compile caches of these runs' own: Node keeps its default one under the temporary folder.
  const caches = mkdtempSync(join(tmpdir(), "bench-startup-"));
  const env = (cache: string): NodeJS.ProcessEnv => ({
    ...process.env,
    PATH: [...setting.engine.path, setting.project.binDir, process.env.PATH ?? ""].join(delimiter),
    TMPDIR: cache,
    NODE_COMPILE_CACHE: undefined,
    PULUMI_NODEJS_PROJECT: "startup",
    PULUMI_PROJECT: "startup",
  });
  const config = benchConfig(emulator.url);
  const dynamic = join(setting.engine.path[0], "pulumi-resource-pulumi-nodejs");
  let next = 0;
  const firstOperation = async (module: string, cache: string, create: boolean) => {
    const started = process.hrtime.bigint();
    const plugin = await Plugin.start(dynamic, setting.project.dir, env(cache));
    const up = process.hrtime.bigint();
    try {
      await plugin.configure(config, false);
      // A name of its own each time: a create must not find an earlier run's configuration.
      const inputs = await plugin.check(DYNAMIC_URN, {
        ...ARGS,
        name: `cfg-${next}`,
        resourceName: `cfg-${next++}`,
        __provider: providerText(module),
      });
      if (create) await plugin.create(DYNAMIC_URN, inputs);
      const end = process.hrtime.bigint();
      return { totalMs: Number(end - started) / 1e6, afterStartMs: Number(end - up) / 1e6 };
    } finally {
      await plugin.stop();
    }
  };
  const pluginFirstOperation = async (cache: string) => {
    const started = process.hrtime.bigint();
    const since = () => Number(process.hrtime.bigint() - started) / 1e6;
    const plugin = await Plugin.start(join(setting.project.binDir, "pulumi-resource-snapshot"), setting.project.dir, env(cache));
    try {
      await plugin.info();
      const firstAnswerMs = since();
      await plugin.configure({ address: config["snapshot:address"], token: config["snapshot:token"] }, true);
      const inputs = await plugin.check(PLUGIN_URN, { ...ARGS, name: `cfg-${next++}` });
      const checkMs = since();
      await plugin.create(PLUGIN_URN, inputs);
      return { firstAnswerMs, checkMs, createMs: since() };
    } finally {
      await plugin.stop();
    }
  };
  try {
    const ours = "pulumi-snapshot-runtask/shim/snapshotAutoConfig";
    type Sample = Awaited<ReturnType<typeof firstOperation>>;
    const s = { checkNull: [] as Sample[], check: [] as Sample[], createNull: [] as Sample[], create: [] as Sample[], createCold: [] as Sample[] };
    const plugin: Awaited<ReturnType<typeof pluginFirstOperation>>[] = [];
    // Fills the cache that later commands find.
    await firstOperation(ours, caches, true);
    await pluginFirstOperation(caches);
    for (let i = 0; i < runs; i++) {
      s.checkNull.push(await firstOperation(NULL_PROVIDER_MODULE, caches, false));
      s.check.push(await firstOperation(ours, caches, false));
      s.createNull.push(await firstOperation(NULL_PROVIDER_MODULE, caches, true));
      s.create.push(await firstOperation(ours, caches, true));
      s.createCold.push(await firstOperation(ours, mkdtempSync(join(caches, "empty-")), true));
      plugin.push(await pluginFirstOperation(caches));
    }
    const m = (xs: number[]) => Math.round(median(xs));
    const times = (nulls: Sample[], mine: Sample[]): StartupTimes => ({
      nullProviderMs: m(nulls.map((x) => x.totalMs)),
      providerMs: m(mine.map((x) => x.totalMs)),
      addedMs: m(mine.map((x) => x.afterStartMs)) - m(nulls.map((x) => x.afterStartMs)),
    });
    return {
      runs,
      check: times(s.checkNull, s.check),
      create: times(s.createNull, s.create),
      createFirstCommand: times(s.createNull, s.createCold),
      plugin: {
        firstAnswerMs: m(plugin.map((p) => p.firstAnswerMs)),
        checkMs: m(plugin.map((p) => p.checkMs)),
        createMs: m(plugin.map((p) => p.createMs)),
      },
    };
  } finally {
    await emulator.close();
    rmSync(caches, { recursive: true, force: true });
  }
}
