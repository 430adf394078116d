type Props = Record<string, unknown>;

/**
 * The engine's `processIgnoreChanges` (pulumi/pulumi `pkg/resource/deploy/step_generator.go`): for each path of a
 * resource's `ignoreChanges`, the new inputs take the old inputs' value there, or lose it where the old inputs have
 * none (`PropertyPath.Reset`). Without old inputs (a create) the news stay as they are. The driver's own reading of
 * the engine, written apart from the provider's so that a misreading in one shows against the other.
 */
export function ignoringChanges(news: Props, oldInputs: Props | undefined, paths: string[] | undefined): Props {
  if (!oldInputs || !paths?.length) return news;
  const out = structuredClone(news);
  for (const path of paths) {
    const keys = propertyPath(path);
    if (keys) reset(out, oldInputs, keys);
  }
  return out;
}

/** `a.b`, `a[0]`, `a["b.c"]` as keys (the forms of `resource.ParsePropertyPath` this driver needs). */
function propertyPath(path: string): (string | number)[] | undefined {
  const keys: (string | number)[] = [];
  const re = /\["([^"]*)"\]|\[(\d+)\]|\.?([^.[\]]+)/g;
  let at = 0;
  for (let m = re.exec(path); m && m.index === at; m = re.exec(path)) {
    keys.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]));
    at = re.lastIndex;
  }
  return at === path.length && keys.length > 0 ? keys : undefined;
}

function reset(into: unknown, from: unknown, keys: (string | number)[]): void {
  if (into === null || typeof into !== "object") return;
  const [key, ...rest] = keys;
  const target = into as Record<string | number, unknown>;
  const source = from !== null && typeof from === "object" ? (from as Record<string | number, unknown>)[key] : undefined;
  if (rest.length > 0) return reset(target[key], source, rest);
  if (source === undefined) delete target[key];
  else target[key] = structuredClone(source);
}
