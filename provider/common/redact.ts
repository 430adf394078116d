/**
 * Replaces every occurrence of each secret in `text`, as it is and as a server may quote it: JSON-escaped, and
 * without surrounding whitespace (a PEM key ends with a newline that trimmed messages lose). Values shorter
 * than 4 characters are left (too common to be told from other text).
 */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== "string") continue;
    for (const form of [secret, secret.trim()]) {
      forms.add(form);
      forms.add(JSON.stringify(form).slice(1, -1));
    }
  }
  // Longest first, so a secret containing another is replaced whole.
  const sorted = [...forms].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of sorted) out = out.split(form).join("[redacted]");
  return out;
}
