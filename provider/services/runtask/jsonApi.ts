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
  /** Related objects asked for with `include`. */
  included?: unknown[];
  meta?: { pagination?: { "next-page"?: number | null; "total-pages"?: unknown; "total-count"?: unknown; "page-size"?: unknown } };
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

/** The related objects of a document (`include`), as resource objects. */
export function includedOf(body: unknown): ResourceObject[] {
  return resourcesOf({ data: (body as { included?: unknown } | undefined)?.included });
}

/** `{ id, type }` of each item of a to-many relationship. */
export function relatedIds(resource: ResourceObject, name: string, type: string): string[] {
  const data = resource.relationships[name]?.data;
  if (!Array.isArray(data)) return [];
  return data.filter((d): d is { id: string; type: string } => typeof d?.id === "string" && d?.type === type).map((d) => d.id);
}

/** `{ id, type }` of a to-one relationship. */
export function relatedId(resource: ResourceObject, name: string): string | undefined {
  const data = resource.relationships[name]?.data as { id?: unknown } | null | undefined;
  return typeof data?.id === "string" ? data.id : undefined;
}
