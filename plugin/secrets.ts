/**
 * Secret values as the engine sends them to a provider that accepts secrets: an object holding the signature
 * key and the value. The provider works on plain values, remembering which properties held a secret, and marks
 * its results secret where the schema or the request says so.
 */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

type Props = Record<string, unknown>;

function isSecret(value: unknown): value is { value: unknown } {
  return value !== null && typeof value === "object" && (value as Props)[SECRET_SIG] === SECRET_VALUE;
}

/** Plain values, and the top-level properties that held a secret anywhere inside them. */
export function unwrapSecrets(props: Props): { plain: Props; secretKeys: Set<string> } {
  const secretKeys = new Set<string>();
  const plain: Props = {};
  for (const [key, value] of Object.entries(props)) {
    let found = false;
    const unwrap = (v: unknown): unknown => {
      if (isSecret(v)) {
        found = true;
        return unwrap(v.value);
      }
      if (Array.isArray(v)) return v.map(unwrap);
      if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]));
      return v;
    };
    plain[key] = unwrap(value);
    if (found) secretKeys.add(key);
  }
  return { plain, secretKeys };
}

/** The properties, with those named marked secret. */
export function wrapSecrets(props: Props, keys: Iterable<string>): Props {
  const out = { ...props };
  for (const key of keys) {
    if (out[key] !== undefined && !isSecret(out[key])) out[key] = { [SECRET_SIG]: SECRET_VALUE, value: out[key] };
  }
  return out;
}
