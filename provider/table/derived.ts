import type { FieldTable, OnChange } from "./field";

/** Names of the arguments (every field but the outputs the service sets), in table order. */
export function argumentNames(fields: FieldTable): string[] {
  return Object.keys(fields).filter((k) => !fields[k].output);
}

/** Every key the resource reports: arguments and outputs. */
export function outputKeys(fields: FieldTable): string[] {
  return Object.keys(fields);
}

/** Arguments kept secret in state and outputs. */
export function secretArgs(fields: FieldTable): string[] {
  return Object.keys(fields).filter((k) => fields[k].secret);
}

/** Arguments whose change has the given effect. */
export function argsWhoseChange(fields: FieldTable, effect: OnChange): string[] {
  return argumentNames(fields).filter((k) => fields[k].onChange === effect);
}

/** Arguments that together name the object on the service. */
export function identityArgs(fields: FieldTable): string[] {
  return argumentNames(fields).filter((k) => fields[k].identity);
}

/** The argument that defaults to the Pulumi resource's name (the object's name on the service), if any. */
export function argNamedByResource(fields: FieldTable): string | undefined {
  return argumentNames(fields).find((k) => {
    const d = fields[k].default;
    return d !== undefined && "from" in d && d.from === "resourceName";
  });
}

/** Keys the diff does not compare: outputs, arguments that change nothing, and deprecated aliases. */
export function keysOutsideDiff(fields: FieldTable): Set<string> {
  return new Set(Object.keys(fields).filter((k) => fields[k].output || fields[k].onChange === "none" || fields[k].alias));
}

/** Arguments of a parameter group (a storage type). */
export function groupMembers(fields: FieldTable, group: string): string[] {
  return Object.keys(fields).filter((k) => fields[k].group === group);
}
