import { orUnknown } from "../common/validate";
import { ENFORCEMENT_LEVELS, sameStages, STAGES } from "../services/runtask/vocabulary";
import { enforcementLevelSchema, idSchema, stageListSchema, stageSchema, workspaceIdSchema } from "../services/runtask/vocabularySchemas";
import { defineTable, t, value } from "../table/field";

// Ids are caught at check when they have another shape (most often the object's name), rather than as a 404 during `up`.
const taskIdSchema = idSchema(
  "task",
  "a run task",
  "may be the task's name: use the RunTask's id (scanner.id), or look one up with getRunTask({ name })",
);

/**
 * The fields of a workspace run task (spec: run-task-api.md, "Workspace run task"), one line each. The workspace
 * is a path segment and the task a relationship; `stage` is the deprecated spelling of a single stage.
 */
export const workspaceRunTaskTable = defineTable("WorkspaceRunTask", {
  workspaceId: { value: t.string, schema: workspaceIdSchema(), required: true, onChange: "replace", identity: true },
  taskId: { value: t.string, schema: taskIdSchema, required: true, onChange: "replace", identity: true },
  enforcementLevel: {
    value: t.oneOfStrings(ENFORCEMENT_LEVELS),
    schema: enforcementLevelSchema(),
    wire: "enforcement-level",
    required: true,
    onChange: "update",
  },
  stages: {
    value: t.list(t.oneOfStrings(STAGES)),
    schema: orUnknown(stageListSchema()),
    wire: "stages",
    default: value(["post_plan"]),
    same: sameStages,
    onChange: "update",
  },
  stage: { value: t.oneOfStrings(STAGES), schema: stageSchema(), alias: { of: "stages", as: (stage) => [stage] }, onChange: "update" },
  adopt: { value: t.boolean, onChange: "none" },
  workspaceTaskId: { value: t.string, output: true, onChange: "none" },
});
