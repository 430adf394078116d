import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator, type EmulatorOptions } from "../emulator";
import { DEFAULT_RUNTASK_TOKEN } from "../emulator/runtask/access";
import { DEFAULT_SNAPSHOT_TOKEN } from "../emulator/snapshot/service";
import { Engine } from "../test/conformance/engine/engine";
import { prepareFixture, type Fixture } from "../test/conformance/fixture";

/** One emulator, one consumer project and one stack, as a benchmark's world. */
export interface World {
  emulator: Emulator;
  fixture: Fixture;
  engine: Engine;
  close(): Promise<void>;
}

export async function world(fixture: Fixture, emulatorOptions: EmulatorOptions = {}, parallelism = 1): Promise<World> {
  const emulator = await startEmulator({ snapshot: { takeSnapshots: false }, ...emulatorOptions });
  const dir = mkdtempSync(join(tmpdir(), "bench-state-"));
  const engine = new Engine({
    programDir: fixture.dir,
    stateFile: join(dir, "state.json"),
    parallelism,
    config: {
      "snapshot:address": emulator.url,
      "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
      "runtask:address": emulator.url,
      "runtask:token": DEFAULT_RUNTASK_TOKEN,
      "runtask:organization": "emulator-org",
    },
  });
  return {
    emulator,
    fixture,
    engine,
    async close() {
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { prepareFixture };

/** Milliseconds taken by `run`. */
export async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}
