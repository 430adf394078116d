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

/** Whether a secret is anywhere inside `value`; looked for before anything is copied, as most values hold none. */
function holdsSecret(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  if (isSecret(value)) return true;
  return Array.isArray(value) ? value.some(holdsSecret) : Object.values(value).some(holdsSecret);
}

function unwrap(value: unknown): unknown {
  if (isSecret(value)) return unwrap(value.value);
  if (Array.isArray(value)) return value.map(unwrap);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrap(v)]));
  return value;
}

/** The text of every value marked secret anywhere in `props`: what nothing the call says may show. */
export function secretStrings(props: Props): string[] {
  const found: string[] = [];
  const texts = (value: unknown): void => {
    if (typeof value === "string") found.push(value);
    else if (value !== null && typeof value === "object") for (const v of Object.values(value)) texts(v);
  };
  const walk = (value: unknown): void => {
    if (isSecret(value)) texts(unwrap(value.value));
    else if (value !== null && typeof value === "object") for (const v of Object.values(value)) walk(v);
  };
  walk(props);
  return found;
}

/** Plain values, and the top-level properties that held a secret anywhere inside them. */
export function unwrapSecrets(props: Props): { plain: Props; secretKeys: Set<string> } {
  const secretKeys = new Set<string>();
  let plain = props;
  for (const [key, value] of Object.entries(props)) {
    if (!holdsSecret(value)) continue;
    if (plain === props) plain = { ...props };
    plain[key] = unwrap(value);
    secretKeys.add(key);
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
