import type * as grpcTypes from "@grpc/grpc-js";
import type * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type { JavaScriptValue, Struct as StructType } from "google-protobuf/google/protobuf/struct_pb";
import { persistCompileCache } from "../../provider/common/compileCache";
import { messageOf, SnapshotRunTaskError } from "../../provider/common/errors";
import { toPlainJson } from "../../provider/common/plainJson";
import { pluginSchema, pluginVersion } from "./identity";
import {
  cancelCalls,
  providerContext,
  secretsOfCall,
  setProviderContext,
  withCallBound,
  withCallResource,
  withCallSecrets,
  type CallBound,
} from "../../provider/context";
import { settingProblems } from "../../provider/config/serviceSettings";
import { newClientStats } from "../../provider/services/tuning";
import { startDeployment } from "../../provider/takeover/heldObjects";
import { engineAddressArgument, tellUser, useEngineLog } from "../../provider/engineLog";
import { argNamedByResource, secretArgs } from "../../provider/table/derived";
import { stateValues } from "../../provider/table/stateValues";
import { isUnknown } from "../../provider/common/unknown";
import { checkConfig, configLookup, fromVariables } from "./config";
import type { PackageDefinition, ResourceDefinition } from "./definition";
import { detailedDiff } from "./detailedDiff";
import { withIgnoredFromState } from "./ignoreChanges";
import { secretStrings, unwrapSecrets, wrapSecrets } from "./secrets";
import { redact } from "../../provider/common/redact";
import { InitFailedAnswer } from "./initFailed";
import { PartialFailure } from "../../provider/common/partialFailure";

type Props = Record<string, unknown>;
type Call<Req> = grpcTypes.ServerUnaryCall<Req, unknown>;
type Done = grpcTypes.sendUnaryData<unknown>;

const grpc: typeof grpcTypes = require("@grpc/grpc-js");
const pb: typeof providerPb = require("@pulumi/pulumi/proto/provider_pb");
const { ResourceProviderService } = require("@pulumi/pulumi/proto/provider_grpc_pb");
const { PluginInfo } = require("@pulumi/pulumi/proto/plugin_pb");
const { Struct }: { Struct: typeof StructType } = require("google-protobuf/google/protobuf/struct_pb");
const { Empty } = require("google-protobuf/google/protobuf/empty_pb");
persistCompileCache();

/** Plain values, the properties that held a secret, and the text of each secret (what the call must never show). */
function plain(struct: StructType | undefined): { plain: Props; secretKeys: Set<string>; secretValues: string[] } {
  const raw = (struct?.toJavaScript() ?? {}) as Props;
  return { ...unwrapSecrets(raw), secretValues: secretStrings(raw) };
}

/**
 * Runs a call with the values the engine sent marked secret, in any property: its notices and the errors of its
 * requests are redacted of them (`withCallSecrets`), and so is any error it ends with.
 */
async function keepingSecret<T>(values: string[], call: () => Promise<T>, keys?: Iterable<string>): Promise<T> {
  try {
    return await withCallSecrets(values, call, keys);
  } catch (err) {
    if (err instanceof InitFailedAnswer || values.length === 0) throw err;
    throw new Error(redact(messageOf(err), values), { cause: err });
  }
}

function struct(props: Props): StructType {
  return Struct.fromJavaScript(toPlainJson(props) as Record<string, JavaScriptValue>);
}

/** `load` called the first time only: a resource's provider module is loaded when first used, then kept. */
function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

/** A resource's `customTimeouts` for the operation, as the engine sends them (seconds; 0 when none). */
function customTimeout(operation: "create" | "read" | "update" | "delete", seconds: number): CallBound | undefined {
  return seconds > 0 ? { ms: seconds * 1000, name: `customTimeouts.${operation}` } : undefined;
}

/** The resource's name from its URN (`urn:pulumi:stack::project::type::name`). */
function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/**
 * The ResourceProvider gRPC service of one provider plugin, over the same provider core as the dynamic provider:
 * each call unwraps secrets, calls the core, and marks secret what the schema or the request says is.
 */
export class ProviderServer {
  private readonly resources: Map<string, Resource>;
  private configured = false;
  /**
   * The object's name each resource had in this deployment's first Check (by URN), for the second Check the engine
   * makes without olds before a replacement's create (pkg/resource/deploy/step_generator.go,
   * `continueStepsFromDiff`): a name the program leaves out stays the object's, not the resource's.
   */
  private readonly namesKept = new Map<string, string>();

  constructor(private readonly pkg: PackageDefinition) {
    this.resources = new Map(
      pkg.resources.map((r) => [
        r.token,
        { ...r, provider: once(r.provider), secrets: secretArgs(r.table.fields), namedBy: argNamedByResource(r.table.fields) },
      ]),
    );
  }

  /** Implementations by method name; those left out answer UNIMPLEMENTED. */
  handlers(): grpcTypes.UntypedServiceImplementation {
    const unary =
      <Req>(fn: (req: Req) => Promise<unknown> | unknown) =>
      (call: Call<Req>, done: Done) => {
        Promise.resolve()
          .then(() => fn(call.request))
          .then(
            (res) => done(null, res),
            (err) =>
              done(
                err instanceof InitFailedAnswer
                  ? err.status
                  : { code: grpc.status.UNKNOWN, details: err instanceof Error ? err.message : String(err) },
              ),
          );
      };
    return {
      getPluginInfo: unary(() => new PluginInfo().setVersion(pluginVersion())),
      getSchema: unary(() => new pb.GetSchemaResponse().setSchema(pluginSchema(this.pkg.name))),
      checkConfig: unary((req: providerPb.CheckRequest) => this.checkConfig(req)),
      diffConfig: unary((req: providerPb.DiffRequest) => this.diffConfig(req)),
      configure: unary((req: providerPb.ConfigureRequest) => this.configure(req)),
      check: unary((req: providerPb.CheckRequest) => this.check(req)),
      diff: unary((req: providerPb.DiffRequest) => this.diff(req)),
      create: unary((req: providerPb.CreateRequest) => this.create(req)),
      read: unary((req: providerPb.ReadRequest) => this.read(req)),
      update: unary((req: providerPb.UpdateRequest) => this.update(req)),
      delete: unary((req: providerPb.DeleteRequest) => this.delete(req)),
      invoke: unary((req: providerPb.InvokeRequest) => this.invoke(req)),
      cancel: unary(() => {
        // Requests in flight are aborted and retry waits cut short; the engine ends the plugin next.
        cancelCalls();
        return new Empty();
      }),
      // PULUMI_DEBUG_PROVIDERS: the engine attaches to a plugin a user started (under a debugger) rather than
      // starting one; it then tells the plugin its own address, which these calls do not need. Such a plugin serves
      // one deployment after another: each attach starts a new one.
      attach: unary((req: pluginPb.PluginAttach) => {
        useEngineLog(req.getAddress() || undefined);
        startDeployment(req.getAddress() || undefined);
        return new Empty();
      }),
    };
  }

  private resource(urn: string, type?: string): Resource {
    const token = type || urn.split("::")[2];
    const found = this.resources.get(token);
    if (!found) throw new Error(`${this.pkg.name}: unknown resource type "${token}"`);
    return found;
  }

  /** Secret outputs: the schema's secret properties, and what the request held as secret. */
  private secretOutputs(def: { secrets: readonly string[] }, ...fromRequest: Set<string>[]): Set<string> {
    const keys = new Set(def.secrets);
    for (const set of fromRequest) for (const key of set) keys.add(key);
    return keys;
  }

  /**
   * The settings as the engine records them for the provider, the schema's secret ones (the token) marked secret: a
   * default provider's come from the stack config as it holds them, in plain text unless set with `--secret`.
   */
  private checkConfig(req: providerPb.CheckRequest) {
    const { plain: news, secretValues } = plain(req.getNews());
    const failures = checkConfig(this.pkg.service, news);
    const raw = (req.getNews()?.toJavaScript() ?? {}) as Props;
    const secret = Object.entries(this.pkg.service.settings)
      .filter(([name, spec]) => spec.secret && !isUnknown(raw[name]))
      .map(([name]) => name);
    return new pb.CheckResponse().setInputs(struct(wrapSecrets(raw, secret))).setFailuresList(checkFailures(failures, secretValues));
  }

  /** A change of settings changes no resource: the provider is configured anew, nothing is replaced. */
  private diffConfig(req: providerPb.DiffRequest) {
    const olds = plain(req.getOlds()).plain;
    const news = plain(req.getNews()).plain;
    const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    return new pb.DiffResponse()
      .setChanges(changed.length ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE)
      .setDiffsList(changed);
  }

  /** Settings from the request's `args` (secrets unwrapped), else from its `variables`; then the environment. */
  private configure(req: providerPb.ConfigureRequest) {
    const args = req.getArgs();
    const values = args ? plain(args).plain : fromVariables(this.pkg.name, req.getVariablesMap().toArray());
    const { tuning } = providerContext();
    const config = configLookup(this.pkg.name, values);
    // The engine configures each plugin it starts once, before any resource call: a deployment starts here, shared
    // with the other plugin processes of the engine command (provider/takeover/heldObjects.ts).
    const engine = engineAddressArgument();
    useEngineLog(engine);
    startDeployment(engine);
    setProviderContext({ config, tuning: { ...tuning, stats: tuning.stats ?? newClientStats() } });
    // The configuration and the environment together, as calls will read them: a wrong setting stops the command here.
    const problems = settingProblems(this.pkg.service, config);
    if (problems.length > 0) {
      throw new SnapshotRunTaskError(
        "invalid_setting",
        `${this.pkg.name}: the provider's settings are wrong: ${problems.map((p) => p.reason).join("; ")}`,
      );
    }
    this.configured = true;
    return new pb.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(false).setAcceptresources(false).setAcceptoutputs(false);
  }

  private async check(req: providerPb.CheckRequest) {
    const urn = req.getUrn();
    const def = this.resource(urn, req.getType());
    const { plain: news, secretKeys, secretValues } = plain(req.getNews());
    const olds = plain(req.getOlds());
    const secrets = [...secretValues, ...olds.secretValues];
    const replacing = Object.keys(olds.plain).length === 0 ? this.namesKept.get(urn) : undefined;
    const context = { resourceName: replacing ?? (req.getName() || nameOf(urn)) };
    // Which properties the program marks secret: the adopt notice shows none of their values, old or new.
    const result = await keepingSecret(secrets, () => withCallResource(urn, () => def.provider().check(olds.plain, news, context)), secretKeys);
    for (const warning of result.warnings ?? []) await withCallResource(urn, () => tellUser("warning", warning));
    const name = def.namedBy && result.inputs[def.namedBy];
    if (Object.keys(olds.plain).length > 0 && typeof name === "string" && !isUnknown(name)) this.namesKept.set(urn, name);
    const res = new pb.CheckResponse().setInputs(struct(wrapSecrets(result.inputs, this.secretOutputs(def, secretKeys))));
    return res.setFailuresList(checkFailures(result.failures, secrets));
  }

  private diff(req: providerPb.DiffRequest) {
    const def = this.resource(req.getUrn(), req.getType());
    // An imported write-only value is in the state's inputs only: compared with what the import recorded.
    const olds = stateValues(def.table.fields, plain(req.getOlds()).plain, plain(req.getOldInputs()).plain);
    const news = withIgnoredFromState(plain(req.getNews()).plain, olds, req.getIgnorechangesList());
    const detail = def.provider().diffDetail(olds, news);
    // A resource whose Diff keeps its object holds it in this deployment, so that another resource's delete leaves it.
    if (detail.replaces.length === 0) withCallResource(req.getUrn(), () => def.provider().claim(req.getId(), olds));
    const res = new pb.DiffResponse()
      .setChanges(detail.changes ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE)
      .setReplacesList(detail.replaces)
      .setDiffsList(detail.changed)
      .setDeletebeforereplace(detail.deleteBeforeReplace)
      .setHasdetaileddiff(true);
    const map = res.getDetaileddiffMap();
    for (const [key, kind] of detailedDiff(detail, olds, news))
      // Against the state's outputs, not its inputs: the engine then shows the service's value as the old one.
      map.set(key, new pb.PropertyDiff().setKind(pb.PropertyDiff.Kind[kind]).setInputdiff(false));
    return res;
  }

  private async create(req: providerPb.CreateRequest) {
    this.requireConfigured();
    const def = this.resource(req.getUrn(), req.getType());
    const { plain: inputs, secretKeys, secretValues } = plain(req.getProperties());
    if (req.getPreview()) return new pb.CreateResponse().setProperties(req.getProperties());
    const secrets = this.secretOutputs(def, secretKeys);
    const { id, outs } = await keepingSecret(secretValues, () =>
      withCallResource(req.getUrn(), () => withCallBound(customTimeout("create", req.getTimeout()), () => def.provider().create(inputs))).catch(
        (err: unknown) => Promise.reject(initFailed(def, err, secrets)),
      ),
    );
    return new pb.CreateResponse().setId(def.idOf ? def.idOf(id, outs) : id).setProperties(struct(wrapSecrets(outs, secrets)));
  }

  /**
   * A refresh carries the state; an import only the id. The inputs answered are the core's: the arguments as the
   * service holds them (write-only values kept from the state), which the engine keeps in place of the old ones, so
   * that a refresh and the next preview show a change made outside the program as the service's value against the
   * program's, as bridged providers do. An import's are what a program would write.
   */
  private async read(req: providerPb.ReadRequest) {
    this.requireConfigured();
    const def = this.resource(req.getUrn(), req.getType());
    const state = plain(req.getProperties());
    const given = plain(req.getInputs());
    // A refresh keeps an imported write-only value, which the state's inputs alone hold.
    const prior = stateValues(def.table.fields, state.plain, given.plain);
    const read = await keepingSecret([...state.secretValues, ...given.secretValues], () =>
      withCallResource(req.getUrn(), () => withCallBound(customTimeout("read", req.getTimeout()), () => def.provider().read(req.getId(), prior))),
    );
    if (!read.id) return new pb.ReadResponse().setId("");
    const secrets = this.secretOutputs(def, state.secretKeys, given.secretKeys);
    const inputs = read.inputs ?? given.plain;
    return new pb.ReadResponse()
      .setId(read.id)
      .setProperties(struct(wrapSecrets(read.props, secrets)))
      .setInputs(struct(wrapSecrets(inputs, secrets)));
  }

  private async update(req: providerPb.UpdateRequest) {
    this.requireConfigured();
    const def = this.resource(req.getUrn(), req.getType());
    const olds = plain(req.getOlds());
    olds.plain = stateValues(def.table.fields, olds.plain, plain(req.getOldInputs()).plain);
    const news = plain(req.getNews());
    if (req.getPreview()) return new pb.UpdateResponse().setProperties(req.getNews());
    const inputs = withIgnoredFromState(news.plain, olds.plain, req.getIgnorechangesList());
    const secrets = this.secretOutputs(def, olds.secretKeys, news.secretKeys);
    const { outs } = await keepingSecret([...olds.secretValues, ...news.secretValues], () =>
      withCallResource(req.getUrn(), () =>
        withCallBound(customTimeout("update", req.getTimeout()), () => def.provider().update(req.getId(), olds.plain, inputs)),
      ).catch((err: unknown) => Promise.reject(initFailed(def, err, secrets))),
    );
    return new pb.UpdateResponse().setProperties(struct(wrapSecrets(outs, secrets)));
  }

  private async delete(req: providerPb.DeleteRequest) {
    this.requireConfigured();
    const def = this.resource(req.getUrn(), req.getType());
    const props = plain(req.getProperties());
    await keepingSecret(props.secretValues, () =>
      withCallResource(req.getUrn(), () =>
        withCallBound(customTimeout("delete", req.getTimeout()), () => def.provider().delete(req.getId(), props.plain)),
      ),
    );
    return new Empty();
  }

  private async invoke(req: providerPb.InvokeRequest) {
    const fn = this.pkg.functions.find((f) => f.token === req.getTok());
    if (!fn) throw new Error(`${this.pkg.name}: unknown function "${req.getTok()}"`);
    const { config, tuning } = providerContext();
    const args = plain(req.getArgs());
    const result = await keepingSecret(args.secretValues, () => fn.call(args.plain, config, tuning));
    // What is derived from a secret is secret: with a secret argument, the whole result is.
    return new pb.InvokeResponse().setReturn(struct(args.secretKeys.size > 0 ? wrapSecrets(result, Object.keys(result)) : result));
  }

  /** The engine configures a provider before any resource call; without it the settings would be the defaults. */
  private requireConfigured(): void {
    if (!this.configured) throw new Error(`${this.pkg.name}: the provider was called before it was configured`);
  }
}

type Resource = ResourceDefinition & {
  secrets: readonly string[];
  /** The argument that defaults to the resource's name. */
  namedBy: string | undefined;
};

/**
 * The core's partial failure (an object made or changed by a call that failed) as the engine's partial-failure
 * answer, with the id the engine keeps and the properties, secrets marked; any other error as it is.
 */
function initFailed(def: ResourceDefinition, err: unknown, secrets: Iterable<string>): unknown {
  if (!(err instanceof PartialFailure)) return err;
  const id = def.idOf ? def.idOf(err.id, err.properties) : err.id;
  const hidden = (text: string) => redact(text, secretsOfCall());
  return new InitFailedAnswer(hidden(err.message), id, struct(wrapSecrets(err.properties, secrets)), err.reasons.map(hidden));
}

/** Check failures as the engine takes them, their reasons redacted of the values the engine sent marked secret. */
function checkFailures(failures: { property: string; reason: string }[], secrets: string[]) {
  return failures.map((f) => new pb.CheckFailure().setProperty(f.property).setReason(redact(f.reason, secrets)));
}

/** Starts the service on a free loopback port; resolves with the port. */
export async function listen(pkg: PackageDefinition): Promise<{ port: number; server: grpcTypes.Server }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 64 * 1024 * 1024 });
  server.addService(ResourceProviderService, new ProviderServer(pkg).handlers());
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound))),
  );
  return { port, server };
}
