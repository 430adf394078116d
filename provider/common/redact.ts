/**
 * Replaces every occurrence of each secret in `text`, as it is and as a server may quote it: JSON-escaped, and
 * without surrounding whitespace (a PEM key ends with a newline that trimmed messages lose); URL-encoded (a key
 * sent in a query or a form); line by line, for a secret of several lines (a PEM key, one line of which a service
 * may quote alone); and base64-encoded, whole or inside a longer encoded text (`base64Forms`). Values shorter than
 * 4 characters are left (too common to be told from other text), lines and encodings shorter than `MIN_FRAGMENT`.
 */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== "string") continue;
    for (const form of formsOf(secret)) forms.add(form);
  }
  // Longest first, so a secret containing another is replaced whole.
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of sorted) out = out.split(form).join("[redacted]");
  return out;
}

/** Below this, a line of a secret or an encoding of it is too short to tell from other text. */
const MIN_FRAGMENT = 12;

function formsOf(secret: string): string[] {
  const whole = [secret, secret.trim()].flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s), formEncoded(s)]);
  const lines = secret.split(/\r?\n/).map((line) => line.trim());
  const fragments = lines.length > 1 ? lines : [];
  return [
    ...whole.filter((form) => form.length >= 4),
    ...[...fragments, ...base64Forms(secret.trim())].filter((form) => form.length >= MIN_FRAGMENT),
  ];
}

/** As an HTML form or a query string built from one sends it: spaces as `+`. */
function formEncoded(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+");
}

/**
 * What base64 text holds of `secret` wherever it stands in the bytes encoded (a Basic authorization header, an
 * encoded document): the secret's bytes fall at one of three offsets in the encoding's groups of three, and for each
 * the characters that encode its bytes alone are fixed; the group it shares with the bytes before it, and the one
 * with the bytes after, are not. Standard and URL-safe alphabets alike.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString("base64")
      .replace(/=+$/, "");
    const start = offset === 0 ? 0 : 4;
    const end = (offset + bytes.length) % 3 === 0 ? encoded.length : Math.floor((offset + bytes.length) / 3) * 4;
    const inner = encoded.slice(start, end);
    forms.push(inner, inner.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}
