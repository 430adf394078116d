import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { UnaryGrpcClient, type Message, type MessageClass } from "./grpcUnary";
import { cpuMs, peakRssKb } from "./processStats";

/** The plugin's answer to Diff, as the engine reads it. */
export interface DiffAnswer {
  changes: "unknown" | "none" | "some";
  replaces: string[];
  deleteBeforeReplace: boolean;
}

type Props = Record<string, unknown>;

/**
 * The real `@pulumi/pulumi/cmd/dynamic-provider` plugin, started the way the engine starts it: in the program's
 * directory (so `require` in `__provider` resolves from the program's node_modules), with one argument (the
 * engine address, which it never uses); it prints its port on the first stdout line and speaks gRPC.
 * The protobuf messages are those of the program's own @pulumi/pulumi, the same copy the plugin uses.
 */
export class DynamicPlugin {
  /** Everything the plugin printed on stdout and stderr, for leak checks. */
  output = "";
  private constructor(
    private readonly child: ChildProcess,
    private readonly client: UnaryGrpcClient,
    private readonly pb: any,
    private readonly Struct: any,
    private readonly Empty: any,
  ) {}

  static async start(programDir: string, env: NodeJS.ProcessEnv = {}): Promise<DynamicPlugin> {
    const pulumiDir = join(programDir, "node_modules/@pulumi/pulumi");
    const pb = require(join(pulumiDir, "proto/provider_pb"));
    const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] }));
    const { Empty } = require(require.resolve("google-protobuf/google/protobuf/empty_pb", { paths: [pulumiDir] }));
    const child = spawn(process.execPath, [join(pulumiDir, "cmd/dynamic-provider/index.js"), "127.0.0.1:0"], {
      cwd: programDir,
      env: { ...process.env, PULUMI_NODEJS_PROJECT: "conformance-fixture", PULUMI_PROJECT: "conformance-fixture", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stderr!.on("data", (d) => (output += d));
    const port = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once("line", (line) => {
        resolve(line.trim());
        child.stdout!.on("data", (d) => (output += d));
      });
      child.once("exit", (code) => reject(new Error(`plugin exited (${code}) before printing its port: ${output}`)));
    });
    const plugin = new DynamicPlugin(child, new UnaryGrpcClient(`127.0.0.1:${port}`), pb, Struct, Empty);
    child.stderr!.removeAllListeners("data");
    child.stderr!.on("data", (d) => (plugin.output += d));
    child.stdout!.on("data", (d) => (plugin.output += d));
    plugin.output = output;
    return plugin;
  }

  private call<T>(method: string, request: Message, response: MessageClass<T>): Promise<T> {
    return this.client.call(`/pulumirpc.ResourceProvider/${method}`, request, response);
  }

  private request(Type: any, urn: string, fields: Record<string, unknown>): Message {
    const req = new Type();
    req.setUrn(urn);
    for (const [setter, value] of Object.entries(fields)) req[setter](value);
    return req;
  }

  private struct(props: Props): unknown {
    return this.Struct.fromJavaScript(props);
  }

  /** The engine sends the whole stack config, every namespace, secrets decrypted. */
  async configure(config: Record<string, string>): Promise<void> {
    const req = new this.pb.ConfigureRequest();
    req.setArgs(this.Struct.fromJavaScript(config));
    const res: any = await this.call("Configure", req, this.pb.ConfigureResponse);
    if (res.getAcceptsecrets()) throw new Error("the dynamic provider plugin was expected to decline secrets");
  }

  async check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }> {
    const res: any = await this.call("Check", this.request(this.pb.CheckRequest, urn, { setOlds: this.struct(olds), setNews: this.struct(news) }), this.pb.CheckResponse);
    return {
      inputs: res.getInputs()?.toJavaScript() ?? {},
      failures: res.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async diff(urn: string, id: string, olds: Props, news: Props): Promise<DiffAnswer> {
    const res: any = await this.call("Diff", this.request(this.pb.DiffRequest, urn, { setId: id, setOlds: this.struct(olds), setNews: this.struct(news) }), this.pb.DiffResponse);
    const changes = (["unknown", "none", "some"] as const)[res.getChanges()];
    return { changes, replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
  }

  async create(urn: string, props: Props): Promise<{ id: string; outputs: Props }> {
    const res: any = await this.call("Create", this.request(this.pb.CreateRequest, urn, { setProperties: this.struct(props) }), this.pb.CreateResponse);
    return { id: res.getId(), outputs: res.getProperties()?.toJavaScript() ?? {} };
  }

  async read(urn: string, id: string, props: Props, inputs: Props): Promise<{ id: string; outputs: Props; inputs?: Props }> {
    const res: any = await this.call(
      "Read",
      this.request(this.pb.ReadRequest, urn, { setId: id, setProperties: this.struct(props), setInputs: this.struct(inputs) }),
      this.pb.ReadResponse,
    );
    return { id: res.getId(), outputs: res.getProperties()?.toJavaScript() ?? {}, inputs: res.getInputs()?.toJavaScript() };
  }

  async update(urn: string, id: string, olds: Props, news: Props): Promise<Props> {
    const res: any = await this.call("Update", this.request(this.pb.UpdateRequest, urn, { setId: id, setOlds: this.struct(olds), setNews: this.struct(news) }), this.pb.UpdateResponse);
    return res.getProperties()?.toJavaScript() ?? {};
  }

  async delete(urn: string, id: string, props: Props): Promise<void> {
    await this.call("Delete", this.request(this.pb.DeleteRequest, urn, { setId: id, setProperties: this.struct(props) }), this.Empty);
  }

  /** Peak resident set size of the plugin process so far (VmHWM), in KiB; undefined where /proc is absent. */
  peakRssKb(): number | undefined {
    return peakRssKb(this.child.pid);
  }

  /** CPU time the plugin process has used so far, in milliseconds; undefined where /proc is absent. */
  cpuMs(): number | undefined {
    return cpuMs(this.child.pid);
  }

  async stop(): Promise<void> {
    this.client.close();
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill();
    await exited;
  }
}
