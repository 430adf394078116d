import type { CheckFailure } from "../common/inputError";
import { bool, nonEmptyString, orUnknown, validateArgs, type ArgSchemas } from "../common/validate";
import { isUnknown } from "../common/unknown";
import { DEFAULT_STAGES, enforcementLevelSchema, stageListSchema, stageSchema, STAGES_ON_STAGE_UPDATE } from "./vocabulary";

export const WORKSPACE_RUN_TASK = "WorkspaceRunTask";

const id = (prefix: string) =>
  nonEmptyString().regex(/^[^/\s]+$/, { error: `must be an id such as ${prefix}-..., without '/' or whitespace` });

const ARG_SCHEMAS: ArgSchemas = {
  workspaceId: id("ws"),
  taskId: id("task"),
  enforcementLevel: enforcementLevelSchema(),
  stages: orUnknown(stageListSchema()),
  stage: stageSchema(),
  adopt: bool(),
};

/**
 * Validates and normalises `WorkspaceRunTask` arguments: `stages` defaults to ["post_plan"]; the deprecated
 * `stage` maps to `stages` when `stages` is absent, and takes only pre_plan or post_plan when it changes on an
 * existing association, as the service's update does.
 */
export function checkWorkspaceRunTask(olds: Record<string, unknown>, news: Record<string, unknown>): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const { workspaceTaskId: _o1, ...args } = news;
  const { values, failures } = validateArgs(args, ARG_SCHEMAS, WORKSPACE_RUN_TASK);
  const failed = new Set(failures.map((f) => f.property.split(/[.[]/)[0]));
  for (const arg of ["workspaceId", "taskId", "enforcementLevel"]) {
    if (news[arg] === undefined && !failed.has(arg)) failures.push({ property: arg, reason: "is required" });
  }
  if (values.stage !== undefined && values.stages !== undefined) {
    failures.push({ property: "stage", reason: "is deprecated and cannot be combined with stages: remove stage" });
  }
  const isUpdate = Object.keys(olds).some((k) => k !== "__provider");
  const stage = values.stage;
  const unchanged = stage === olds.stage || (Array.isArray(olds.stages) && olds.stages.length === 1 && olds.stages[0] === stage);
  if (isUpdate && typeof stage === "string" && !isUnknown(stage) && !unchanged && !STAGES_ON_STAGE_UPDATE.includes(stage as never)) {
    failures.push({
      property: "stage",
      reason: `can change only to ${STAGES_ON_STAGE_UPDATE.map((s) => `"${s}"`).join(" or ")} on an existing association; use stages: ["${stage}"] instead`,
    });
  }
  if (failures.length > 0) return { inputs: news, failures };
  const stages = values.stages ?? (stage !== undefined ? [stage] : [...DEFAULT_STAGES]);
  return { inputs: { ...values, stages }, failures: [] };
}
