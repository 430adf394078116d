import { z } from "zod";
import type { CheckFailure } from "../common/inputError";
import { bool, nonEmptyString, orUnknown, validateArgs, type ArgSchemas } from "../common/validate";
import { isUnknown } from "../common/unknown";
import { enforcementLevelSchema, stageListSchema } from "./vocabulary";

export const RUN_TASK = "RunTask";
export const MAX_DESCRIPTION = 300;

const httpUrl = z.string({ error: "must be a string" }).refine(
  (value) => {
    try {
      const u = new URL(value);
      return (u.protocol === "http:" || u.protocol === "https:") && u.host !== "";
    } catch {
      return false;
    }
  },
  { error: (issue) => `must be an http or https URL, got ${JSON.stringify(issue.input)}` },
);

const globalSchema = z
  .object(
    {
      enabled: orUnknown(bool()).optional(),
      stages: orUnknown(stageListSchema()).optional(),
      enforcementLevel: orUnknown(enforcementLevelSchema()).optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `has no setting ${issue.keys.map((k) => `"${k}"`).join(", ")}: the settings are enabled, stages and enforcementLevel`
          : "must be an object with enabled, stages and enforcementLevel",
    },
  )
  .strict();

const ARG_SCHEMAS: ArgSchemas = {
  organization: nonEmptyString().regex(/^[^/\s]+$/, { error: "must be an organization name (no '/' or whitespace)" }),
  name: nonEmptyString().regex(/^[A-Za-z0-9_-]+$/, { error: "may contain only letters, digits, '-' and '_'" }),
  url: httpUrl,
  description: z.string({ error: "must be a string" }).refine((s) => s.length <= MAX_DESCRIPTION, {
    error: (issue) => `must be at most ${MAX_DESCRIPTION} characters (got ${(issue.input as string).length})`,
  }),
  category: z.literal("task", { error: 'must be "task"' }),
  hmacKey: z.string({ error: "must be a string" }),
  enabled: bool(),
  global: globalSchema,
  adopt: bool(),
};

/**
 * Validates and normalises `RunTask` arguments: `enabled` true, `category` "task", `global.enabled` false when
 * `global` is set, and the organization from the provider's stack config or environment when not given.
 */
export function checkRunTask(news: Record<string, unknown>, defaultOrganization: string | undefined): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const { taskId: _output, ...args } = news;
  const { values, failures } = validateArgs(args, ARG_SCHEMAS, RUN_TASK);
  const failed = new Set(failures.map((f) => f.property.split(/[.[]/)[0]));
  if (values.organization === undefined && !failed.has("organization")) {
    if (defaultOrganization) values.organization = defaultOrganization;
    else failures.push({ property: "organization", reason: "is required: set it, or stack config runtask:organization, or the environment variable RUNTASK_ORGANIZATION" });
  }
  for (const arg of ["name", "url"]) if (news[arg] === undefined && !failed.has(arg)) failures.push({ property: arg, reason: "is required" });
  if (failures.length > 0) return { inputs: news, failures };

  const inputs: Record<string, unknown> = { ...values, category: values.category ?? "task", enabled: values.enabled ?? true };
  if (inputs.hmacKey === "") delete inputs.hmacKey;
  if (inputs.global !== undefined && !isUnknown(inputs.global)) {
    const g = inputs.global as Record<string, unknown>;
    inputs.global = Object.fromEntries(Object.entries({ ...g, enabled: g.enabled ?? false }).filter(([, v]) => v !== undefined));
  }
  return { inputs, failures: [] };
}
