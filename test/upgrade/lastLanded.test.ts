import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import {
  createConsumerProject,
  dynamicProviderPlugin,
  Engine,
  NativeEngine,
  type ConsumerProject,
  type NativeResource,
  type ProgramSpec,
} from "../../engine";
import { emulatorStackConfig, RUNTASK_TOKEN } from "../support/emulatorStack";

/**
 * State is a contract: a stack made by the last landed version upgrades with no diff, no replacement and no write.
 * `fixtures/last-landed.json` holds what that version left (made by its own provider, engine drivers and emulator
 * from a checkout of it): the engine states of a dynamic-provider stack and of a provider-plugin stack, two of each
 * resource (defaults left out and set, secrets, global settings, stages), and what the service held then. Here the
 * service is put back as it was, the states are loaded, and this version runs preview, up, refresh and up again on
 * the same programs; then it destroys what the old version made.
 *
 * After a landing, write it afresh from a built checkout of the landed version with `makeFixture.js` beside this
 * file (docs/contributing.md, "State upgrades").
 */
type Props = Record<string, unknown>;
type HeldState = { resource: NativeResource; id: string; inputs: Props; outputs: Props };
interface Fixture {
  emulator: Record<"organizations" | "workspaces" | "tasks" | "workspaceTasks" | "snapshotConfigs", [string, unknown][]>;
  dynamic: { program: ProgramSpec; state: unknown };
  native: { program: NativeResource[]; state: HeldState[] };
}
const fixture: Fixture = JSON.parse(readFileSync(join(__dirname, "fixtures/last-landed.json"), "utf8"));

// Each command starts the plugins afresh, as the CLI does.
jest.setTimeout(240_000);

let emulator: Emulator;
let project: ConsumerProject;

beforeAll(async () => {
  project = createConsumerProject({ project: "upgrade-dynamic", stack: "upgrade" });
  emulator = await startEmulator({
    snapshot: { takeSnapshots: false },
    runTask: { tokens: { [RUNTASK_TOKEN]: { owner: true } }, organizations: [{ name: "acme", workspaces: [{ name: "app" }, { name: "web" }] }] },
  });
  // The service as the old version left it.
  const { store } = emulator.runTask;
  for (const key of ["organizations", "workspaces", "tasks", "workspaceTasks"] as const) {
    const map = store[key] as Map<string, unknown>;
    map.clear();
    for (const [k, v] of fixture.emulator[key]) map.set(k, v);
  }
  emulator.snapshot.configs.clear();
  for (const [k, v] of fixture.emulator.snapshotConfigs) emulator.snapshot.configs.set(k, v as never);
});

afterAll(async () => {
  await emulator?.close();
  project?.remove();
});

const config = () => emulatorStackConfig(emulator);
const ops = (steps: { name: string; op: string }[]) => Object.fromEntries(steps.map((s) => [s.name, s.op]));
const everySame = (steps: { name: string; op: string }[]) => Object.fromEntries(steps.map((s) => [s.name, "same"]));

test("dynamic providers: preview, up, refresh and up again of the old stack change nothing and write nothing; destroy removes what it made", async () => {
  const stateFile = join(project.dir, "state.json");
  writeFileSync(stateFile, JSON.stringify(fixture.dynamic.state));
  const engine = new Engine({ plugin: dynamicProviderPlugin(project.dir), stateFile, config: config() });
  const program = () => project.capture(fixture.dynamic.program);
  const names = ["nightly", "offsite", "scanner", "cost", "scanner-on-app", "cost-on-web"];

  emulator.requests.reset();
  const preview = await engine.preview(program());
  expect(ops(preview)).toEqual(everySame(preview));
  expect(Object.keys(ops(preview)).sort()).toEqual([...names].sort());
  const up = await engine.up(program());
  expect(ops(up)).toEqual(everySame(up));
  const refresh = await engine.refresh();
  expect(refresh.filter((s) => s.op !== "refresh" || s.detail)).toEqual([]);
  expect(ops(await engine.up(program()))).toEqual(everySame(up));
  expect(emulator.requests.writes()).toBe(0);

  await engine.destroy();
  const left = fixture.native.state.map((h) => h.id);
  expect(emulator.runTask.tasks().map((t) => t.id)).toEqual(left.filter((id) => id.startsWith("task-")));
  expect([...emulator.snapshot.configs.keys()].sort()).toEqual(["nightly-native", "offsite-native"]);
});

test("provider plugins: preview, up, refresh and up again of the old stack change nothing and write nothing; destroy removes what it made", async () => {
  const engine = new NativeEngine({ programDir: project.dir, config: config() });
  engine.loadState(fixture.native.state);
  const program = fixture.native.program;

  emulator.requests.reset();
  const preview = await engine.preview(program);
  expect(ops(preview)).toEqual(everySame(preview));
  expect(preview).toHaveLength(6);
  const up = await engine.up(program);
  expect(ops(up)).toEqual(everySame(up));
  const refresh = await engine.refresh();
  expect(refresh.filter((s) => s.op !== "refresh" || (s.changes ?? []).length > 0)).toEqual([]);
  expect(ops(await engine.up(program))).toEqual(everySame(up));
  expect(emulator.requests.writes()).toBe(0);

  await engine.destroy();
  expect([emulator.runTask.tasks(), emulator.runTask.workspaceTasks(), [...emulator.snapshot.configs.keys()]]).toEqual([[], [], []]);
});
