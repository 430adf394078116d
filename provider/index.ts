/**
 * The provider entry that the serialized resource providers `require` by package name at call time
 * (`pulumi-snapshot-runtask/provider`). Keeping the implementation here, not in the serialized text, keeps
 * `__provider` small and secret-free, and makes `read`/`delete` of old state run the installed code.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { persistCompileCache, useCompileCache } from "./common/compileCache";
import type { ServiceNamespace } from "./config/configuredSettings";
import type { ResourceProvider } from "./resource";
import type { ClientTuning } from "./services/tuning";

export interface ProviderConfig {
  get(key: string): string | undefined;
}

type Core = typeof import("./core");

let loaded: Core | undefined;
let watchedEngine: string | undefined;

/**
 * The provider core: the bundle the build makes of it where there is one (the installed package), else its
 * modules (the sources, under test). Loaded once the compile cache is on, and the cache written after.
 */
function core(): Core {
  if (!loaded) {
    loaded = (existsSync(join(__dirname, "core.bundle.js")) ? require("./core.bundle.js") : require("./core")) as Core;
    persistCompileCache();
  }
  return loaded;
}

/** Fails when a setting of the service is set but wrong (nothing before the engine configures the provider). */
let requireSettingsOf: (service: ServiceNamespace) => void = () => undefined;

/**
 * Receives the stack config the engine hands to the plugin (all namespaces, secrets decrypted), and checks the
 * settings that are set: a wrong one fails every call of its service's resources, before any request.
 * `tuning` is for tests and benchmarks: short retry waits, and counters to read.
 */
export function configure(config: ProviderConfig, tuning: ClientTuning = {}): void {
  useCompileCache();
  const { setProviderContext, newClientStats, checkSettings } = core();
  const lookup = (key: string) => config.get(key);
  setProviderContext({ config: lookup, tuning: { stats: newClientStats(), ...tuning } });
  // In the dynamic provider plugin, whose one process serves every dynamic resource of the engine command: its
  // deployment, shared with the command's provider plugins (takeover/heldObjects.ts). Joined once whatever the calls.
  const engine = core().engineAddressArgument();
  if (engine) {
    core().useEngineLog(engine);
    core().startDeployment(engine);
    // An engine killed outright ends nothing: the process ends itself once its engine is gone (engineWatch.ts).
    if (watchedEngine !== engine) core().endWithEngine(engine);
    watchedEngine = engine;
  }
  requireSettingsOf = checkSettings(lookup);
}

/**
 * Starts a new deployment in a process that serves one after another (the engine's plugin processes serve one
 * each): a delete then removes objects the previous deployment made, which within one deployment it leaves to the
 * resource that took them over (see takeover/heldObjects.ts).
 */
export function startDeployment(): void {
  core().startDeployment();
}

/**
 * `provider`, each of its calls failing first when a setting of `service` is wrong. The dynamic provider plugin
 * configures the provider on the first call of each resource type, whichever service the type belongs to, and
 * reports a failure there on that resource: the check belongs to the calls of the service's own resources.
 */
function withSettingsOf(service: ServiceNamespace, provider: ResourceProvider): ResourceProvider {
  const settled =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      requireSettingsOf(service);
      return call(...args);
    };
  return {
    check: settled((olds, news, context) => provider.check(olds, news, context)),
    diff: settled((id, olds, news) => provider.diff(id, olds, news)),
    diffDetail: (olds, news) => provider.diffDetail(olds, news),
    claim: (id, olds) => provider.claim(id, olds),
    create: settled((inputs) => provider.create(inputs)),
    read: settled((id, props) => provider.read(id, props)),
    update: settled((id, olds, news) => provider.update(id, olds, news)),
    delete: settled((id, props) => provider.delete(id, props)),
  };
}

type Kind = "snapshotAutoConfig" | "runTask" | "workspaceRunTask";
const wrapped: Partial<Record<Kind, ResourceProvider>> = {};

/**
 * A resource's provider as the dynamic provider plugin calls it (provider/dynamicResources.ts), one per process,
 * its calls checking the settings of its own service first.
 */
function dynamicProvider(kind: Kind): ResourceProvider {
  const { dynamicResourceProvider, snapshotAutoConfigProvider, runTaskProvider, workspaceRunTaskProvider } = core();
  const of = { snapshotAutoConfig: snapshotAutoConfigProvider, runTask: runTaskProvider, workspaceRunTask: workspaceRunTaskProvider };
  const idOutput = { snapshotAutoConfig: undefined, runTask: "taskId", workspaceRunTask: "workspaceTaskId" }[kind];
  return (wrapped[kind] ??= withSettingsOf(kind === "snapshotAutoConfig" ? "snapshot" : "runtask", dynamicResourceProvider(of[kind], idOutput)));
}

/** Each resource's provider. */
export const providers = {
  get snapshotAutoConfig(): ResourceProvider {
    return dynamicProvider("snapshotAutoConfig");
  },
  get runTask(): ResourceProvider {
    return dynamicProvider("runTask");
  },
  get workspaceRunTask(): ResourceProvider {
    return dynamicProvider("workspaceRunTask");
  },
};
