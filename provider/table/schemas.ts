import * as z from "zod";
import { bool, oneOf, orUnknown, wholeNumber, type ArgSchemas } from "../common/validate";
import type { Field, FieldTable, ValueType } from "./field";
import { argumentNames } from "./derived";

const built = new WeakMap<FieldTable, ArgSchemas>();

/**
 * The validation schema of each argument of a table: the field's own, or one derived from its value type. Built
 * once per table (building zod schemas costs far more than running them).
 */
export function argSchemas(fields: FieldTable): ArgSchemas {
  let schemas = built.get(fields);
  if (!schemas) built.set(fields, (schemas = Object.fromEntries(argumentNames(fields).map((arg) => [arg, schemaOf(fields[arg])]))));
  return schemas;
}

function schemaOf(field: Field): z.ZodType {
  // Tables hold zod schemas, typed by shape only (see ArgSchema).
  return (field.schema as z.ZodType | undefined) ?? schemaOfType(field.input ?? field.value);
}

function schemaOfType(type: ValueType): z.ZodType {
  switch (type.type) {
    case "string":
      return type.enum ? oneOf(type.enum as [string, ...string[]]) : z.string({ error: "must be a string" });
    case "integer":
      return wholeNumber(0);
    case "boolean":
      return bool();
    case "array":
      return z.array(schemaOfType(type.items), { error: "must be a list" });
    case "object":
      return z.object(Object.fromEntries(argumentNames(type.fields).map((k) => [k, orUnknown(schemaOf(type.fields[k])).optional()]))).strict();
    case "oneOf":
      return z.union(type.of.map(schemaOfType) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  }
}
