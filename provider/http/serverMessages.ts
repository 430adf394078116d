/**
 * Error bodies come as `{"errors": ["text", ...]}` (snapshot service) or as JSON:API error objects
 * `{"errors": [{"status": "422", "title": "...", "detail": "...", "source": {"pointer": "..."}}]}`
 * (run task service, where `status` may be a string or a number). Both become readable strings.
 */
export function serverMessages(body: unknown): string[] {
  if (body === null || typeof body !== "object") return typeof body === "string" && body.trim() ? [body.trim()] : [];
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
