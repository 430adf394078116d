import { checkWorkspaceRunTask, diffWorkspaceRunTask } from "../../provider/workspaceRunTask/fields";
import { UNKNOWN } from "../../provider/common/unknown";
import { workspaceTaskBody, type WorkspaceRunTaskState } from "../../provider/workspaceRunTask/wire";

const base = { workspaceId: "ws-abc", taskId: "task-xyz", enforcementLevel: "advisory" };

describe("checkWorkspaceRunTask", () => {
  test("stages default to post_plan", () => {
    expect(checkWorkspaceRunTask({}, base)).toEqual({ inputs: { ...base, stages: ["post_plan"] }, failures: [] });
  });

  test("order is kept", () => {
    expect(checkWorkspaceRunTask({}, { ...base, stages: ["post_plan", "pre_plan"] }).inputs.stages).toEqual(["post_plan", "pre_plan"]);
  });

  test("the deprecated stage maps to stages, with a warning for the user (the provider plugins log it to the engine)", () => {
    expect(checkWorkspaceRunTask({}, { ...base, stage: "pre_apply" })).toEqual({
      inputs: { ...base, stage: "pre_apply", stages: ["pre_apply"] },
      failures: [],
      warnings: ["`stage` is deprecated; use `stages` instead"],
    });
  });

  test("an unknown task id (a RunTask created in the same program) passes", () => {
    const r = checkWorkspaceRunTask({}, { ...base, taskId: UNKNOWN });
    expect(r.failures).toEqual([]);
    expect(r.inputs.taskId).toBe(UNKNOWN);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>, { property: string; reason: string }[]]>([
    ["missing enforcement level", {}, { workspaceId: "ws-a", taskId: "task-b" }, [{ property: "enforcementLevel", reason: "is required" }]],
    [
      "bad level",
      {},
      { ...base, enforcementLevel: "strict" },
      [{ property: "enforcementLevel", reason: 'must be one of "advisory", "mandatory", got "strict"' }],
    ],
    ["empty stages", {}, { ...base, stages: [] }, [{ property: "stages", reason: "must list at least one stage" }]],
    ["duplicate stages", {}, { ...base, stages: ["pre_plan", "pre_plan"] }, [{ property: "stages", reason: "must not list a stage twice" }]],
    [
      "hyphenated stage",
      {},
      { ...base, stages: ["pre-apply"] },
      [{ property: "stages[0]", reason: '"pre-apply" is not a stage: did you mean "pre_apply"? (stages use underscores)' }],
    ],
    [
      "stage with stages",
      {},
      { ...base, stage: "pre_plan", stages: ["pre_plan"] },
      [{ property: "stage", reason: "is deprecated and cannot be combined with stages: remove stage" }],
    ],
    [
      "workspace id with a slash",
      {},
      { ...base, workspaceId: "ws-1/x" },
      [
        {
          property: "workspaceId",
          reason: `must be a workspace id (ws-...); "ws-1/x" may be the workspace's name, but the run task API takes its id (shown in the workspace's settings)`,
        },
      ],
    ],
    [
      "a workspace's name where its id belongs",
      {},
      { ...base, workspaceId: "app-production" },
      [
        {
          property: "workspaceId",
          reason: `must be a workspace id (ws-...); "app-production" may be the workspace's name, but the run task API takes its id (shown in the workspace's settings)`,
        },
      ],
    ],
    [
      "a task's name where its id belongs",
      {},
      { ...base, taskId: "scanner" },
      [
        {
          property: "taskId",
          reason: `must be a run task id (task-...); "scanner" may be the task's name: use the RunTask's id (scanner.id), or look one up with getRunTask({ name })`,
        },
      ],
    ],
  ])("%s", (_l, olds, news, failures) => {
    expect(checkWorkspaceRunTask(olds, news).failures).toEqual(failures);
  });

  test("the deprecated stage as pre_apply, after the stages drifted outside: taken, as only stages is sent, which an update takes whatever its stages", () => {
    const drifted = { ...base, stages: ["pre_plan", "post_plan"] };
    const checked = checkWorkspaceRunTask(drifted, { ...base, stage: "pre_apply" });
    expect(checked.failures).toEqual([]);
    expect(diffWorkspaceRunTask(drifted, checked.inputs)).toMatchObject({ changes: true, replaces: [] });
    expect(workspaceTaskBody(checked.inputs as WorkspaceRunTaskState, { withTask: false }).attributes).toEqual({
      "enforcement-level": "advisory",
      stages: ["pre_apply"],
    });
  });

  test("an unchanged deprecated stage outside pre/post plan does not block other updates, after a refresh too", () => {
    const olds = { ...base, stage: "post_apply", stages: ["post_apply"] };
    expect(checkWorkspaceRunTask(olds, { ...base, enforcementLevel: "mandatory", stage: "post_apply" }).failures).toEqual([]);
    const refreshed = { ...base, stages: ["post_apply"] };
    expect(checkWorkspaceRunTask(refreshed, { ...base, enforcementLevel: "mandatory", stage: "post_apply" }).failures).toEqual([]);
  });
});

describe("diffWorkspaceRunTask", () => {
  const stored = { ...base, stages: ["post_plan"], stage: "post_plan", workspaceTaskId: "wstask-1" };
  // Delete before replace where a replacement (replaceOnChanges) would associate the same task with the same workspace.
  test.each<[Record<string, unknown>, boolean, string[], boolean]>([
    [{}, false, [], true],
    [{ stage: "post_plan" }, false, [], true],
    [{ enforcementLevel: "mandatory" }, true, [], true],
    [{ stages: ["pre_plan", "post_plan"] }, true, [], true],
    [{ taskId: "task-other" }, true, ["taskId"], false],
    [{ taskId: UNKNOWN }, true, ["taskId"], false],
    [{ workspaceId: "ws-other" }, true, ["workspaceId"], false],
  ])("%j", (over, changes, replaces, deleteBeforeReplace) => {
    const news = checkWorkspaceRunTask(stored, { ...base, ...over }).inputs;
    expect(diffWorkspaceRunTask(stored, news)).toEqual({ changes, replaces, deleteBeforeReplace });
  });
});
