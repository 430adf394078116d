/**
 * Error bodies come as `{"errors": ["text", ...]}` (snapshot service) or as JSON:API error objects
 * `{"errors": [{"status": "422", "title": "...", "detail": "...", "source": {"pointer": "..."}}]}`
 * (run task service, where `status` may be a string or a number). Both become readable strings. A body that is
 * not JSON comes from something else (a proxy, a web server): a line of it is quoted, never a whole page.
 */
export function serverMessages(body: unknown): string[] {
  if (typeof body === "string") return body.trim() ? [textExcerpt(body)] : [];
  if (body === null || typeof body !== "object") return [];
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return [];
  return errors.map(errorText).filter((m) => m.length > 0);
}

function errorText(error: unknown): string {
  if (typeof error === "string") return error.trim();
  if (error === null || typeof error !== "object") return String(error ?? "");
  const e = error as { title?: unknown; detail?: unknown; source?: { pointer?: unknown; parameter?: unknown } };
  const title = typeof e.title === "string" ? e.title : "";
  const detail = typeof e.detail === "string" ? e.detail : "";
  let text = title && detail ? `${title}: ${detail}` : title || detail;
  const where = e.source?.pointer ?? e.source?.parameter;
  if (typeof where === "string" && where) text = `${text} (at ${where})`;
  return text || JSON.stringify(error);
}

/** Longest text answer quoted as it is. */
const QUOTED_TEXT = 160;

/**
 * A text answer as a message: short text as it is (whitespace collapsed); an HTML page by its title; other text by
 * its beginning. Long ones say how long they were.
 */
export function textExcerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= QUOTED_TEXT) return line;
  const size = `${text.length} characters`;
  if (/^<(!doctype|html|head|body)\b/i.test(line)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(line)?.[1]?.trim();
    return title ? `an HTML page titled "${title.slice(0, QUOTED_TEXT)}" (${size})` : `an HTML page (${size})`;
  }
  return `${line.slice(0, QUOTED_TEXT)}… (${size})`;
}
