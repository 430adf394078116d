import * as pulumi from "@pulumi/pulumi";
import type { EnforcementLevel, Stage } from "../provider/runtask/vocabulary";
import provider = require("./shims/runTask");

export type { EnforcementLevel, Stage };

/** The spec's `global-configuration`: the task applied to every workspace of the organization. */
export interface RunTaskGlobalArgs {
  /** Default false. */
  enabled?: pulumi.Input<boolean>;
  stages?: pulumi.Input<pulumi.Input<Stage>[]>;
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
  /** Default true. */
  enabled?: pulumi.Input<boolean>;
  /** Requires the organization's global run tasks feature. */
  global?: pulumi.Input<RunTaskGlobalArgs>;
  /** Take over an existing task of the same name in the organization instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

export interface RunTaskGlobal {
  enabled: boolean;
  stages?: Stage[];
  enforcementLevel?: EnforcementLevel;
}

const OUTPUT_KEYS = ["organization", "name", "url", "description", "category", "hmacKey", "enabled", "global", "adopt", "taskId"];

/** A run task of an organization. The resource id is the service's `task-...` id. */
export class RunTask extends pulumi.dynamic.Resource {
  declare readonly organization: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly category: pulumi.Output<"task">;
  declare readonly hmacKey: pulumi.Output<string | undefined>;
  declare readonly enabled: pulumi.Output<boolean>;
  declare readonly global: pulumi.Output<RunTaskGlobal | undefined>;
  /** The `task-...` id, the same as the resource id. */
  declare readonly taskId: pulumi.Output<string>;

  constructor(name: string, args: RunTaskArgs, opts?: pulumi.CustomResourceOptions) {
    const props: Record<string, unknown> = Object.fromEntries(OUTPUT_KEYS.map((k) => [k, undefined]));
    Object.assign(props, args, { name: args.name ?? name });
    // Secret in the stored inputs too, even when passed as a plain string.
    if (props.hmacKey !== undefined) props.hmacKey = pulumi.secret(props.hmacKey);
    super(
      provider,
      name,
      props,
      { ...opts, additionalSecretOutputs: ["hmacKey", ...(opts?.additionalSecretOutputs ?? [])] },
      "runtask",
      "RunTask",
    );
  }
}
