import type { StackState } from "./state";

/** What the program registered for one resource, as captured under mocks (see project/template/capture.js). */
export interface Registration {
  type: string;
  name: string;
  /** As the program's SDK computed it from the project, the stack, the type and the name. */
  urn: string;
  inputs: Record<string, unknown>;
  additionalSecretOutputs: string[];
  /** URNs of the resources it depends on. */
  dependencies: string[];
  /** `retainOnDelete: true`: deleting it removes it from the stack and leaves the object in place. */
  retainOnDelete?: boolean;
  /** The `ignoreChanges` option: property paths whose changes are not to be made. */
  ignoreChanges?: string[];
  /** The `customTimeouts` option, as registered (Go duration strings). */
  customTimeouts?: { create?: string; update?: string; delete?: string };
}

/** The value the engine sends for what is not known yet (during a preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * `@id:<name>` placeholders (the ids the program got for resources not in the state) become the id in state,
 * or unknown when the resource is not (yet) there or is `pending` (about to be replaced).
 */
export function resolveIds<T>(value: T, state: StackState, pending: Set<string>): T;
export function resolveIds(value: unknown, state: StackState, pending: Set<string>): unknown {
  if (typeof value === "string" && value.startsWith("@id:")) {
    const name = value.slice(4);
    const r = state.get(name);
    return r && !pending.has(name) ? r.id : UNKNOWN;
  }
  if (Array.isArray(value)) return value.map((v) => resolveIds(v, state, pending));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveIds(v, state, pending)]));
  return value;
}
