/**
 * The benchmark's programs, described as data so that one description runs as each variant (see inlineProgram.ts):
 * the package's dynamic resources, the provider plugins' resources, or the null provider's.
 */

/** How a program's resources are made. */
export type Variant =
  /** The package's dynamic resources (`RunTask`, ...): the dynamic provider plugin, our provider core. */
  | "dynamic"
  /** `pulumi.CustomResource`s of the provider plugins' tokens (`runtask:index:RunTask`, ...). */
  | "plugin"
  /** Dynamic resources of a provider that does nothing and sends no request: the engine's own cost. */
  | "null";

export const VARIANTS: Variant[] = ["dynamic", "plugin", "null"];

export type ResourceKind = "SnapshotAutoConfig" | "RunTask" | "WorkspaceRunTask";

export interface ResourceDescription {
  kind: ResourceKind;
  name: string;
  args: Record<string, unknown>;
  /** For a WorkspaceRunTask: the RunTask of this program whose id is its `taskId`. */
  task?: string;
}

/** The provider plugin's token of each kind. */
export const PLUGIN_TOKENS: Record<ResourceKind, string> = {
  SnapshotAutoConfig: "snapshot:index:SnapshotAutoConfig",
  RunTask: "runtask:index:RunTask",
  WorkspaceRunTask: "runtask:index:WorkspaceRunTask",
};

/** The workspace the emulator is seeded with for attachments. */
export const BENCH_WORKSPACE = "ws-bench";

/** `n` run tasks (one package, so one plugin process for the provider plugins). */
export function runTasks(n: number, version = 1): ResourceDescription[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: "RunTask" as const,
    name: `task-${i}`,
    args: { url: `https://hooks.example.com/${i}`, description: `v${version}` },
  }));
}

/** `n` resources: a third each of snapshot configurations, run tasks, and attachments of those tasks. */
export function mixed(n: number, version = 1): ResourceDescription[] {
  const third = Math.ceil(n / 3);
  const out: ResourceDescription[] = [];
  const tasks: string[] = [];
  for (let i = 0; out.length < n; i++) {
    if (i < third) {
      out.push({
        kind: "SnapshotAutoConfig",
        name: `cfg-${i}`,
        args: { interval: "1h", retain: version, pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" },
      });
    } else if (i < 2 * third) {
      tasks.push(`task-${i}`);
      out.push({ kind: "RunTask", name: `task-${i}`, args: { url: `https://hooks.example.com/${i}`, description: `v${version}` } });
    } else {
      out.push({
        kind: "WorkspaceRunTask",
        name: `attach-${i}`,
        task: tasks[(i - 2 * third) % tasks.length],
        args: { workspaceId: BENCH_WORKSPACE, enforcementLevel: version === 1 ? "advisory" : "mandatory" },
      });
    }
  }
  return out;
}
