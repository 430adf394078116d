import { nonEmptyString, orUnknown } from "../common/validate";
import { ENFORCEMENT_LEVELS, enforcementLevelSchema, sameStages, stageListSchema, stageSchema, STAGES } from "../services/runtask/vocabulary";
import { defineTable, t, value } from "../table/field";

const id = (prefix: string) => nonEmptyString().regex(/^[^/\s]+$/, { error: `must be an id such as ${prefix}-..., without '/' or whitespace` });

/**
 * The fields of a workspace run task (spec: run-task-api.md, "Workspace run task"), one line each. The workspace
 * is a path segment and the task a relationship; `stage` is the deprecated spelling of a single stage.
 */
export const workspaceRunTaskTable = defineTable("WorkspaceRunTask", {
  workspaceId: { value: t.string, schema: id("ws"), required: true, onChange: "replace" },
  taskId: { value: t.string, schema: id("task"), required: true, onChange: "replace" },
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
