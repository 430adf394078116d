import { holderIn } from "../provider/takeover/stackStates";
import type { PlannedResource } from "./plan";
import type { Refusal } from "./refusal";

/** A stack of the backend and its state, as `pulumi stack export` gives it (`deployment`). */
export interface StackState {
  /** The stack's fully qualified name (`organization/project/stack`). */
  stack: string;
  deployment: unknown;
}

/** A planned resource as the states know objects: its type, its service id, its identity's fields. */
export function stateObjectOf(p: PlannedResource): { type: string; id: string; inputs: Record<string, unknown> } {
  return { type: p.mapped.pulumiType, id: p.mapped.object.slice(p.mapped.object.indexOf(":") + 1), inputs: p.mapped.inputs };
}

/**
 * Refusals for the objects of the plan that another stack of the backend manages (provider/takeover/stackStates.ts,
 * `holderIn`): one whose resource records it (by its id, on either route, dynamic or plugins), or one that stack is
 * creating (a pending create of the same kind and identity, which its next `up` takes over). Two stacks would then
 * manage one object, each undoing the other's changes, and the first `destroy` deleting it under the other.
 */
export function heldByOtherStacks(plan: readonly PlannedResource[], states: readonly StackState[]): Refusal[] {
  const refusals: Refusal[] = [];
  for (const { stack, deployment } of states) {
    for (const p of plan) {
      const holder = holderIn(deployment, stateObjectOf(p));
      if (holder?.how === "recorded") {
        refusals.push({
          address: p.address,
          problem: `stack ${stack} of the backend holds its object already (${holder.urn})`,
          fix: `leave it out of this migration (Terraform keeps it), or take it out of stack ${stack} first (\`pulumi state delete --force --stack ${stack} '${holder.urn}'\`, which leaves the object at the service): one stack manages an object`,
        });
      } else if (holder?.how === "creating") {
        refusals.push({
          address: p.address,
          problem: `stack ${stack} of the backend is creating an object of its identity (a pending create of ${holder.urn}), which its next \`pulumi up\` takes over`,
          fix: `settle that stack first (\`pulumi refresh --clear-pending-creates --stack ${stack}\` where it is not to have the object; an up that takes the object over makes it that stack's), then run again`,
        });
      }
    }
  }
  return refusals;
}
