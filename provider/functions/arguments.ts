import { SnapshotRunTaskError } from "../common/errors";
import { validateArgs } from "../common/validate";
import type { FieldTable } from "../table/field";
import { argSchemas } from "../table/schemas";

/**
 * A function's arguments, checked by its table as a resource's arguments are, before any request: a failure names
 * the argument and what is wrong with the value given (a workspace's name where its id belongs, say).
 */
export function requireValidArguments(fn: string, fields: FieldTable, args: object): void {
  const given: Record<string, unknown> = Object.fromEntries(Object.entries(args));
  const { failures } = validateArgs(given, argSchemas(fields), fn);
  for (const [arg, field] of Object.entries(fields)) {
    if (field.required && given[arg] === undefined) failures.push({ property: arg, reason: "is required" });
  }
  if (failures.length > 0) throw new SnapshotRunTaskError("invalid", `${fn}: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`);
}
