import { Attributes, missingId, type Mapped, type MappedGlobalSettings, type TypeMapping } from "./mapping";

/**
 * hashicorp/tfe `tfe_organization_run_task_global_settings` (v0.57.0 on, schema version 0) -> the `global` argument of
 * its task's `RunTask`: a second Terraform resource on the same `task-...` object (its `id` is the task's), and no
 * resource of its own here. Its task must migrate in the same run.
 */
export const tfeOrganizationRunTaskGlobalSettings: TypeMapping = {
  terraformType: "tfe_organization_run_task_global_settings",
  provider: "hashicorp/tfe",
  schemaVersions: [0],
  map(instance): Mapped {
    const a = new Attributes(instance, ["id"]);
    const taskId = a.string("task_id") ?? a.string("id");
    if (!taskId) return missingId(instance, "task_id", "the task's task-... id");
    const global: MappedGlobalSettings["global"] = { enabled: a.flag("enabled") ?? true };
    const stages = a.strings("stages");
    if (stages) global.stages = stages;
    const level = a.string("enforcement_level");
    if (level) global.enforcementLevel = level;
    return {
      kind: "global settings",
      task: `task:${taskId}`,
      global,
      carried: { enabled: "global.enabled", stages: "global.stages", enforcement_level: "global.enforcementLevel" },
      notCarried: a.unknownWithValues(),
    };
  },
};
