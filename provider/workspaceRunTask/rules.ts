import { isUnknown } from "../common/unknown";
import { STAGES_ON_STAGE_UPDATE } from "../services/runtask/vocabulary";
import type { Rule } from "../table/check";

/** Rules of the spec that span several arguments, each named for what it checks. */

/** The deprecated `stage` and `stages` say the same thing: one of them. */
export const stageOrStages: Rule = ({ values }) =>
  values.stage !== undefined && values.stages !== undefined
    ? [{ property: "stage", reason: "is deprecated and cannot be combined with stages: remove stage" }]
    : [];

/**
 * On update the service takes the deprecated `stage` only as pre_plan or post_plan. An unchanged `stage` (the
 * same as the state's, or its only stage after a refresh) does not block other updates.
 */
export const stageChangeOnUpdate: Rule = ({ values, olds }) => {
  const isUpdate = Object.keys(olds).some((k) => k !== "__provider");
  const stage = values.stage;
  if (!isUpdate || typeof stage !== "string" || isUnknown(stage)) return [];
  const unchanged = stage === olds.stage || (Array.isArray(olds.stages) && olds.stages.length === 1 && olds.stages[0] === stage);
  if (unchanged || STAGES_ON_STAGE_UPDATE.includes(stage as never)) return [];
  return [
    {
      property: "stage",
      reason: `can change only to ${STAGES_ON_STAGE_UPDATE.map((s) => `"${s}"`).join(" or ")} on an existing association; use stages: ["${stage}"] instead`,
    },
  ];
};

export const workspaceRunTaskRules: readonly Rule[] = [stageOrStages, stageChangeOnUpdate];
