import { DEFAULT_SNAPSHOT_TOKEN, type Emulator } from "../../emulator";
import type { EngineStack } from "./engine/engineStack";
import { expectServiceMatchesState } from "./engine/serviceLedger";
import { nameOf, packageResources } from "./engine/stateFile";

/** The run task token the scenario emulators are started with (as an owner, `tokens: { [RUNTASK_TOKEN]: ... }`). */
export const RUNTASK_TOKEN = "emulator-runtask-token";

/** A stack's config that points both packages at the emulator, the run tasks in `organization`. */
export function emulatorStackConfig(emulator: Emulator, organization = "acme"): Record<string, string> {
  return {
    "runtask:address": emulator.url,
    "runtask:token": RUNTASK_TOKEN,
    "runtask:organization": organization,
    "snapshot:address": emulator.url,
    "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
  };
}

/** Forgets every object the emulator holds (its organizations and workspaces stay), so that what one test left does not meet the next. */
export function forgetObjects(emulator: Emulator): void {
  emulator.snapshot.configs.clear();
  emulator.runTask.store.tasks.clear();
  emulator.runTask.store.workspaceTasks.clear();
}

/**
 * A scenario's one task `scanner` with its two associations and one configuration `offsite`, once each, as the
 * state names them under `task` and `config` (the move tests' program); and the service matching the state.
 */
export function expectScannerAndOffsiteOnce(emulator: Emulator, stack: EngineStack, task: string, config: string): void {
  const made = emulator.runTask.tasks().filter((t) => t.name === "scanner");
  expect(made).toHaveLength(1);
  expect(emulator.runTask.workspaceTasks().filter((w) => w.taskId === made[0].id)).toHaveLength(2);
  expect([...emulator.snapshot.configs.keys()]).toEqual(["offsite"]);
  const names = packageResources(stack.state()).map((r) => [nameOf(r.urn), r.id]);
  expect(names).toEqual(
    expect.arrayContaining([
      [task, made[0].id],
      [config, "offsite"],
    ]),
  );
  expect(names).toHaveLength(4);
  expectServiceMatchesState(emulator, stack);
}
