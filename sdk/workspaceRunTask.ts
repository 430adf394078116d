import * as pulumi from "@pulumi/pulumi";
import type { EnforcementLevel, Stage } from "../provider/services/runtask/vocabulary";
import { outputKeys } from "../provider/table/derived";
import { assertType } from "../provider/table/types";
import { workspaceRunTaskTable } from "../provider/workspaceRunTask/fields";
import { dynamicProps, dynamicType, resourceUrn, unregisteredOutputs } from "./dynamicResource";
import { leavePromiseStacksUnformatted } from "./promiseStacks";
import { warnOfPlainProxyPasswords } from "./plainSettings";
import type { ArgsMatchTable, OutputsMatchTable } from "./tableCheck";

export interface WorkspaceRunTaskArgs {
  /** The workspace (`ws-...`). Changing it replaces the association. */
  workspaceId: pulumi.Input<string>;
  /** The run task (`task-...`), e.g. `runTask.id`. Changing it replaces the association. */
  taskId: pulumi.Input<string>;
  /** `advisory` (a failing task warns) or `mandatory` (a failing task stops the run). */
  enforcementLevel: pulumi.Input<EnforcementLevel>;
  /** Lifecycle stages, in order. Default `["post_plan"]`. */
  stages?: pulumi.Input<pulumi.Input<Stage>[]>;
  /** @deprecated Use `stages`. Mapped to `stages: [stage]` when `stages` is absent. */
  stage?: pulumi.Input<Stage>;
  /** Take over an existing association of this task with this workspace instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

assertType<ArgsMatchTable<WorkspaceRunTaskArgs, typeof workspaceRunTaskTable>>(true);

const TYPE = dynamicType("runtask", "WorkspaceRunTask");
/**
 * The outputs an association may leave unregistered: `workspaceTaskId`, the resource id (the state keeps it once, as
 * the id), and `adopt`, which holds a value only where the program gives it.
 */
const ID_OUTPUT = "workspaceTaskId";
const ALWAYS = outputKeys(workspaceRunTaskTable.fields).filter((k) => k !== ID_OUTPUT && k !== "adopt");
const WITH_ADOPT = [...ALWAYS, "adopt"];

/** The association of a run task to a workspace. The resource id is the service's `wstask-...` id. */
export class WorkspaceRunTask extends pulumi.CustomResource {
  declare readonly workspaceId: pulumi.Output<string>;
  declare readonly taskId: pulumi.Output<string>;
  declare readonly enforcementLevel: pulumi.Output<EnforcementLevel>;
  declare readonly stages: pulumi.Output<Stage[]>;
  /** @deprecated The first of `stages`, as the service reports it. */
  declare readonly stage: pulumi.Output<Stage | undefined>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;
  /** The `wstask-...` id, the same as the resource id. */
  declare readonly workspaceTaskId: pulumi.Output<string>;

  constructor(name: string, args: WorkspaceRunTaskArgs, opts?: pulumi.CustomResourceOptions) {
    if (args.stage !== undefined) {
      pulumi.log.warn(`WorkspaceRunTask "${name}": \`stage\` is deprecated; use \`stages\` (a list) instead`);
    }
    warnOfPlainProxyPasswords();
    const outputs = args.adopt === undefined ? ALWAYS : WITH_ADOPT;
    const done = leavePromiseStacksUnformatted();
    try {
      super(TYPE, name, dynamicProps("workspaceRunTask", outputs, args, resourceUrn(TYPE, name, opts?.parent)), opts);
    } finally {
      done();
    }
  }
}

unregisteredOutputs(WorkspaceRunTask.prototype, [ID_OUTPUT, "adopt"], { [ID_OUTPUT]: (association) => association.id });

assertType<OutputsMatchTable<WorkspaceRunTask, typeof workspaceRunTaskTable>>(true);
