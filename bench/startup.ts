import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../emulator/snapshot/service";
import { dynamicProviderPlugin, startNativeProviderPlugin, type ConsumerProject } from "../engine";
import { median } from "./harness";
import { NULL_PROVIDER_TEXT } from "./nullProvider";

export interface StartupFigures {
  runs: number;
  /** Median milliseconds from plugin start to the first completed Check (what a preview waits for first). */
  check: StartupTimes;
  /** Median milliseconds from plugin start to the first completed Create, after its Check (what an up waits for). */
  create: StartupTimes;
  /**
   * The same for the first command after installation: Node's compile cache (which later commands read our
   * compiled code from) still empty. Each run of ours with a cache of its own, alternating with the null provider.
   */
  createFirstCommand: StartupTimes;
  /**
   * The provider plugin (`pulumi-resource-snapshot`) beside the dynamic one, warm compile cache: median
   * milliseconds from starting its process to its first answer (GetPluginInfo), to its first Check, and to its
   * first Create after that Check.
   */
  native?: { firstAnswerMs: number; checkMs: number; createMs: number };
}

export interface StartupTimes {
  /** With a provider that does nothing. */
  nullProviderMs: number;
  providerMs: number;
  addedMs: number;
}

const URN = "urn:pulumi:s::p::pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig::cfg";

/**
 * Milliseconds from starting a plugin to the end of its first Check (and of its first Create when `create`): in
 * all, and from the moment the plugin is up (it printed its port). The plugin's own start, the same whatever the
 * provider, takes most of the total and varies by a hundred milliseconds from run to run; what a provider adds
 * is read from the second figure.
 */
async function firstOperation(dir: string, env: NodeJS.ProcessEnv, config: Record<string, string>, news: Record<string, unknown>, create: boolean) {
  const started = process.hrtime.bigint();
  const plugin = await dynamicProviderPlugin(dir, { env }).start();
  const up = process.hrtime.bigint();
  try {
    await plugin.client.configure(config);
    const { inputs } = await plugin.client.check(URN, {}, news);
    if (create) await plugin.client.create(URN, inputs);
    const end = process.hrtime.bigint();
    return { totalMs: Number(end - started) / 1e6, afterStartMs: Number(end - up) / 1e6 };
  } finally {
    await plugin.stop();
  }
}

/** The same for the provider plugin: from starting its process to its first answer, Check and Create. */
async function nativeFirstOperation(dir: string, env: NodeJS.ProcessEnv, config: Record<string, string>, news: Record<string, unknown>) {
  const started = process.hrtime.bigint();
  const plugin = await startNativeProviderPlugin(dir, "snapshot", env);
  const since = () => Number(process.hrtime.bigint() - started) / 1e6;
  try {
    await plugin.client.pluginInfo();
    const firstAnswerMs = since();
    await plugin.client.configure({ address: config["snapshot:address"], token: config["snapshot:token"] });
    const { inputs } = await plugin.client.check(NATIVE_URN, {}, news);
    const checkMs = since();
    await plugin.client.create(NATIVE_URN, inputs);
    return { firstAnswerMs, checkMs, createMs: since() };
  } finally {
    await plugin.stop();
  }
}

const NATIVE_URN = "urn:pulumi:s::p::snapshot:index:SnapshotAutoConfig::cfg";

/**
 * Runs of our provider and of the null provider alternate, so that all see the machine in the same state: its
 * speed varies from minute to minute. Ours runs with the compile cache that earlier commands left (as every
 * command after the first does) and, for an up's first create, also with an empty one (the first command).
 */
export async function startup(fixture: ConsumerProject, runs = 9): Promise<StartupFigures> {
  const emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  // Compile caches of these runs' own (its default place is under the temporary directory).
  const cacheRoot = mkdtempSync(join(tmpdir(), "bench-startup-"));
  const withCache = (dir: string) => ({ TMPDIR: dir, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined });
  const warm = withCache(cacheRoot);
  try {
    const config = { "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN };
    const [reg] = fixture.capture({
      snapshots: [{ resource: "cfg", args: { interval: "24h", pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" } }],
    });
    let next = 0;
    // A name of its own each time: a create must not find an earlier run's configuration.
    const ours = () => ({ ...reg.inputs, name: `cfg-${next++}` });
    const nullProvider = () => ({ ...ours(), __provider: NULL_PROVIDER_TEXT });
    type Sample = Awaited<ReturnType<typeof firstOperation>>;
    const samples = {
      checkNull: [] as Sample[],
      check: [] as Sample[],
      createNull: [] as Sample[],
      create: [] as Sample[],
      createFresh: [] as Sample[],
    };
    const nativeSamples: Awaited<ReturnType<typeof nativeFirstOperation>>[] = [];
    const { __provider: _p, ...nativeInputs } = reg.inputs;
    await firstOperation(fixture.dir, warm, config, ours(), true); // fills the cache that later commands find
    for (let i = 0; i < runs; i++) {
      samples.checkNull.push(await firstOperation(fixture.dir, warm, config, nullProvider(), false));
      samples.check.push(await firstOperation(fixture.dir, warm, config, ours(), false));
      samples.createNull.push(await firstOperation(fixture.dir, warm, config, nullProvider(), true));
      samples.create.push(await firstOperation(fixture.dir, warm, config, ours(), true));
      samples.createFresh.push(await firstOperation(fixture.dir, withCache(mkdtempSync(join(cacheRoot, "empty-"))), config, ours(), true));
      nativeSamples.push(await nativeFirstOperation(fixture.dir, warm, config, { ...nativeInputs, name: `cfg-${next++}` }));
    }
    const times = (nulls: Sample[], mine: Sample[]): StartupTimes => {
      const m = (xs: Sample[], k: keyof Sample) => median(xs.map((x) => x[k]));
      return {
        nullProviderMs: Math.round(m(nulls, "totalMs")),
        providerMs: Math.round(m(mine, "totalMs")),
        addedMs: Math.round(m(mine, "afterStartMs") - m(nulls, "afterStartMs")),
      };
    };
    return {
      runs,
      check: times(samples.checkNull, samples.check),
      create: times(samples.createNull, samples.create),
      createFirstCommand: times(samples.createNull, samples.createFresh),
      native: {
        firstAnswerMs: Math.round(median(nativeSamples.map((s) => s.firstAnswerMs))),
        checkMs: Math.round(median(nativeSamples.map((s) => s.checkMs))),
        createMs: Math.round(median(nativeSamples.map((s) => s.createMs))),
      },
    };
  } finally {
    await emulator.close();
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}
