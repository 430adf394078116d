import type { ProgramSpec } from "../engine";

/** A program of `n` resources: a third each of snapshot configurations, run tasks, and attachments of them. */
export function mixedProgram(n: number, version: number): ProgramSpec {
  const third = Math.ceil(n / 3);
  const spec: Required<Pick<ProgramSpec, "snapshots" | "runTasks" | "attachments">> = { snapshots: [], runTasks: [], attachments: [] };
  for (let i = 0; spec.snapshots.length + spec.runTasks.length + spec.attachments.length < n; i++) {
    if (i < third)
      spec.snapshots.push({
        resource: `cfg-${i}`,
        args: { interval: "1h", retain: version, pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" },
      });
    else if (i < 2 * third)
      spec.runTasks.push({ resource: `task-${i}`, args: { url: `https://hooks.example.com/${i}`, description: `v${version}` } });
    else {
      const task = spec.runTasks[(i - 2 * third) % spec.runTasks.length].resource;
      spec.attachments.push({
        resource: `attach-${i}`,
        task,
        args: { workspaceId: "ws-bench", enforcementLevel: version === 1 ? "advisory" : "mandatory" },
      });
    }
  }
  return spec;
}
