/**
 * A resource's `customTimeouts` as the engine sends them to a provider: the program gives Go duration strings
 * (`"2s"`, `"1m30s"`), the requests carry seconds (`CreateRequest.timeout`; 0 when none).
 */
export function customTimeoutSeconds(timeouts: { create?: string; update?: string; delete?: string } | undefined): {
  create: number;
  update: number;
  delete: number;
} {
  return { create: seconds(timeouts?.create), update: seconds(timeouts?.update), delete: seconds(timeouts?.delete) };
}

const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

function seconds(duration: string | undefined): number {
  if (!duration) return 0;
  let total = 0;
  let at = 0;
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  for (let m = part.exec(duration); m; m = part.exec(duration)) {
    total += Number(m[1]) * UNIT_SECONDS[m[2]];
    at = part.lastIndex;
  }
  if (at !== duration.length) throw new Error(`customTimeouts: "${duration}" is not a duration such as "2s" or "5m"`);
  return total;
}
