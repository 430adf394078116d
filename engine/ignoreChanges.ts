import { parsePropertyPath, type Element } from "./propertyPath";

type Props = Record<string, unknown>;

/**
 * The engine's `processIgnoreChanges` (pulumi/pulumi `pkg/resource/deploy/step_generator.go`): for each path of a
 * resource's `ignoreChanges`, `PropertyPath.Reset` (`sdk/go/common/resource/properties_path.go`) gives the new
 * inputs the old inputs' value there, or removes it where the old inputs have none; `*` (`a.*`, `a[*]`, `a["*"]`)
 * stands for every key or element. A path it cannot parse is skipped; one that runs into a missing element stops
 * there. Without old inputs (a create) the news stay as they are. The driver's own reading of the engine, written
 * apart from the provider's so that a misreading in one shows against the other.
 */
export function ignoringChanges(news: Props, oldInputs: Props | undefined, paths: string[] | undefined): Props {
  if (!oldInputs || !paths?.length) return news;
  const out = structuredClone(news);
  for (const path of paths) {
    const elements = parsePropertyPath(path);
    if (elements) reset(elements, oldInputs, out);
  }
  return out;
}

const isObject = (v: unknown): v is Props => v !== null && typeof v === "object" && !Array.isArray(v);

/** `PropertyPath.reset`, on plain values (secrets are stripped before the driver calls this). */
function reset(path: Element[], old: unknown, next: unknown): boolean {
  if (path.length === 0) return false;
  const [key, ...rest] = path;
  if (typeof key === "number") {
    if (key < 0) return false;
    if (rest.length === 0) {
      if (!Array.isArray(old) && !Array.isArray(next)) return true;
      if (!Array.isArray(old) || !Array.isArray(next)) return false;
      if (key >= old.length && key >= next.length) return true;
      if (key >= old.length || key >= next.length) return false;
      next[key] = structuredClone(old[key]);
      return true;
    }
    if (!Array.isArray(old) || !Array.isArray(next)) return !Array.isArray(old) && !Array.isArray(next);
    if (key >= old.length || key >= next.length) return false;
    return reset(rest, old[key], next[key]);
  }
  if (key === "*") {
    if (rest.length === 0) {
      if (isObject(next)) {
        if (isObject(old)) {
          for (const k of Object.keys(old)) next[k] = structuredClone(old[k]);
          for (const k of Object.keys(next)) if (!(k in old)) delete next[k];
        }
        return true;
      }
      if (Array.isArray(next)) {
        if (Array.isArray(old)) {
          for (let i = 0; i < old.length && i < next.length; i++) next[i] = structuredClone(old[i]);
          if (old.length !== next.length) return false;
        }
        return true;
      }
      return false;
    }
    if (isObject(old) && isObject(next)) {
      for (const k of Object.keys(old)) {
        if (!(k in next)) return false;
        if (!reset(rest, old[k], next[k])) return false;
      }
      return true;
    }
    if (Array.isArray(old) && Array.isArray(next)) {
      for (let i = 0; i < old.length && i < next.length; i++) if (!reset(rest, old[i], next[i])) return false;
      return old.length === next.length;
    }
    return false;
  }
  if (rest.length === 0) {
    if (isObject(old) && key in old) {
      if (!isObject(next)) return false;
      next[key] = structuredClone(old[key]);
    } else if (isObject(next)) delete next[key];
    return true;
  }
  if (!isObject(old) || !isObject(next)) return !isObject(old) && !isObject(next);
  const [hasOld, hasNew] = [key in old, key in next];
  if (hasOld && !hasNew) return false;
  if (!hasOld && !hasNew) return true;
  return reset(rest, old[key], next[key]);
}
