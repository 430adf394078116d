// A client of the ResourceProvider protocol that drives one provider plugin call by call, for the protocol's tests.
import { join } from "node:path";
import type * as emptyPb from "google-protobuf/google/protobuf/empty_pb";
import type * as structPb from "google-protobuf/google/protobuf/struct_pb";
import type * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { UnaryGrpcClient, type Message, type MessageClass } from "./grpcUnary";
import { readingInitFailure } from "./initFailure";

type Props = Record<string, unknown>;

/** The engine's view of a Diff answer, with the detailed diff by property. */
export interface NativeDiff {
  changes: "unknown" | "none" | "some";
  replaces: string[];
  diffs: string[];
  detailed: Record<string, string>;
  hasDetailedDiff: boolean;
  deleteBeforeReplace: boolean;
  /** The detailed diff's keys that compare old and new inputs (`inputDiff`); the others compare the state's outputs. */
  inputDiff: string[];
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** A value marked secret, as the engine sends it to a provider that accepts secrets. */
/** The value the engine sends for one not known yet (in a preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function secret(value: unknown): Props {
  return { [SECRET_SIG]: SECRET_VALUE, value };
}

/** The top-level keys of `props` whose values are marked secret. */
export function secretKeys(props: Props): string[] {
  return Object.keys(props)
    .filter((k) => (props[k] as Props | null)?.[SECRET_SIG] === SECRET_VALUE)
    .sort();
}

/** `props` with secret markers removed. */
export function reveal(props: Props): Props {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, (v as Props | null)?.[SECRET_SIG] === SECRET_VALUE ? (v as Props).value : v]));
}

/**
 * The calls the engine makes to a provider plugin (`pulumi-resource-snapshot`, `pulumi-resource-runtask`) that
 * accepts secrets: configuration without namespaces, secrets marked in both directions, detailed diffs, reads by id
 * alone (an import), invokes, the schema. Messages are those of the program's own @pulumi/pulumi.
 */
export class NativeProviderClient {
  private readonly pb: typeof providerPb;
  private readonly Struct: typeof structPb.Struct;
  private readonly Empty: typeof emptyPb.Empty;
  private readonly PluginInfo: typeof pluginPb.PluginInfo;
  private readonly client: UnaryGrpcClient;

  constructor(
    address: string,
    private readonly pulumiDir: string,
  ) {
    const fromPulumi = (name: string) => require(require.resolve(name, { paths: [pulumiDir] }));
    this.pb = require(join(pulumiDir, "proto/provider_pb"));
    this.PluginInfo = require(join(pulumiDir, "proto/plugin_pb")).PluginInfo;
    this.Struct = fromPulumi("google-protobuf/google/protobuf/struct_pb").Struct;
    this.Empty = fromPulumi("google-protobuf/google/protobuf/empty_pb").Empty;
    this.client = new UnaryGrpcClient(address);
  }

  close(): void {
    this.client.close();
  }

  private call<T>(method: string, request: Message, response: MessageClass<T>): Promise<T> {
    return this.client.call(`/pulumirpc.ResourceProvider/${method}`, request, response);
  }

  private struct(props: Props): structPb.Struct {
    return this.Struct.fromJavaScript(props as Record<string, structPb.JavaScriptValue>);
  }

  /** A request naming the resource as the engine does: URN, name and type. */
  private resourceRequest<R extends { setUrn(v: string): R; setName(v: string): R; setType(v: string): R }>(Type: new () => R, urn: string): R {
    return new Type()
      .setUrn(urn)
      .setName(urn.slice(urn.lastIndexOf("::") + 2))
      .setType(urn.split("::")[2]);
  }

  async pluginInfo(): Promise<string> {
    return (await this.call("GetPluginInfo", new this.Empty(), this.PluginInfo)).getVersion();
  }

  async schema(): Promise<Record<string, unknown>> {
    return JSON.parse((await this.call("GetSchema", new this.pb.GetSchemaRequest(), this.pb.GetSchemaResponse)).getSchema());
  }

  async checkConfig(news: Props): Promise<{ property: string; reason: string }[]> {
    const req = new this.pb.CheckRequest();
    req.setUrn("urn:pulumi:stack::project::pulumi:providers:x::default");
    req.setOlds(this.struct({}));
    req.setNews(this.struct(news));
    const res = await this.call("CheckConfig", req, this.pb.CheckResponse);
    return res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
  }

  async diffConfig(olds: Props, news: Props): Promise<{ changes: string; replaces: string[] }> {
    const req = new this.pb.DiffRequest();
    req.setUrn("urn:pulumi:stack::project::pulumi:providers:x::default");
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    const res = await this.call("DiffConfig", req, this.pb.DiffResponse);
    return { changes: (["unknown", "none", "some"] as const)[res.getChanges()], replaces: res.getReplacesList() };
  }

  /** The engine sends the provider's config keys without their namespace, secrets marked. */
  async configure(args: Props): Promise<{ acceptSecrets: boolean; supportsPreview: boolean }> {
    const req = new this.pb.ConfigureRequest();
    req.setArgs(this.struct(args));
    req.setAcceptsecrets(true);
    const res = await this.call("Configure", req, this.pb.ConfigureResponse);
    return { acceptSecrets: res.getAcceptsecrets(), supportsPreview: res.getSupportspreview() };
  }

  async check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }> {
    const req = this.resourceRequest(this.pb.CheckRequest, urn);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    const res = await this.call("Check", req, this.pb.CheckResponse);
    return {
      inputs: res.getInputs()?.toJavaScript() ?? {},
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** As the engine sends it (step_generator.go, diffResource): old outputs, new inputs, old inputs, ignoreChanges. */
  async diff(urn: string, id: string, olds: Props, news: Props, oldInputs: Props = {}, ignoreChanges: string[] = []): Promise<NativeDiff> {
    const req = this.resourceRequest(this.pb.DiffRequest, urn);
    req.setId(id);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    req.setOldInputs(this.struct(oldInputs));
    req.setIgnorechangesList(ignoreChanges);
    const res = await this.call("Diff", req, this.pb.DiffResponse);
    const kinds = Object.fromEntries(Object.entries(this.pb.PropertyDiff.Kind).map(([name, n]) => [n, name]));
    const detailed: Record<string, string> = {};
    const inputDiff: string[] = [];
    res.getDetaileddiffMap().forEach((d, key) => {
      detailed[key] = kinds[d.getKind()];
      if (d.getInputdiff()) inputDiff.push(key);
    });
    return {
      changes: (["unknown", "none", "some"] as const)[res.getChanges()],
      replaces: res.getReplacesList(),
      diffs: res.getDiffsList(),
      detailed,
      hasDetailedDiff: res.getHasdetaileddiff(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
      inputDiff: inputDiff.sort(),
    };
  }

  /**
   * `timeout`: the resource's `customTimeouts.create`, in seconds, as the engine sends it. An object made although
   * the create failed is a `ResourceInitFailed` with its id and properties.
   */
  async create(urn: string, props: Props, timeout = 0): Promise<{ id: string; outputs: Props }> {
    const req = this.resourceRequest(this.pb.CreateRequest, urn);
    req.setProperties(this.struct(props));
    req.setTimeout(timeout);
    const res = await readingInitFailure(this.call("Create", req, this.pb.CreateResponse), this.pulumiDir);
    return { id: res.getId(), outputs: res.getProperties()?.toJavaScript() ?? {} };
  }

  /** A refresh sends the state and the inputs; an import the id alone. */
  async read(urn: string, id: string, state?: Props, inputs?: Props, timeout = 0): Promise<{ id: string; outputs: Props; inputs?: Props }> {
    const req = this.resourceRequest(this.pb.ReadRequest, urn);
    req.setId(id);
    req.setTimeout(timeout);
    if (state) req.setProperties(this.struct(state));
    if (inputs) req.setInputs(this.struct(inputs));
    const res = await this.call("Read", req, this.pb.ReadResponse);
    return { id: res.getId(), outputs: res.getProperties()?.toJavaScript() ?? {}, inputs: res.getInputs()?.toJavaScript() };
  }

  /** An object changed although the update failed is a `ResourceInitFailed` with its properties. */
  async update(
    urn: string,
    id: string,
    olds: Props,
    news: Props,
    options: { timeout?: number; ignoreChanges?: string[]; oldInputs?: Props } = {},
  ): Promise<Props> {
    const req = this.resourceRequest(this.pb.UpdateRequest, urn);
    req.setId(id);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    req.setTimeout(options.timeout ?? 0);
    req.setIgnorechangesList(options.ignoreChanges ?? []);
    if (options.oldInputs) req.setOldInputs(this.struct(options.oldInputs));
    const res = await readingInitFailure(this.call("Update", req, this.pb.UpdateResponse), this.pulumiDir);
    return res.getProperties()?.toJavaScript() ?? {};
  }

  async delete(urn: string, id: string, props: Props, timeout = 0): Promise<void> {
    const req = this.resourceRequest(this.pb.DeleteRequest, urn);
    req.setId(id);
    req.setProperties(this.struct(props));
    req.setTimeout(timeout);
    await this.call("Delete", req, this.Empty);
  }

  /** The engine's Cancel (Ctrl-C): the plugin is to stop what it is doing; the engine closes it next. */
  async cancel(): Promise<void> {
    await this.call("Cancel", new this.Empty(), this.Empty);
  }

  async invoke(token: string, args: Props): Promise<Props> {
    const req = new this.pb.InvokeRequest();
    req.setTok(token);
    req.setArgs(this.struct(args));
    return (await this.call("Invoke", req, this.pb.InvokeResponse)).getReturn()?.toJavaScript() ?? {};
  }
}
