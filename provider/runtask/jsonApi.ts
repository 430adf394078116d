/** JSON:API documents as the run task service reads and writes them. */
export const JSON_API = "application/vnd.api+json";

export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data?: unknown }>;
}

export interface ListDocument {
  data: ResourceObject[];
  meta?: { pagination?: { "next-page"?: number | null; "total-pages"?: number; "total-count"?: number } };
  links?: { next?: string | null };
}

/** The `data` of a single-resource document, or undefined when the body holds none. */
export function resourceOf(body: unknown): ResourceObject | undefined {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
  const d = data as Partial<ResourceObject>;
  if (typeof d.id !== "string") return undefined;
  return { id: d.id, type: String(d.type), attributes: d.attributes ?? {}, relationships: d.relationships ?? {} };
}

export function resourcesOf(body: unknown): ResourceObject[] {
  const data = (body as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? data.map((d) => resourceOf({ data: d })).filter((r): r is ResourceObject => r !== undefined) : [];
}

/** `{ id, type }` of a to-one relationship. */
export function relatedId(resource: ResourceObject, name: string): string | undefined {
  const data = resource.relationships[name]?.data as { id?: unknown } | null | undefined;
  return typeof data?.id === "string" ? data.id : undefined;
}

/** Servers render booleans as booleans or as the strings "true"/"false" (the spec's samples do the latter). */
export function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  return undefined;
}

export function readString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function readStringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined;
}
