import { containsUnknown } from "./unknown";

/** Deep equality of plain JSON values; key order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * The arguments whose value differs between the old state and the new (checked) inputs. An unknown new value
 * counts as a change: during preview the engine must show an update (or replace) rather than nothing.
 */
export function changedArgs(olds: Record<string, unknown>, news: Record<string, unknown>, ignore: ReadonlySet<string>): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  const changed: string[] = [];
  for (const key of keys) {
    if (ignore.has(key) || key === "__provider") continue;
    if (containsUnknown(news[key]) || !jsonEqual(olds[key], news[key])) changed.push(key);
  }
  return changed.sort();
}

export interface DiffOutcome {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** Turns changed arguments into the engine's answer: any change is a change, some of them force replacement. */
export function diffOutcome(changed: string[], replaceOn: ReadonlySet<string>): DiffOutcome {
  return { changes: changed.length > 0, replaces: changed.filter((k) => replaceOn.has(k)), deleteBeforeReplace: false };
}
