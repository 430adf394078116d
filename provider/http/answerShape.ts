/**
 * What an answer's body carried, said without its values (a body may hold credentials): for the errors of answers
 * that are not the API's shape. Keys are named, values never.
 */
export function shapeOf(body: unknown): string {
  if (body === undefined) return "no body";
  if (typeof body === "string") return body.trimStart().startsWith("<") ? "a page of HTML or XML" : "a text that is not JSON";
  if (body === null) return "JSON null";
  if (Array.isArray(body)) return "a JSON list";
  if (typeof body !== "object") return `a JSON ${typeof body}`;
  const keys = Object.keys(body);
  if (keys.length === 0) return "an empty JSON object";
  const data = (body as { data?: unknown }).data;
  const inner =
    "data" in body
      ? data === null
        ? ' whose "data" is null'
        : Array.isArray(data)
          ? ' whose "data" is a list'
          : typeof data === "object"
            ? ` whose "data" has ${namesOf(Object.keys(data))}`
            : ` whose "data" is a ${typeof data}`
      : "";
  return `a JSON object with ${namesOf(keys)}${inner}`;
}

function namesOf(keys: string[]): string {
  if (keys.length === 0) return "no keys";
  const shown = keys.slice(0, 6).map((k) => JSON.stringify(k));
  return `${keys.length === 1 ? "the key" : "the keys"} ${shown.join(", ")}${keys.length > 6 ? ", …" : ""}`;
}
