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
  /** The `deleteBeforeReplace` option, where the program sets it. */
  deleteBeforeReplace?: boolean;
  /** The `replaceOnChanges` option: property paths whose change replaces the resource. */
  replaceOnChanges?: string[];
  /** The `aliases` option: the names (same type and parent) or URNs the resource had before. */
  aliases?: { name?: string; urn?: string }[];
  /** For each input, the URNs of the resources its value comes from (an id, an output). */
  propertyDependencies?: Record<string, string[]>;
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

/** A resource replaced in this command: the id its dependents were given, and its new one (unknown in a preview). */
export interface Replaced {
  oldId: string;
  newId: string;
}

/**
 * The program got the ids of resources in the state when it ran; where one of them is replaced in this command, an
 * input that took its value from it gets the new id, as the engine resolves outputs as they are made (unknown in
 * a preview, until the replacement is created).
 */
export function withReplacedIds(inputs: Record<string, unknown>, reg: Registration, replaced: Map<string, Replaced>): Record<string, unknown> {
  const out = { ...inputs };
  for (const [key, urns] of Object.entries(reg.propertyDependencies ?? {})) {
    for (const urn of urns) {
      const r = replaced.get(urn);
      if (r && out[key] === r.oldId) out[key] = r.newId;
    }
  }
  return out;
}
