import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../emulator/snapshot/service";
import { DynamicPlugin } from "../test/conformance/engine/plugin";
import type { Fixture } from "../test/conformance/fixture";
import { median, timed } from "./harness";
import { NULL_PROVIDER_TEXT } from "./nullProvider";

export interface StartupFigures {
  runs: number;
  /** Median milliseconds from plugin start to the first completed Check (what a preview waits for first). */
  check: StartupTimes;
  /** Median milliseconds from plugin start to the first completed Create, after its Check (what an up waits for). */
  create: StartupTimes;
  /**
   * The same for the first command after installation: Node's compile cache (which later commands read our
   * compiled code from) still empty. One run, against the null provider's median.
   */
  createFirstCommand: StartupTimes;
}

export interface StartupTimes {
  /** With a provider that does nothing. */
  nullProviderMs: number;
  providerMs: number;
  addedMs: number;
}

const URN = "urn:pulumi:s::p::pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig::cfg";

/** Milliseconds from starting a plugin to the end of its first Check, and of its first Create when `create`. */
async function firstOperation(dir: string, env: NodeJS.ProcessEnv, config: Record<string, string>, news: Record<string, unknown>, create: boolean): Promise<number> {
  const { ms } = await timed(async () => {
    const plugin = await DynamicPlugin.start(dir, env);
    try {
      await plugin.configure(config);
      const { inputs } = await plugin.check(URN, {}, news);
      if (create) await plugin.create(URN, inputs);
    } finally {
      await plugin.stop();
    }
  });
  return ms;
}

/** Runs of our provider and the null provider alternate, so that both see the machine in the same state. */
export async function startup(fixture: Fixture, runs = 9): Promise<StartupFigures> {
  const emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  // A compile cache of these runs' own, empty at first (its default place is under the temporary directory).
  const cacheRoot = mkdtempSync(join(tmpdir(), "bench-startup-"));
  const env = { TMPDIR: cacheRoot, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined };
  try {
    const config = { "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN };
    const [reg] = fixture.capture({ snapshots: [{ resource: "cfg", args: { interval: "24h", pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" } }] });
    let next = 0;
    const coldMs = await firstOperation(fixture.dir, env, config, { ...reg.inputs, name: `cfg-${next++}` }, true);
    const times = async (create: boolean): Promise<StartupTimes> => {
      const ours: number[] = [];
      const nulls: number[] = [];
      for (let i = 0; i < runs; i++) {
        // A name of its own each time: a create must not find the previous run's configuration.
        const news = { ...reg.inputs, name: `cfg-${next++}` };
        nulls.push(await firstOperation(fixture.dir, env, config, { ...news, __provider: NULL_PROVIDER_TEXT }, create));
        ours.push(await firstOperation(fixture.dir, env, config, news, create));
      }
      const nullProviderMs = Math.round(median(nulls));
      const providerMs = Math.round(median(ours));
      return { nullProviderMs, providerMs, addedMs: providerMs - nullProviderMs };
    };
    const check = await times(false);
    const create = await times(true);
    const providerMs = Math.round(coldMs);
    const createFirstCommand = { nullProviderMs: create.nullProviderMs, providerMs, addedMs: providerMs - create.nullProviderMs };
    return { runs, check, create, createFirstCommand };
  } finally {
    await emulator.close();
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}
