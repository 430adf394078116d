import type { CheckFailure } from "../common/inputError";
import { isUnknown } from "../common/unknown";
import type { Rule } from "./check";
import type { FieldTable } from "./field";

/**
 * The rule of parameter groups: the argument `selector` picks a group; arguments of other groups are refused,
 * and the group's required arguments must be there. Skipped while the selector is unknown (preview).
 */
export function groupRule(fields: FieldTable, selector: string, noun: string): Rule {
  return ({ news, values }) => {
    const selected = values[selector];
    if (typeof selected !== "string" || isUnknown(selected)) return [];
    const failures: CheckFailure[] = [];
    for (const [arg, field] of Object.entries(fields)) {
      if (field.group !== undefined && field.group !== selected && news[arg] !== undefined) {
        failures.push({ property: arg, reason: `belongs to ${noun} "${field.group}" and cannot be set when ${selector} is "${selected}"` });
      }
    }
    for (const [arg, field] of Object.entries(fields)) {
      if (field.group === selected && field.required && news[arg] === undefined) {
        failures.push({ property: arg, reason: `is required when ${selector} is "${selected}"` });
      }
    }
    return failures;
  };
}
