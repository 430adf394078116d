/**
 * The service reads `interval` as integer seconds, a numeric string of seconds, or a duration string made of
 * number-unit parts as Go's `time.ParseDuration` takes them (`24h`, `90m`, `1h30m`, `.5h`, `1500000000ns`; units ns,
 * us, µs, ms, s, m, h), with an optional sign (`+24h`). Normalising to seconds here is what keeps `"24h"` in a program from diffing against the `86400` the
 * service returns on read.
 */
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
/** Nanoseconds per unit; `µs` is Go's micro sign (U+00B5), `μs` the Greek mu (U+03BC) it also takes. */
const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const NS_PER_SECOND = 1_000_000_000n;

export type IntervalResult = { ok: true; seconds: number } | { ok: false; reason: string };

/**
 * The longest interval the service can hold: it reads durations such as `24h` as Go does, into a count of
 * nanoseconds in 64 bits, which ends a little past 292 years. A longer one would overflow there, or be refused.
 */
export const MAX_INTERVAL_SECONDS = 9_223_372_036;

export function parseInterval(value: unknown): IntervalResult {
  const result = parseSeconds(value);
  if (result.ok && result.seconds > MAX_INTERVAL_SECONDS) {
    return {
      ok: false,
      reason: `is longer than the service can hold (at most ${MAX_INTERVAL_SECONDS} seconds, about 292 years), got ${JSON.stringify(value)}`,
    };
  }
  return result;
}

function parseSeconds(value: unknown): IntervalResult {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) return { ok: false, reason: `must be a whole number of seconds, got ${value}` };
    if (value <= 0) return { ok: false, reason: `must be positive, got ${value}` };
    return { ok: true, seconds: value };
  }
  if (typeof value !== "string") {
    return { ok: false, reason: `must be a number of seconds or a duration string such as "24h", got ${describe(value)}` };
  }
  const text = value.trim();
  if (/^\+?\d+$/.test(text)) {
    const seconds = Number(text);
    return seconds > 0 ? { ok: true, seconds } : { ok: false, reason: `must be positive, got "${value}"` };
  }
  const nanos = parseDurationNanos(text);
  if (nanos === undefined) {
    return { ok: false, reason: `"${value}" is not a duration: use whole seconds (86400) or a duration such as "24h", "90m" or "1h30m"` };
  }
  if (nanos <= 0n) return { ok: false, reason: `must be positive, got "${value}"` };
  if (nanos % NS_PER_SECOND !== 0n) return { ok: false, reason: `"${value}" is not a whole number of seconds (${Number(nanos) / 1e9}s)` };
  return { ok: true, seconds: Number(nanos / NS_PER_SECOND) };
}

/**
 * Sum of the parts of a compound duration, exactly, in nanoseconds (fractions of a nanosecond dropped, as Go does),
 * negative after a `-`; undefined when the text is not one.
 */
function parseDurationNanos(signed: string): bigint | undefined {
  const text = /^[+-]/.test(signed) ? signed.slice(1) : signed;
  if (text.length === 0) return undefined;
  let total = 0n;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const start = PART.lastIndex;
    const match = PART.exec(text);
    if (!match || match.index !== start) return undefined;
    const [whole, fraction = ""] = match[1].split(".");
    const unit = UNIT_NS[match[2]];
    total += BigInt(whole || "0") * unit + (fraction ? (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length) : 0n);
  }
  return signed.startsWith("-") ? -total : total;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
