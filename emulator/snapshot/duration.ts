/**
 * The service's reading of `interval`: integer seconds, a string of whole seconds (with an optional sign, as Go's
 * `strconv.ParseInt` reads it), or a duration as Go's `time.ParseDuration` reads it: an optional sign, then
 * number-unit parts, each number with digits before or after its point (`24h`, `1h30m`, `.5h`, `1.h`, `+24h`), in
 * ns, us, µs (or μs), ms, s, m and h. Counted exactly in nanoseconds, then truncated to whole seconds as the service
 * stores it; only positive intervals are taken.
 */
const PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
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

/** Durations are counted in nanoseconds in 64 bits: longer ones do not fit. */
const MAX_NS = 2n ** 63n - 1n;
const MAX_SECONDS = Number(MAX_NS / NS_PER_SECOND);

export function serviceIntervalSeconds(value: unknown): number | undefined {
  const seconds = parseSeconds(value);
  return seconds !== undefined && seconds > 0 && seconds <= MAX_SECONDS ? seconds : undefined;
}

function parseSeconds(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  if (/^[+-]?\d+$/.test(value)) return Number(value);
  const nanos = durationNanos(value);
  return nanos === undefined ? undefined : Number(nanos / NS_PER_SECOND);
}

/** A Go duration in nanoseconds; undefined where Go's parser refuses the text (or it overflows 64 bits). */
function durationNanos(text: string): bigint | undefined {
  const negative = text.startsWith("-");
  const body = negative || text.startsWith("+") ? text.slice(1) : text;
  if (body === "") return undefined;
  let total = 0n;
  PART.lastIndex = 0;
  while (PART.lastIndex < body.length) {
    const start = PART.lastIndex;
    const match = PART.exec(body);
    if (!match || match.index !== start) return undefined;
    const [whole, fraction = ""] = match[1].split(".");
    const unit = UNIT_NS[match[2]];
    total += BigInt(whole || "0") * unit + (fraction ? (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length) : 0n);
    if (total > MAX_NS) return undefined;
  }
  return negative ? -total : total;
}
