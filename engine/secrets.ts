/**
 * The engine's secret handling for a provider that declares `acceptSecrets=false` (the dynamic provider
 * plugin): secret wrappers are stripped before every call, and afterwards every output whose key was secret
 * among the inputs, or is listed in `additionalSecretOutputs`, is marked secret again.
 */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

function isSecretWrapper(v: unknown): v is { value: unknown } {
  return v !== null && typeof v === "object" && (v as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE;
}

/** Plain values and the top-level keys that held a secret (anywhere inside them). */
export function stripSecrets(props: Record<string, unknown>): { plain: Record<string, unknown>; secretKeys: string[] } {
  const secretKeys: string[] = [];
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) {
    let found = false;
    const unwrap = (v: unknown): unknown => {
      if (isSecretWrapper(v)) {
        found = true;
        return unwrap(v.value);
      }
      if (Array.isArray(v)) return v.map(unwrap);
      if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]));
      return v;
    };
    plain[key] = unwrap(value);
    if (found) secretKeys.push(key);
  }
  return { plain, secretKeys };
}

/** Output keys the engine stores as secrets: same-named secret inputs plus `additionalSecretOutputs`. */
export function secretOutputKeys(outputs: Record<string, unknown>, secretInputKeys: string[], additional: string[]): string[] {
  const marked = new Set([...secretInputKeys, ...additional]);
  return Object.keys(outputs)
    .filter((k) => marked.has(k))
    .sort();
}
