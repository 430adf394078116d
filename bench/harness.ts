import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator, type EmulatorOptions } from "../emulator";
import { DEFAULT_RUNTASK_TOKEN } from "../emulator/runtask/access";
import { DEFAULT_SNAPSHOT_TOKEN } from "../emulator/snapshot/service";
import { createConsumerProject, dynamicProviderPlugin, Engine, type ConsumerProject } from "../engine";

/** One emulator, one consumer project and one stack, as a benchmark's world. */
export interface World {
  emulator: Emulator;
  fixture: ConsumerProject;
  engine: Engine;
  close(): Promise<void>;
}

export async function world(fixture: ConsumerProject, emulatorOptions: EmulatorOptions = {}, parallelism = 1): Promise<World> {
  // Pinned to the emulator's former associate answer (201 with the document; its default is now the spec's 204,
  // after which the provider lists the workspace's associations), so that figures compare with earlier runs.
  const emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    ...emulatorOptions,
    runTask: { associateResponse: "201", ...emulatorOptions.runTask },
  });
  const stack = stackOf(fixture, emulator.url, parallelism);
  return {
    emulator,
    fixture,
    engine: stack.engine,
    async close() {
      await emulator.close();
      stack.remove();
    },
  };
}

/**
 * An engine driver for the fixture's project, configured for the emulator at `url`, with a state file of its own
 * (removed by `remove`) or the given one (left alone).
 */
export function stackOf(
  fixture: ConsumerProject,
  url: string,
  parallelism: number,
  existingStateFile?: string,
): { engine: Engine; stateFile: string; remove(): void } {
  const dir = existingStateFile ? undefined : mkdtempSync(join(tmpdir(), "bench-state-"));
  const stateFile = existingStateFile ?? join(dir!, "state.json");
  const engine = new Engine({ plugin: dynamicProviderPlugin(fixture.dir), stateFile, parallelism, config: benchConfig(url) });
  return { engine, stateFile, remove: () => dir && rmSync(dir, { recursive: true, force: true }) };
}

export { createConsumerProject };

/** The stack config of a benchmark against the emulator at `url`. */
export function benchConfig(url: string): Record<string, string> {
  return {
    "snapshot:address": url,
    "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
    "runtask:address": url,
    "runtask:token": DEFAULT_RUNTASK_TOKEN,
    "runtask:organization": "emulator-org",
  };
}

/** Milliseconds taken by `run`. */
export async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}

/** The middle value (the upper one of an even count). */
export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}
