import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DEFAULT_SNAPSHOT_TOKEN, startEmulator, type Emulator } from "../../emulator";
import type { EmulatorData } from "../../emulator/savedData";
import type { ConsumerProject } from "../../toolchain/consumerProject";
import { EngineStack, engineProject, type ProgramSpec } from "../support/engine/engineStack";
import { expectServiceMatchesState } from "../support/engine/serviceLedger";

/**
 * State is a contract: stacks made by the last landed version upgrade to this one with no diff, no replacement and
 * no write. The fixture (`fixtures/last-landed.json`, written by `makeFixture.js` from a checkout of that version)
 * holds what that version's dynamic resources and provider plugins left through the Pulumi engine: the file
 * backend's files, each stack's settings (secrets encrypted with its passphrase) and what the service held. Here the
 * emulator starts from that, the stacks from those files, and this version runs preview, up, refresh and up again
 * on them through the engine: nothing changes and nothing is written; then destroy empties the service.
 */
jest.setTimeout(300_000);

interface Fixture {
  landed: string;
  engine: string;
  /** The emulator's address when the stacks were made, in their config and their providers' state. */
  address: string;
  passphrase: string;
  stacks: Record<"dynamic" | "plugins", { project: string; program: ProgramSpec; backend: Record<string, string>; settings: string }>;
  service: EmulatorData;
}

const fixture: Fixture = JSON.parse(readFileSync(join(__dirname, "fixtures/last-landed.json"), "utf8"));
const RUNTASK_TOKEN = "emulator-runtask-token";

let project: ConsumerProject;
let emulator: Emulator;
const stacks = {} as Record<"dynamic" | "plugins", EngineStack>;

beforeAll(async () => {
  project = engineProject();
  emulator = await startEmulator({
    data: fixture.service,
    snapshot: { takeSnapshots: false },
    runTask: { tokens: { [RUNTASK_TOKEN]: { owner: true } } },
  });
  stacks.dynamic = stackLeftBy("dynamic");
  stacks.plugins = stackLeftBy("plugins");
});

afterAll(async () => {
  for (const stack of Object.values(stacks)) stack.remove();
  await emulator?.close();
  project?.remove();
});

/** The stack as the last landed version left it, its addresses those of this run's emulator. */
function stackLeftBy(kind: "dynamic" | "plugins"): EngineStack {
  const made = fixture.stacks[kind];
  const stack = EngineStack.inline({ project, projectName: made.project, stack: "upgrade", passphrase: fixture.passphrase });
  const here = (text: string) => text.split(fixture.address).join(emulator.url);
  for (const [file, text] of Object.entries(made.backend)) {
    mkdirSync(dirname(join(stack.backend, file)), { recursive: true });
    writeFileSync(join(stack.backend, file), here(text));
  }
  writeFileSync(join(stack.programDir, "Pulumi.upgrade.yaml"), here(made.settings));
  return stack.program(made.program);
}

test("the fixture comes from the last landed version, through the engine this version is tested with", () => {
  expect(fixture.landed).toMatch(/^[0-9a-f]{40}$/);
  expect(fixture.engine).toBe("v3.274.1");
  // The old secrets stay encrypted in what was kept.
  for (const made of Object.values(fixture.stacks)) {
    for (const secret of ["fixture-hmac-key", "fixture-secret-access-key", RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN]) {
      expect(Object.values(made.backend).join("\n") + made.settings).not.toContain(secret);
    }
  }
});

test.each(["dynamic", "plugins"] as const)(
  "%s: preview, up, refresh and up again of the old stack change nothing and write nothing; destroy removes what it made",
  async (kind) => {
    const stack = stacks[kind];
    const resources = fixture.stacks[kind].program.resources.length;
    expectServiceMatchesState(emulator, stacks.dynamic, stacks.plugins);
    emulator.requests.reset();
    const preview = await stack.preview({ diff: true });
    expect(preview.error).toBeUndefined();
    expect(preview.changes).toEqual({ same: resources + 1 });
    const up = await stack.up();
    expect(up.error).toBeUndefined();
    expect(up.changes).toEqual({ same: resources + 1 });
    const refreshed = await stack.refresh();
    expect(refreshed.changes).toEqual({ same: resources + 1 });
    expect((await stack.up()).changes).toEqual({ same: resources + 1 });
    expect(emulator.requests.writes()).toBe(0);
    expectServiceMatchesState(emulator, stacks.dynamic, stacks.plugins);

    const destroyed = await stack.destroy();
    expect(destroyed.error).toBeUndefined();
    expect(stack.state().resources).toEqual([]);
    expectServiceMatchesState(emulator, stacks.dynamic, stacks.plugins);
  },
);

test("after both destroys the service holds nothing the stacks made", () => {
  expect([emulator.snapshot.configs.size, emulator.runTask.tasks().length, emulator.runTask.workspaceTasks().length]).toEqual([0, 0, 0]);
});
