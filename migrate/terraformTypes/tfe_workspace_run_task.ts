import { Attributes, missingId, put, type Mapped, type MappedResource, type TypeMapping } from "./mapping";

/**
 * hashicorp/tfe `tfe_workspace_run_task` -> `runtask:index:WorkspaceRunTask`, imported by `<workspace_id>/<id>` (the
 * association is reached only through its workspace; Terraform's `id` alone, the `wstask-...`, is not enough).
 *
 * Schema version 0 (up to v0.56: `stage`, default `post_plan`) and 1 (v0.57.0 on: `stages` beside the deprecated
 * `stage`, which the provider fills from the service). `stages` is carried; from a version 0 state, `[stage]`.
 */
export const tfeWorkspaceRunTask: TypeMapping = {
  terraformType: "tfe_workspace_run_task",
  provider: "hashicorp/tfe",
  schemaVersions: [0, 1],
  map(instance): Mapped {
    const a = new Attributes(instance, ["id"]);
    const id = a.string("id");
    if (!id) return missingId(instance, "id", "the association's wstask-... id");
    const workspaceId = a.string("workspace_id");
    if (!workspaceId) return missingId(instance, "workspace_id", "the workspace's ws-... id");
    const taskId = a.string("task_id");
    if (!taskId) return missingId(instance, "task_id", "the task's task-... id");
    const mapped: MappedResource = {
      kind: "resource",
      pulumiType: "runtask:index:WorkspaceRunTask",
      importId: `${workspaceId}/${id}`,
      object: `wstask:${id}`,
      inputs: { workspaceId, taskId },
      secrets: {},
      carried: { workspace_id: "workspaceId", task_id: "taskId" },
      notCarried: [],
      unknownSecrets: [],
      references: { taskId: `task:${taskId}` },
    };
    const level = a.string("enforcement_level");
    if (level) {
      mapped.inputs.enforcementLevel = level;
      mapped.carried.enforcement_level = "enforcementLevel";
    }
    const stage = a.string("stage");
    const stages = instance.schemaVersion >= 1 ? (a.strings("stages") ?? (stage ? [stage] : undefined)) : stage ? [stage] : undefined;
    // ["post_plan"] is this package's default, and the service's.
    const isDefault = stages?.length === 1 && stages[0] === "post_plan";
    put(mapped.inputs, "stages", isDefault ? undefined : stages);
    if (instance.schemaVersion >= 1 && a.strings("stages")) {
      mapped.carried.stages = "stages";
      if (stage) mapped.notCarried.push({ attribute: "stage", why: "deprecated; the first of `stages`, which is carried" });
    } else if (stage) {
      mapped.carried.stage = "stages";
    }
    mapped.notCarried.push(...a.unknownWithValues());
    return mapped;
  },
};
