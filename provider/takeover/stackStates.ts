import { runTaskTable } from "../runTask/fields";
import { snapshotAutoConfigTable } from "../snapshotAutoConfig/fields";
import type { FieldTable } from "../table/field";
import { workspaceRunTaskTable } from "../workspaceRunTask/fields";

/**
 * A create the engine began and never recorded (`pending_operations` of type `creating` in the state): the CLI was
 * stopped while the service carried it out, and the service may hold the object. The engine keeps it in the state
 * until a refresh clears it (a successful `up` keeps it too), and the next create of the resource is refused
 * "already exists" by its own object.
 */
export interface PendingCreate {
  urn: string;
  type: string;
  /** What the create was sent: the object's identity (its `name`, `organization`, ...) among it. */
  inputs: Record<string, unknown>;
}

interface ExportedState {
  resources?: { urn: string; type: string; outputs?: Record<string, unknown> }[];
  pending_operations?: { type?: string; resource?: { urn?: string; type?: string; inputs?: Record<string, unknown> } }[];
}

/** Every pending create of an exported state (`pulumi stack export`'s `deployment`), of any resource. */
export function pendingCreates(deployment: unknown): PendingCreate[] {
  const operations = (deployment as ExportedState | undefined)?.pending_operations ?? [];
  return operations.flatMap(({ type, resource }) =>
    type === "creating" && typeof resource?.urn === "string" ? [{ urn: resource.urn, type: resource.type ?? "", inputs: resource.inputs ?? {} }] : [],
  );
}

/**
 * The pending creates whose resource the state does not record. `pulumi refresh --clear-pending-creates` drops every
 * pending create of the stack, whatever `--target` names: only where this is empty does it forget no object.
 */
export function unrecordedPendingCreates(deployment: unknown): PendingCreate[] {
  const recorded = new Set(((deployment as ExportedState | undefined)?.resources ?? []).map((r) => r.urn));
  return pendingCreates(deployment).filter((p) => !recorded.has(p.urn));
}

/**
 * What names an object at the service (the fields its table marks `identity`), by resource type, on both routes
 * (dynamic and provider plugins): the resources whose pending creates the provider can take over
 * (provider/takeover/pendingCreates.ts).
 */
const IDENTITIES: Record<string, readonly string[]> = Object.fromEntries(
  (
    [
      ["snapshot", snapshotAutoConfigTable],
      ["runtask", runTaskTable],
      ["runtask", workspaceRunTaskTable],
    ] as const
  ).flatMap(([pkg, table]) => {
    const identity = Object.entries(table.fields as FieldTable)
      .filter(([, field]) => field.identity)
      .map(([key]) => key);
    return [
      [`pulumi-nodejs:dynamic/${pkg}:${table.resource}`, identity],
      [`${pkg}:index:${table.resource}`, identity],
    ];
  }),
);

/** Whether the create is of one of the package's resources, whose object the provider can take over. */
export function adoptable(create: PendingCreate): boolean {
  return create.type in IDENTITIES;
}

/**
 * The resource of an exported state (another stack's) that holds the object of `create`'s identity, if any: the
 * same kind, and the same value of each field of the identity that both give.
 */
export function holderOf(create: PendingCreate, deployment: unknown): string | undefined {
  const keys = IDENTITIES[create.type] ?? [];
  const kind = create.type.slice(create.type.lastIndexOf(":"));
  const resources = (deployment as ExportedState | undefined)?.resources ?? [];
  return resources.find(
    (r) =>
      r.type in IDENTITIES &&
      r.type.endsWith(kind) &&
      keys.every((k) => create.inputs[k] === undefined || r.outputs?.[k] === undefined || create.inputs[k] === r.outputs[k]),
  )?.urn;
}
