import * as pulumi from "@pulumi/pulumi";
import { runTaskTable } from "../provider/runTask/fields";
import type { RunTaskGlobal } from "../provider/runTask/global";
import type { EnforcementLevel, Stage } from "../provider/services/runtask/vocabulary";
import { outputKeys, secretArgs } from "../provider/table/derived";
import { assertType } from "../provider/table/types";
import { dynamicProps, dynamicType, resourceUrn, unregisteredOutputs } from "./dynamicResource";
import { leavePromiseStacksUnformatted } from "./promiseStacks";
import { warnOfPlainProxyPasswords } from "./plainSettings";
import type { ArgsMatchTable, OutputsMatchTable } from "./tableCheck";

export type { EnforcementLevel, RunTaskGlobal, Stage };

/** The spec's `global-configuration`: the task applied to every workspace of the organization. */
export interface RunTaskGlobalArgs {
  /** Whether the task applies to every workspace. Default false: leaving it (or `global`) out turns it off. */
  enabled?: pulumi.Input<boolean>;
  /** Stages the global task runs at, in order. Left out, the service's stages stand. */
  stages?: pulumi.Input<pulumi.Input<Stage>[]>;
  /** `advisory` or `mandatory`. Left out, the service's level stands. */
  enforcementLevel?: pulumi.Input<EnforcementLevel>;
}

export interface RunTaskArgs {
  /** Default: stack config `runtask:organization`, then `RUNTASK_ORGANIZATION`. Changing it replaces the task. */
  organization?: pulumi.Input<string>;
  /** Letters, digits, `-` and `_`. Default: the resource name. */
  name?: pulumi.Input<string>;
  /** Where the service sends the run task payload (http or https). */
  url: pulumi.Input<string>;
  /** Up to 300 characters. */
  description?: pulumi.Input<string>;
  /** Must be `task` (the default). */
  category?: pulumi.Input<"task">;
  /**
   * Key the service signs payloads with. Write-only: the service never returns it, so the last applied value is
   * kept (as a secret) and sent again only when it changes. Changing it rotates the key in place.
   */
  hmacKey?: pulumi.Input<string>;
  /** Whether the task runs. Default true. */
  enabled?: pulumi.Input<boolean>;
  /**
   * The task on every workspace of the organization; needs the organization's global run tasks feature to turn
   * it on. Left out, the task is not global.
   */
  global?: pulumi.Input<RunTaskGlobalArgs>;
  /** Take over an existing task of the same name in the organization instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

assertType<ArgsMatchTable<RunTaskArgs, typeof runTaskTable>>(true);

const TYPE = dynamicType("runtask", "RunTask");
const SECRET_ARGS = secretArgs(runTaskTable.fields);
/**
 * The outputs a task may leave unregistered: `taskId`, the resource id (the state keeps it once, as the id), and the
 * arguments that hold a value only where the program gives them (the HMAC key, which no read returns; `adopt`).
 */
const ID_OUTPUT = "taskId";
const GIVEN_ONLY = ["hmacKey", "adopt"];
const ALWAYS = outputKeys(runTaskTable.fields).filter((k) => k !== ID_OUTPUT && !GIVEN_ONLY.includes(k));

/** A run task of an organization. The resource id is the service's `task-...` id. */
export class RunTask extends pulumi.CustomResource {
  declare readonly organization: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly category: pulumi.Output<"task">;
  declare readonly hmacKey: pulumi.Output<string | undefined>;
  declare readonly enabled: pulumi.Output<boolean>;
  /** The global settings the service holds (absent where the organization lacks the feature). */
  declare readonly global: pulumi.Output<RunTaskGlobal | undefined>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;
  /** The `task-...` id, the same as the resource id. */
  declare readonly taskId: pulumi.Output<string>;

  constructor(name: string, args: RunTaskArgs, opts?: pulumi.CustomResourceOptions) {
    warnOfPlainProxyPasswords();
    const given = GIVEN_ONLY.filter((k) => args[k as keyof RunTaskArgs] !== undefined);
    // Without `name`, the provider names the object after the resource, or keeps the name it has (dynamicResources.ts).
    const props = dynamicProps("runTask", given.length ? [...ALWAYS, ...given] : ALWAYS, args, resourceUrn(TYPE, name, opts?.parent));
    // Secret in the stored inputs too, even when passed as a plain string; and in the outputs, where it can be.
    const secrets = SECRET_ARGS.filter((key) => props[key] !== undefined);
    for (const key of secrets) props[key] = pulumi.secret(props[key]);
    const more = opts?.additionalSecretOutputs ?? [];
    const done = leavePromiseStacksUnformatted();
    try {
      super(TYPE, name, props, secrets.length || more.length ? { ...opts, additionalSecretOutputs: [...secrets, ...more] } : opts);
    } finally {
      done();
    }
  }
}

unregisteredOutputs(RunTask.prototype, [ID_OUTPUT, ...GIVEN_ONLY], { [ID_OUTPUT]: (task) => task.id });

assertType<OutputsMatchTable<RunTask, typeof runTaskTable>>(true);
