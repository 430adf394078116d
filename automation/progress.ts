import type { EngineEvent, OpMap, OpType } from "@pulumi/pulumi/automation";

const SYMBOL: Partial<Record<OpType, string>> = {
  create: "+",
  update: "~",
  delete: "-",
  replace: "+-",
  "create-replacement": "++",
  "delete-replaced": "--",
  read: ">",
  refresh: "~",
};

const DONE: Partial<Record<OpType, string>> = {
  same: "unchanged",
  create: "created",
  update: "updated",
  delete: "deleted",
  replace: "replaced",
  "create-replacement": "created replacement",
  "delete-replaced": "deleted replaced",
  read: "read",
  refresh: "refreshed",
};

/** `RunTask` from `pulumi-nodejs:dynamic/runtask:RunTask`. */
function kindOf(type: string): string {
  return type.slice(type.lastIndexOf(":") + 1);
}

function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

const PLANNED: Partial<Record<OpType, string>> = {
  same: "unchanged",
  create: "to create",
  update: "to update",
  delete: "to delete",
  replace: "to replace",
};

/** `3 created, 1 unchanged` from an operation's summary, or `3 to create, 1 unchanged` from a preview's. */
export function describeChanges(changes: OpMap | undefined, kind: "done" | "planned" = "done"): string {
  const words = kind === "planned" ? PLANNED : DONE;
  const parts = Object.entries(changes ?? {})
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([op, n]) => `${n} ${words[op as OpType] ?? DONE[op as OpType] ?? op}`);
  return parts.length > 0 ? parts.join(", ") : "no resources";
}

/**
 * The stack resource and the default providers, which the engine makes for the program's resources: the CLI's own
 * display leaves them out (an explicit provider is one of the program's resources, and is shown).
 */
function notWorthALine(type: string, urn: string): boolean {
  return type === "pulumi:pulumi:Stack" || (type.startsWith("pulumi:providers:") && /^default(_|$)/.test(nameOf(urn)));
}

/**
 * One line of progress for an engine event, or undefined for events not worth a line: resource steps as they
 * start and finish, failures, diagnostics other than debug ones, and the closing summary. The stack resource itself and the default
 * providers are left out, as the CLI leaves them out. Meant for `onEvent` of `provision`, `previewProvisioning`
 * and `destroyProvisioning`.
 */
export function describeEngineEvent(event: EngineEvent): string | undefined {
  if (event.resourcePreEvent) {
    const m = event.resourcePreEvent.metadata;
    if (notWorthALine(m.type, m.urn) || m.op === "same") return undefined;
    return `${SYMBOL[m.op] ?? "*"} ${m.op} ${kindOf(m.type)} ${nameOf(m.urn)}`;
  }
  if (event.resOutputsEvent) {
    const { metadata: m, planning } = event.resOutputsEvent;
    if (notWorthALine(m.type, m.urn) || planning) return undefined;
    const id = m.new?.id ?? m.old?.id;
    return `  ${DONE[m.op] ?? m.op} ${kindOf(m.type)} ${nameOf(m.urn)}${id && m.op !== "delete" ? ` (${id})` : ""}`;
  }
  if (event.resOpFailedEvent) {
    const m = event.resOpFailedEvent.metadata;
    return `! ${m.op} failed: ${kindOf(m.type)} ${nameOf(m.urn)}`;
  }
  if (event.diagnosticEvent) {
    const d = event.diagnosticEvent;
    // Debug diagnostics (the SDK's own, in the program's process), which the CLI shows only when asked (`--debug`):
    // the engine sends them, though the SDK's type of the event does not list the severity.
    if (d.ephemeral || (d.severity as string) === "debug") return undefined;
    const text = d.message.trim();
    if (!text) return undefined;
    const where = d.urn ? `${nameOf(d.urn)}: ` : "";
    return d.severity === "info" || d.severity === "info#err" ? `  ${where}${text}` : `${d.severity}: ${where}${text}`;
  }
  if (event.summaryEvent) {
    const s = event.summaryEvent;
    return `done in ${Math.round(s.durationSeconds)}s: ${describeChanges(s.resourceChanges)}`;
  }
  return undefined;
}
