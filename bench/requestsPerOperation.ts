import { startEmulator, type Emulator } from "../emulator";
import { BenchStack } from "./benchStack";
import { BENCH_WORKSPACE, type ResourceDescription, type ResourceKind } from "./programs";
import { benchConfig, EMULATOR_OPTIONS, type Setting } from "./setting";

/** Requests one resource's operations make, counted at the emulator. */
export interface RequestCounts {
  create: number;
  noOpUp: number;
  update: number;
  refresh: number;
  adopt: number;
  delete: number;
}

const KINDS: ResourceKind[] = ["SnapshotAutoConfig", "RunTask", "WorkspaceRunTask"];

/** The routes of each kind's requests. */
const ROUTES: Record<ResourceKind, RegExp> = {
  SnapshotAutoConfig: /^\w+ \/v1\//,
  RunTask: /^\w+ \/api\/v2\/(organizations\/:org\/tasks|tasks)/,
  WorkspaceRunTask: /^\w+ \/api\/v2\/workspaces\//,
};

/** One resource of each kind, the attachment of the task; `change` changes each one's argument, `adopt` adopts all. */
function program(change: boolean, adopt: boolean): ResourceDescription[] {
  const extra = adopt ? { adopt: true } : {};
  return [
    {
      kind: "SnapshotAutoConfig",
      name: "cfg",
      args: { interval: "24h", pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b", ...(change ? { retain: 3 } : {}), ...extra },
    },
    { kind: "RunTask", name: "task", args: { url: "https://hooks.example.com/x", hmacKey: "k", ...(change ? { enabled: false } : {}), ...extra } },
    {
      kind: "WorkspaceRunTask",
      name: "attach",
      task: "task",
      args: { workspaceId: BENCH_WORKSPACE, enforcementLevel: change ? "mandatory" : "advisory", ...extra },
    },
  ];
}

/**
 * Requests per operation of each resource, through the real engine, for the dynamic resources and the provider
 * plugins: the commands of one stack of the three kinds, each command's requests told apart by route. Adoption is an
 * `up` with `adopt: true` on a second stack (a state that has never seen the objects), which then destroys them.
 */
export async function requestsPerOperation(setting: Setting, variant: "dynamic" | "plugin"): Promise<Record<ResourceKind, RequestCounts>> {
  const emulator = await startEmulator({ ...EMULATOR_OPTIONS, faults: undefined });
  const config = benchConfig(emulator.url);
  const stack = new BenchStack(setting.project, setting.engine, `requests-${variant}`, config);
  const adopting = new BenchStack(setting.project, setting.engine, `requests-adopt-${variant}`, config);
  const counts = {} as Record<keyof RequestCounts, Record<ResourceKind, number>>;
  const count = async (op: keyof RequestCounts, command: () => Promise<unknown>) => {
    emulator.requests.reset();
    await command();
    counts[op] = byKind(emulator);
  };
  try {
    await count("create", () => stack.up(variant, program(false, false)));
    await count("noOpUp", () => stack.up(variant, program(false, false)));
    await count("update", () => stack.up(variant, program(true, false)));
    await count("refresh", () => stack.refresh(variant, program(true, false)));
    await count("adopt", () => adopting.up(variant, program(true, true)));
    await count("delete", () => adopting.destroy(variant));
  } finally {
    stack.remove();
    adopting.remove();
    await emulator.close();
  }
  return Object.fromEntries(
    KINDS.map((kind) => [kind, Object.fromEntries(Object.entries(counts).map(([op, c]) => [op, c[kind]])) as unknown as RequestCounts]),
  ) as Record<ResourceKind, RequestCounts>;
}

function byKind(emulator: Emulator): Record<ResourceKind, number> {
  const routes = Object.entries(emulator.requests.byRoute());
  return Object.fromEntries(
    KINDS.map((kind) => [kind, routes.filter(([route]) => ROUTES[kind].test(route)).reduce((n, [, c]) => n + c, 0)]),
  ) as Record<ResourceKind, number>;
}
