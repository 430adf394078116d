type Props = Record<string, unknown>;
type Key = string | number;

/**
 * A resource's `ignoreChanges`, as the engine sends them in Diff and Update. The engine has already put the old
 * inputs at those paths of the new inputs (pkg/resource/deploy/step_generator.go, processIgnoreChanges); the
 * provider compares the news with the old *outputs*, so a value changed outside the program, which a refresh
 * recorded there, would still differ, and an update would put the program's old value back: the very change the
 * user asked to ignore. Here the news take the state's value (what the service holds) at each ignored path, so
 * that neither the diff nor the update touches it. Every path form the engine accepts is honoured alike: `a.b`,
 * `a["b"]`, `a[0]`, and the wildcards `a.*`, `a[*]`, `a["*"]`, which stand for every key or index present.
 */
export function withIgnoredFromState(news: Props, olds: Props, paths: readonly string[]): Props {
  if (paths.length === 0) return news;
  const out = structuredClone(news);
  for (const path of paths) {
    const keys = parsePath(path);
    if (keys) for (const concrete of expand(keys, olds, out)) resetAt(out, olds, concrete);
  }
  return out;
}

/** A property path as keys, `*` for a wildcard; undefined for what the engine's parser refuses too. */
export function parsePath(path: string): Key[] | undefined {
  if (path.startsWith(".")) return undefined;
  const keys: Key[] = [];
  const part = /(?:^|\.)([^.[\]]+)|\[(\d+|\*)\]|\["((?:[^"\\]|\\")*)"\]/y;
  for (part.lastIndex = 0; part.lastIndex < path.length;) {
    const m = part.exec(path);
    if (!m) return undefined;
    if (m[1] !== undefined) keys.push(m[1]);
    else if (m[2] !== undefined) keys.push(m[2] === "*" ? "*" : Number(m[2]));
    else keys.push(m[3].replace(/\\"/g, '"'));
  }
  return keys.length > 0 ? keys : undefined;
}

/** The concrete paths a path with wildcards stands for: each `*` becomes every key (or index) found there. */
function expand(keys: Key[], old: unknown, next: unknown): Key[][] {
  const at = keys.indexOf("*");
  if (at < 0) return [keys];
  const prefix = keys.slice(0, at);
  const [o, n] = [valueAt(old, prefix), valueAt(next, prefix)];
  let members: Key[] = [];
  if (Array.isArray(o) && Array.isArray(n)) members = [...Array(Math.min(o.length, n.length)).keys()];
  else if (isObject(o) && isObject(n)) members = [...new Set([...Object.keys(o), ...Object.keys(n)])];
  return members.flatMap((member) => expand([...prefix, member, ...keys.slice(at + 1)], old, next));
}

function valueAt(value: unknown, keys: Key[]): unknown {
  return keys.reduce<unknown>((v, k) => (isObject(v) || Array.isArray(v) ? (v as Record<Key, unknown>)[k] : undefined), value);
}

function isObject(v: unknown): v is Props {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Sets `target` at `keys` to `source`'s value there, or removes it where `source` has none. Nothing is created
 * on the way: where the news have no value under the path, there is nothing to keep.
 */
function resetAt(target: unknown, source: unknown, keys: Key[]): void {
  const [key, ...rest] = keys;
  if (!isObject(target) && !Array.isArray(target)) return;
  const t = target as Record<Key, unknown>;
  const from = isObject(source) || Array.isArray(source) ? (source as Record<Key, unknown>)[key] : undefined;
  if (rest.length > 0) return resetAt(t[key], from, rest);
  if (Array.isArray(target)) {
    if (typeof key === "number" && key < target.length && from !== undefined) t[key] = structuredClone(from);
  } else if (from === undefined) delete t[key];
  else t[key] = structuredClone(from);
}
