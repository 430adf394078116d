import ms from "ms";

/**
 * The service reads `interval` as integer seconds, a numeric string of seconds, or a duration string made of
 * number-unit parts (`24h`, `90m`, `1h30m`). Normalising to seconds here is what keeps `"24h"` in a program
 * from diffing against the `86400` the service returns on read.
 */
const PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/y;

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
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return seconds > 0 ? { ok: true, seconds } : { ok: false, reason: `must be positive, got "${value}"` };
  }
  const millis = parseDurationMillis(text);
  if (millis === undefined) {
    return { ok: false, reason: `"${value}" is not a duration: use whole seconds (86400) or a duration such as "24h", "90m" or "1h30m"` };
  }
  if (millis <= 0) return { ok: false, reason: `must be positive, got "${value}"` };
  if (millis % 1000 !== 0) return { ok: false, reason: `"${value}" is not a whole number of seconds (${millis / 1000}s)` };
  return { ok: true, seconds: millis / 1000 };
}

/** Sum of the parts of a compound duration, each parsed with `ms`; undefined when the text is not one. */
function parseDurationMillis(text: string): number | undefined {
  if (text.length === 0) return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const start = PART.lastIndex;
    const match = PART.exec(text);
    if (!match || match.index !== start) return undefined;
    const part = ms(`${match[1]}${match[2]}` as ms.StringValue);
    if (typeof part !== "number" || !Number.isFinite(part)) return undefined;
    total += part;
  }
  // Floating point sums of fractional parts (0.1h) are rounded to the millisecond they mean.
  return Math.round(total * 1000) / 1000;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
