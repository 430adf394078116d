/**
 * The plugin marshals results with `Struct.fromJavaScript`, which fails on `undefined` ("Unexpected struct type")
 * and silently mangles Dates. Results go through this before they leave the provider.
 */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * The provider's results are built from JSON answers and checked arguments: a value JSON cannot hold breaks an
 * invariant of the provider, not something a user set, hence plain `TypeError`s.
 */
export function toPlainJson(value: unknown): Json {
  if (value === null) return null;
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(toPlainJson);
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
      return value;
    case "object": {
      const out: { [key: string]: Json } = {};
      for (const [k, v] of Object.entries(value as object)) {
        if (v !== undefined) out[k] = toPlainJson(v);
      }
      return out;
    }
    default:
      throw new TypeError(`not representable in state: ${typeof value}`);
  }
}
