type Props = Record<string, unknown>;

/**
 * A resource's `ignoreChanges`, as the engine sends them in Diff and Update. The engine has already put the old
 * inputs at those paths of the new inputs (pkg/resource/deploy/step_generator.go, processIgnoreChanges); the
 * provider compares the news with the old *outputs*, so a value changed outside the program, which a refresh
 * recorded there, would still differ, and an update would put the program's old value back: the very change the
 * user asked to ignore. Here the news take the state's value (what the service holds) at each ignored path, so
 * that neither the diff nor the update touches it.
 */
export function withIgnoredFromState(news: Props, olds: Props, paths: readonly string[]): Props {
  if (paths.length === 0) return news;
  const out = structuredClone(news);
  for (const path of paths) {
    const keys = parsePath(path);
    if (keys) resetAt(out, olds, keys);
  }
  return out;
}

/** `a.b[0]["c.d"]` as keys; undefined for a path this does not take (wildcards). */
export function parsePath(path: string): (string | number)[] | undefined {
  const keys: (string | number)[] = [];
  const part = /(?:^|\.)([^.[\]"]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/y;
  for (part.lastIndex = 0; part.lastIndex < path.length;) {
    const m = part.exec(path);
    if (!m) return undefined;
    keys.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(`"${m[3]}"`)));
  }
  return keys.length > 0 && !keys.includes("*") ? keys : undefined;
}

/** Sets `target` at `keys` to `source`'s value there, or removes it where `source` has none. */
function resetAt(target: unknown, source: unknown, keys: (string | number)[]): void {
  const [key, ...rest] = keys;
  if (target === null || typeof target !== "object") return;
  const t = target as Record<string | number, unknown>;
  const from = source !== null && typeof source === "object" ? (source as Record<string | number, unknown>)[key] : undefined;
  if (rest.length > 0) return resetAt(t[key], from, rest);
  if (from === undefined) delete t[key];
  else t[key] = structuredClone(from);
}
