/** Replaces every occurrence of each secret in `text`; values shorter than 4 characters are left (too common). */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  const sorted = [...secrets].filter((s): s is string => typeof s === "string" && s.length >= 4);
  // Longest first, so a secret containing another is replaced whole.
  sorted.sort((a, b) => b.length - a.length);
  for (const secret of sorted) {
    out = out.split(secret).join("[redacted]");
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) out = out.split(escaped).join("[redacted]");
  }
  return out;
}
