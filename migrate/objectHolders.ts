import type { FieldTable } from "../provider/table/field";
import type { PlannedResource } from "./plan";
import type { StateResource } from "./pulumiCli";
import type { Refusal } from "./refusal";
import { RESOURCE_TYPES } from "./serviceReads";

/** A stack of the backend and its state, as `pulumi stack export` gives it (`deployment`). */
export interface StackState {
  /** The stack's fully qualified name (`organization/project/stack`). */
  stack: string;
  deployment: unknown;
}

interface Deployment {
  resources?: StateResource[];
  pending_operations?: { type?: string; resource?: { urn?: string; type?: string; inputs?: Record<string, unknown> } }[];
}

/** The object a stack's resource of this package (dynamic or plugin) holds, as the plan names objects (`task:task-...`). */
export function objectOf(r: { type: string; id?: string }): string | undefined {
  const id = r.id ?? "";
  if (/[:/]WorkspaceRunTask$/.test(r.type)) return `wstask:${id.split("/").pop()}`;
  if (/[:/]RunTask$/.test(r.type)) return `task:${id}`;
  if (/[:/]SnapshotAutoConfig$/.test(r.type)) return `config:${id}`;
  return undefined;
}

/** The fields that name a resource's object at its service (its table's `identity`): a task's organization and name. */
function identityOf(resource: PlannedResource): Record<string, unknown> {
  const fields: FieldTable = RESOURCE_TYPES[resource.mapped.pulumiType].table.fields;
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, field]) => field.identity)
      .map(([key]) => [key, resource.mapped.inputs[key]]),
  );
}

/**
 * Refusals for the objects of the plan that another stack of the backend manages: one whose resource records it (by
 * its id, on either route, dynamic or plugins), or one that stack is creating (a pending create of the same kind and
 * identity, which its next `up` takes over). Two stacks would then manage one object, each undoing the other's
 * changes, and the first `destroy` deleting it under the other.
 */
export function heldByOtherStacks(plan: readonly PlannedResource[], states: readonly StackState[]): Refusal[] {
  const refusals: Refusal[] = [];
  for (const { stack, deployment } of states) {
    const { resources = [], pending_operations: pending = [] } = (deployment ?? {}) as Deployment;
    const held = new Map(resources.flatMap((r) => (r.type.startsWith("pulumi:") ? [] : [[objectOf(r), r.urn] as const])));
    for (const p of plan) {
      const urn = held.get(p.mapped.object);
      if (urn) {
        refusals.push({
          address: p.address,
          problem: `stack ${stack} of the backend holds its object already (${urn})`,
          fix: `leave it out of this migration (Terraform keeps it), or take it out of stack ${stack} first (\`pulumi state delete --force --stack ${stack} '${urn}'\`, which leaves the object at the service): one stack manages an object`,
        });
        continue;
      }
      const kind = p.mapped.pulumiType.slice(p.mapped.pulumiType.lastIndexOf(":"));
      const identity = Object.entries(identityOf(p));
      const creating = pending.find(
        ({ type, resource }) =>
          type === "creating" &&
          objectOf({ type: resource?.type ?? "" }) !== undefined &&
          (resource?.type ?? "").endsWith(kind) &&
          identity.every(([key, value]) => value === undefined || resource?.inputs?.[key] === value),
      );
      if (creating) {
        refusals.push({
          address: p.address,
          problem: `stack ${stack} of the backend is creating an object of its identity (a pending create of ${creating.resource?.urn}), which its next \`pulumi up\` takes over`,
          fix: `settle that stack first (\`pulumi refresh --clear-pending-creates --stack ${stack}\` where it is not to have the object; an up that takes the object over makes it that stack's), then run again`,
        });
      }
    }
  }
  return refusals;
}
