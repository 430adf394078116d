import { orUnknown } from "../common/validate";
import { ENFORCEMENT_LEVELS, sameStages, STAGES } from "../services/runtask/vocabulary";
import { enforcementLevelSchema, idSchema, stageListSchema, stageSchema, workspaceIdSchema } from "../services/runtask/vocabularySchemas";
import { defineTable, t, value } from "../table/field";
import { checkByTable, type CheckResult, type Rule } from "../table/check";
import { diffByTable, outcomeOf, type DiffDetail, type DiffOutcome } from "../table/diff";

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

// Rules of the spec that span several arguments, each named for what it checks.

/** The deprecated `stage` and `stages` say the same thing: one of them. */
export const stageOrStages: Rule = ({ values }) =>
  values.stage !== undefined && values.stages !== undefined
    ? [{ property: "stage", reason: "is deprecated and cannot be combined with stages: remove stage" }]
    : [];

export const workspaceRunTaskRules: readonly Rule[] = [stageOrStages];

// What the table answers: check and diff, which send nothing.

/**
 * Validates and normalises `WorkspaceRunTask` arguments: `stages` defaults to ["post_plan"]; the deprecated
 * `stage` maps to `stages` when `stages` is absent. Any stage is taken, on update too: the spec's update takes the
 * deprecated `stage` attribute only as pre_plan or post_plan, but only `stages` is sent, which takes all four.
 */
export function checkWorkspaceRunTask(olds: Record<string, unknown>, news: Record<string, unknown>): CheckResult {
  return checkByTable(workspaceRunTaskTable, news, olds, {}, workspaceRunTaskRules);
}

/** Field by field, as the table says: a new workspace or task replaces the association; `stages` carries `stage`. */
export function diffWorkspaceRunTaskDetail(olds: Record<string, unknown>, news: Record<string, unknown>): DiffDetail {
  return diffByTable(workspaceRunTaskTable, olds, news);
}

export function diffWorkspaceRunTask(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  return outcomeOf(diffWorkspaceRunTaskDetail(olds, news));
}
