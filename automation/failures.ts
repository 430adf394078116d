import type { EngineEvent, OpType } from "@pulumi/pulumi/automation";

/** One resource the engine could not bring to its goal, and why. */
export interface ResourceFailure {
  /** The resource's name, e.g. `scanner` or `scanner-on-ws-prod`. */
  name: string;
  /** `RunTask`, `WorkspaceRunTask`, `SnapshotAutoConfig`. */
  kind: string;
  urn: string;
  /** The step that failed: `create`, `update`, `delete`, `replace`, ... */
  op?: OpType;
  /** The provider's message(s), as the engine reported them. */
  message: string;
}

const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
const kindOfUrn = (urn: string) => {
  const type = urn.split("::")[2] ?? "";
  return type.slice(type.lastIndexOf(":") + 1);
};
const STACK_TYPE = "pulumi:pulumi:Stack";
// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/** The engine's text without its colour codes, its `error: ` prefix and surrounding blank space. */
function cleanMessage(text: string): string {
  return text
    .replace(ANSI_COLOUR, "")
    .trim()
    .replace(/^error:\s*/, "");
}

/**
 * An error the engine reports on a resource's step that is the backend's, not the provider's: the state could not
 * be written before or after the step (`failed to serialize snapshot: failed to encrypt: incorrect passphrase`).
 */
const STATE_NOT_WRITTEN = /^(pre|post)-step event returned an error: /;

/**
 * Gathers, from the engine events of one run, the resources that failed with their error diagnostics, and the
 * errors that name no resource (a program that threw, an update that could not start) or are not the resource's
 * own (the state could not be written).
 */
export class FailureCollector {
  private readonly byUrn = new Map<string, { op?: OpType; messages: string[] }>();
  private readonly general: string[] = [];
  /** Resources whose step failed for the backend, not the provider: not failures of theirs. */
  private readonly notTheirs = new Set<string>();

  readonly onEvent = (event: EngineEvent): void => {
    if (event.resOpFailedEvent) {
      const m = event.resOpFailedEvent.metadata;
      if (m.type === STACK_TYPE) return;
      this.entry(m.urn).op = m.op;
    } else if (event.diagnosticEvent?.severity === "error") {
      const d = event.diagnosticEvent;
      const message = cleanMessage(d.message);
      if (!message) return;
      if (d.urn && STATE_NOT_WRITTEN.test(message)) {
        this.notTheirs.add(d.urn);
        if (!this.general.includes(message)) this.general.push(message);
      } else if (d.urn && !d.urn.split("::")[2]?.startsWith(STACK_TYPE)) {
        const entry = this.entry(d.urn);
        if (!entry.messages.includes(message)) entry.messages.push(message);
      } else if (!this.general.includes(message)) this.general.push(message);
    }
  };

  private entry(urn: string) {
    let entry = this.byUrn.get(urn);
    if (!entry) this.byUrn.set(urn, (entry = { messages: [] }));
    return entry;
  }

  /** The resources that failed, in the order the engine reported them. */
  failures(): ResourceFailure[] {
    return [...this.byUrn]
      .filter(([urn, { messages }]) => messages.length > 0 || !this.notTheirs.has(urn))
      .map(([urn, { op, messages }]) => ({
        name: nameOf(urn),
        kind: kindOfUrn(urn),
        urn,
        ...(op ? { op } : {}),
        message: messages.join("; ") || "failed (no message from the provider)",
      }));
  }

  /** Error diagnostics that name no resource. */
  generalErrors(): string[] {
    return [...this.general];
  }
}
