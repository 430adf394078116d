import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../emulator";
import { nodejsLanguageHostOnPath } from "../toolchain/pulumiEngine";
import { BenchStack } from "./benchStack";
import { BENCH_WORKSPACE, PLUGIN_TOKENS, type ResourceDescription, type ResourceKind } from "./programs";
import { benchConfig, EMULATOR_OPTIONS, type Measured, type Setting } from "./setting";

/** Requests one resource's operations make, counted at the emulator. */
export interface RequestCounts {
  create: number;
  noOpUp: number;
  update: number;
  refresh: number;
  adopt: number;
  /** `pulumi import` by the id forms of IMPORT_IDS: the provider plugins only (absent from results before it was measured). */
  import?: number;
  delete: number;
}

/** Requests per operation of both routes, and when they were measured where that was on their own. */
export interface RequestFigures {
  /** Absent where they were measured in the full run, whose date they share. */
  measured?: Measured;
  dynamic: Record<ResourceKind, RequestCounts>;
  plugin: Record<ResourceKind, RequestCounts>;
}

/**
 * The import id of each kind (docs/reference.md, "Import ids"), which is the id the state holds: a configuration's
 * name, a task's `task-` id, an association's workspace and `wstask-` id.
 */
export const IMPORT_IDS: Record<ResourceKind, { form: string }> = {
  SnapshotAutoConfig: { form: "its name" },
  RunTask: { form: "its `task-` id" },
  WorkspaceRunTask: { form: "`<workspace-id>/<wstask-id>`" },
};

/** Both routes' requests per operation. */
export async function requestFigures(setting: Setting): Promise<RequestFigures> {
  return { dynamic: await requestsPerOperation(setting, "dynamic"), plugin: await requestsPerOperation(setting, "plugin") };
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
 * plugins: the commands of one stack of the three kinds, each command's requests told apart by route. An import is
 * `pulumi import` of the first stack's objects into a stack of its own (the provider plugins only: the engine cannot
 * read a dynamic resource by its id, pulumi/pulumi#16175). Adoption is an `up` with `adopt: true` on a further stack
 * (a state that has never seen the objects), which then destroys them.
 */
export async function requestsPerOperation(setting: Setting, variant: "dynamic" | "plugin"): Promise<Record<ResourceKind, RequestCounts>> {
  const emulator = await startEmulator({ ...EMULATOR_OPTIONS, faults: undefined });
  const config = benchConfig(emulator.url);
  const stack = new BenchStack(setting.project, setting.engine, `requests-${variant}`, config);
  const languageHost = variant === "plugin" ? nodejsLanguageHostOnPath(mkdtempSync(join(tmpdir(), "bench-language-host-"))) : undefined;
  const importing =
    languageHost === undefined ? undefined : new BenchStack(setting.project, setting.engine, `requests-import-${variant}`, config, {}, languageHost);
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
    if (importing) {
      const ids = stack.ids();
      const imports = program(true, false).map((r) => ({ type: PLUGIN_TOKENS[r.kind], name: r.name, id: ids[r.name] }));
      await count("import", () => importing.import(imports));
    }
    await count("adopt", () => adopting.up(variant, program(true, true)));
    await count("delete", () => adopting.destroy(variant));
  } finally {
    stack.remove();
    importing?.remove();
    if (languageHost) rmSync(languageHost, { recursive: true, force: true });
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
