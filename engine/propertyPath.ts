/**
 * Property paths as the engine reads them (pulumi/pulumi `sdk/go/common/resource/properties_path.go`), for the
 * resource options that name properties: `ignoreChanges`, `replaceOnChanges`.
 */
export type Element = string | number;

/** `parsePropertyPath`, not strict: names up to the next `.` or `[`; `[n]`, `["key"]` and `[*]`. */
export function parsePropertyPath(path: string): Element[] | undefined {
  const elements: Element[] = [];
  if (path.startsWith(".")) return undefined;
  let rest = path;
  while (rest.length > 0) {
    if (rest[0] === ".") {
      rest = rest.slice(1);
      if (rest.length === 0) return undefined;
    } else if (rest[0] === "[") {
      if (rest[1] === '"') {
        let key = "";
        let i = 2;
        for (;;) {
          if (i >= rest.length) return undefined;
          if (rest[i] === '"') {
            i++;
            break;
          }
          if (rest[i] === "\\" && rest[i + 1] === '"') {
            key += '"';
            i += 2;
          } else key += rest[i++];
        }
        if (rest[i] !== "]") return undefined;
        elements.push(key);
        rest = rest.slice(i + 1);
      } else {
        const close = rest.indexOf("]");
        if (close < 0) return undefined;
        const segment = rest.slice(1, close);
        if (segment === "*") elements.push("*");
        else if (/^-?\d+$/.test(segment)) elements.push(Number(segment));
        else return undefined;
        rest = rest.slice(close + 1);
      }
    } else {
      const end = rest.search(/[.[]/);
      const name = end < 0 ? rest : rest.slice(0, end);
      elements.push(name);
      rest = end < 0 ? "" : rest.slice(end);
    }
  }
  return elements;
}

/** `PropertyPath.Contains`: whether `path` names `other` or something above it; `*` matches any one element. */
export function contains(path: Element[], other: Element[]): boolean {
  if (path.length > other.length) return false;
  return path.every((element, i) => element === "*" || element === other[i]);
}
