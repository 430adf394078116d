import { join } from "node:path";
import type * as emptyPb from "google-protobuf/google/protobuf/empty_pb";
import type * as structPb from "google-protobuf/google/protobuf/struct_pb";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { UnaryGrpcClient, type Message, type MessageClass } from "../../test/support/plugin/grpcUnary";
import { readingInitFailure } from "../../test/support/plugin/initFailure";

type Props = Record<string, unknown>;

/** The plugin's answer to Diff, as the engine reads it. */
export interface DiffAnswer {
  changes: "unknown" | "none" | "some";
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** The changed keys (`diffs`); the dynamic provider plugin sends none. */
  changed: string[];
  /** The detailed diff's paths, when the plugin sent one, and those that compare inputs (`inputDiff`). */
  detailed?: { paths: string[]; inputDiff: string[] };
}

/** The generated protobuf messages of one copy of @pulumi/pulumi. */
interface Protos {
  pb: typeof providerPb;
  Struct: typeof structPb.Struct;
  Empty: typeof emptyPb.Empty;
}

function loadProtos(pulumiDir: string): Protos {
  const fromPulumi = (name: string) => require(require.resolve(name, { paths: [pulumiDir] }));
  return {
    pb: require(join(pulumiDir, "proto/provider_pb")),
    Struct: fromPulumi("google-protobuf/google/protobuf/struct_pb").Struct,
    Empty: fromPulumi("google-protobuf/google/protobuf/empty_pb").Empty,
  };
}

const CHANGES = ["unknown", "none", "some"] as const;

/**
 * The calls of the `pulumirpc.ResourceProvider` gRPC service that the engine makes for resources, whatever
 * plugin serves them. It knows nothing of how the plugin was started: only its address.
 */
export class ResourceProviderClient {
  private constructor(
    private readonly grpc: UnaryGrpcClient,
    private readonly protos: Protos,
    private readonly pulumiDir: string,
  ) {}

  /**
   * A client of the plugin at `address` (`127.0.0.1:<port>`), with the messages of the @pulumi/pulumi at
   * `pulumiDir` (the program's own copy, which the dynamic provider plugin uses too).
   */
  static connect(address: string, pulumiDir: string): ResourceProviderClient {
    return new ResourceProviderClient(new UnaryGrpcClient(address), loadProtos(pulumiDir), pulumiDir);
  }

  private call<T>(method: string, request: Message, response: MessageClass<T>): Promise<T> {
    return this.grpc.call(`/pulumirpc.ResourceProvider/${method}`, request, response);
  }

  private struct(props: Props): structPb.Struct {
    return this.protos.Struct.fromJavaScript(props as Record<string, structPb.JavaScriptValue>);
  }

  /** The engine sends the whole stack config, every namespace, secrets decrypted. */
  async configure(config: Record<string, string>): Promise<{ acceptSecrets: boolean }> {
    const req = new this.protos.pb.ConfigureRequest();
    req.setArgs(this.struct(config));
    const res = await this.call("Configure", req, this.protos.pb.ConfigureResponse);
    return { acceptSecrets: res.getAcceptsecrets() };
  }

  async check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }> {
    const req = new this.protos.pb.CheckRequest();
    req.setUrn(urn);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    const res = await this.call("Check", req, this.protos.pb.CheckResponse);
    return {
      inputs: res.getInputs()?.toJavaScript() ?? {},
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** As the engine sends it: the old outputs, the new inputs, the old inputs too, and the `ignoreChanges` paths. */
  async diff(urn: string, id: string, olds: Props, news: Props, oldInputs: Props = {}, ignoreChanges: string[] = []): Promise<DiffAnswer> {
    const req = new this.protos.pb.DiffRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    req.setOldInputs(this.struct(oldInputs));
    req.setIgnorechangesList(ignoreChanges);
    const res = await this.call("Diff", req, this.protos.pb.DiffResponse);
    const paths: string[] = [];
    const inputDiff: string[] = [];
    res.getDetaileddiffMap().forEach((d, path) => {
      paths.push(path);
      if (d.getInputdiff()) inputDiff.push(path);
    });
    return {
      changes: CHANGES[res.getChanges()],
      replaces: res.getReplacesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
      changed: res.getDiffsList(),
      detailed: res.getHasdetaileddiff() ? { paths, inputDiff } : undefined,
    };
  }

  /**
   * `timeout`: the resource's `customTimeouts.create` in seconds, as the engine sends it (0: none). An object made
   * although the create failed is a `ResourceInitFailed` with its id and properties.
   */
  async create(urn: string, props: Props, timeout = 0): Promise<{ id: string; outputs: Props }> {
    const req = new this.protos.pb.CreateRequest();
    req.setUrn(urn);
    req.setProperties(this.struct(props));
    req.setTimeout(timeout);
    const res = await readingInitFailure(this.call("Create", req, this.protos.pb.CreateResponse), this.pulumiDir);
    return { id: res.getId(), outputs: res.getProperties()?.toJavaScript() ?? {} };
  }

  async read(urn: string, id: string, props: Props, inputs: Props): Promise<{ id: string; outputs: Props; inputs?: Props }> {
    const req = new this.protos.pb.ReadRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(this.struct(props));
    req.setInputs(this.struct(inputs));
    const res = await this.call("Read", req, this.protos.pb.ReadResponse);
    return { id: res.getId(), outputs: res.getProperties()?.toJavaScript() ?? {}, inputs: res.getInputs()?.toJavaScript() };
  }

  /** An object changed although the update failed is a `ResourceInitFailed` with its properties. */
  async update(urn: string, id: string, olds: Props, news: Props, options: { timeout?: number; ignoreChanges?: string[] } = {}): Promise<Props> {
    const req = new this.protos.pb.UpdateRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    req.setTimeout(options.timeout ?? 0);
    req.setIgnorechangesList(options.ignoreChanges ?? []);
    const res = await readingInitFailure(this.call("Update", req, this.protos.pb.UpdateResponse), this.pulumiDir);
    return res.getProperties()?.toJavaScript() ?? {};
  }

  async delete(urn: string, id: string, props: Props, timeout = 0): Promise<void> {
    const req = new this.protos.pb.DeleteRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(this.struct(props));
    req.setTimeout(timeout);
    await this.call("Delete", req, this.protos.Empty);
  }

  /** Drops the connection; calls still in flight fail. */
  close(): void {
    this.grpc.close();
  }
}
