/**
 * The service's reading of `interval`: integer seconds, a numeric string, or a duration made of
 * number-unit parts (ns, us, µs, ms, s, m, h), truncated to whole seconds as the service stores it.
 */
const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PARTS = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;

/** Durations are counted in nanoseconds in 64 bits: longer ones do not fit. */
const MAX_SECONDS = Math.floor(Number(2n ** 63n - 1n) / 1e9);

export function serviceIntervalSeconds(value: unknown): number | undefined {
  const seconds = parseSeconds(value);
  return seconds !== undefined && seconds <= MAX_SECONDS ? seconds : undefined;
}

function parseSeconds(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value > 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  if (/^\d+$/.test(value)) return Number(value) > 0 ? Number(value) : undefined;
  if (!PARTS.test(value)) return undefined;
  let millis = 0;
  for (const m of value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) millis += Number(m[1]) * UNIT_MS[m[2]];
  const seconds = Math.floor(millis / 1000);
  return seconds > 0 ? seconds : undefined;
}
