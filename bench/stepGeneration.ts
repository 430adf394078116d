import type { ConsumerProject } from "../engine";
import { startEmulatorProcess } from "./emulatorProcess";
import { stackOf } from "./harness";
import { mixedProgram } from "./mixedProgram";

export interface StepGenerationFigures {
  resources: number;
  /** Milliseconds of a no-op `up` at parallelism 1: one Check and one Diff per resource, one resource at a time. */
  ms: number;
  /** Check plus Diff of one resource, in milliseconds. */
  checkAndDiffMs: number;
  /** Resources per second that a step generator calling Check and Diff one resource at a time can get through. */
  perSecond: number;
}

/**
 * The Pulumi engine calls Check and Diff from its step generator, one resource at a time, and hands only the
 * resulting step (create, update, delete) to one of its `--parallel` workers. The rate of one-at-a-time Check
 * and Diff through the plugin therefore caps a real `up` whatever its parallelism. Measured as a no-op `up` at
 * parallelism 1 over `n` existing resources (created and destroyed at parallelism 64 around it).
 */
export async function stepGeneration(fixture: ConsumerProject, n: number): Promise<StepGenerationFigures> {
  const emulator = await startEmulatorProcess({
    snapshot: { takeSnapshots: false },
    // Pinned to the emulator's former associate answer (201 with the document; its default is now the spec's
    // 204), so that figures compare with earlier runs.
    runTask: { organizations: [{ name: "emulator-org", workspaces: [{ id: "ws-bench", name: "bench" }] }], associateResponse: "201" },
  });
  const wide = stackOf(fixture, emulator.url, 64);
  try {
    const regs = fixture.capture(mixedProgram(n, 1));
    await wide.engine.up(regs);
    // The same stack, driven one resource at a time.
    const serial = stackOf(fixture, emulator.url, 1, wide.stateFile).engine;
    await serial.up(regs);
    const ms = serial.lastOperationsMs;
    await wide.engine.destroy();
    return { resources: n, ms: Math.round(ms), checkAndDiffMs: Math.round((ms / n) * 100) / 100, perSecond: Math.round((n / ms) * 1000) };
  } finally {
    wide.remove();
    await emulator.close();
  }
}
