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
  resources?: { urn: string }[];
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
