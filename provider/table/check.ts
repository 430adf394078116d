import type { CheckFailure } from "../common/inputError";
import { isUnknown } from "../common/unknown";
import { validateArgs } from "../common/validate";
import type { ContextKey, FieldTable, Json, ResourceTable } from "./field";
import { argSchemas } from "./schemas";

type Props = Record<string, unknown>;

/** What a check knows besides the arguments. */
export type CheckContext = Partial<Record<ContextKey, string>>;

/** What a rule sees: the arguments as given, their validated values, and the state's inputs (empty on create). */
export interface RuleInput {
  news: Props;
  values: Props;
  olds: Props;
}

/** A check that spans several arguments (a storage type's required fields, KMS against SSE). */
export type Rule = (input: RuleInput) => CheckFailure[];

export interface CheckResult {
  inputs: Props;
  failures: CheckFailure[];
  /** What the user should hear although the check passed: a deprecated argument given. Absent when nothing. */
  warnings?: string[];
}

/**
 * Validates and normalises a resource's arguments from its table: each argument by its own schema (so that a
 * failure names exactly the argument), outputs dropped, required arguments and context defaults, then the
 * resource's rules, then defaults filled and deprecated aliases mapped (each given one warned of). Unknown values
 * (preview) pass untouched and skip what depends on them. On failure the inputs are returned as given.
 */
export function checkByTable(table: ResourceTable, news: Props, olds: Props, context: CheckContext, rules: readonly Rule[] = []): CheckResult {
  const { fields } = table;
  const args = Object.fromEntries(Object.entries(news).filter(([k]) => !fields[k]?.output));
  const { values, failures } = validateArgs(args, argSchemas(fields), table.resource);
  const failed = new Set(failures.map((f) => f.property.split(/[.[]/)[0]));
  for (const [arg, field] of Object.entries(fields)) {
    if (field.output || news[arg] !== undefined || failed.has(arg)) continue;
    const fromContext = field.default && "from" in field.default ? contextDefault(field.default.from, olds[arg], context) : undefined;
    if (fromContext !== undefined) values[arg] = fromContext;
    else if (field.required && !field.group) {
      const missing = field.default && "from" in field.default ? field.default.missing : undefined;
      failures.push({ property: arg, reason: missing ?? "is required" });
    }
  }
  for (const rule of rules) failures.push(...rule({ news, values, olds }));
  if (failures.length > 0) return { inputs: news, failures };
  const inputs = withDefaults(fields, mapAliases(fields, values));
  const warnings = Object.entries(fields)
    .filter(([arg, field]) => field.alias && news[arg] !== undefined)
    .map(([arg, field]) => `\`${arg}\` is deprecated; use \`${field.alias!.of}\` instead`);
  return warnings.length > 0 ? { inputs, failures: [], warnings } : { inputs, failures: [] };
}

/**
 * A default from the call's context. A name defaults to the resource's name on create; an existing resource keeps
 * the name it has when the program gives none, as Pulumi's providers keep an autoname (an object imported under
 * another name than its resource's is not replaced by the first `up`).
 */
function contextDefault(from: ContextKey, old: unknown, context: CheckContext): string | undefined {
  if (from === "resourceName" && typeof old === "string" && old !== "" && !isUnknown(old)) return old;
  return context[from];
}

function copyOf(value: Json): Json {
  if (Array.isArray(value)) return value.map(copyOf);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyOf(v)]));
  return value;
}

/** Deprecated aliases give their target its value when the target is not set. */
function mapAliases(fields: FieldTable, values: Props): Props {
  const out = { ...values };
  for (const [arg, field] of Object.entries(fields)) {
    if (field.alias && out[arg] !== undefined && out[field.alias.of] === undefined) {
      out[field.alias.of] = isUnknown(out[arg]) ? out[arg] : field.alias.as(out[arg]);
    }
  }
  return out;
}

/**
 * Static defaults for absent arguments, inside present (and known) objects too. Used by check, and for old
 * states written before a default existed.
 */
export function withDefaults(fields: FieldTable, values: Props): Props {
  const out = { ...values };
  for (const [arg, field] of Object.entries(fields)) {
    if (field.output) continue;
    // A copy: a default list must not be shared by every state it fills.
    if (out[arg] === undefined && field.default && "value" in field.default) out[arg] = copyOf(field.default.value);
    const type = field.value;
    const nested = out[arg];
    if (type.type === "object" && nested !== null && typeof nested === "object" && !Array.isArray(nested)) {
      out[arg] = withDefaults(type.fields, nested as Props);
    }
  }
  return out;
}
