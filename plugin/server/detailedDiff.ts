import type { DiffDetail } from "../../provider/table/diff";

type Props = Record<string, unknown>;

/** The names of `pulumirpc.PropertyDiff.Kind`. */
export type DiffKind = "ADD" | "ADD_REPLACE" | "DELETE" | "DELETE_REPLACE" | "UPDATE" | "UPDATE_REPLACE";

/**
 * What each changed argument does, as the engine's detailed diff wants it: added, removed or updated, and whether
 * it replaces the resource. Keyed by the argument (the engine shows it against the inputs).
 */
export function detailedDiff(detail: DiffDetail, olds: Props, news: Props): Map<string, DiffKind> {
  const replaces = new Set(detail.replaces);
  const out = new Map<string, DiffKind>();
  for (const key of detail.changed) {
    const kind = olds[key] === undefined ? "ADD" : news[key] === undefined ? "DELETE" : "UPDATE";
    out.set(key, replaces.has(key) ? `${kind}_REPLACE` : kind);
  }
  return out;
}
