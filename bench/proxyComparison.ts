import { PHASES, round2, sequence, type Phase, type Sequence } from "./engineComparison";
import { mixed } from "./programs";
import { startProxyProcess } from "./proxyProcess";
import { median, type Setting } from "./setting";

/** The routes compared: the dynamic resources and the provider plugins, each with and without the proxy. */
export const PROXY_VARIANTS = ["dynamic", "plugin"] as const;
type Route = (typeof PROXY_VARIANTS)[number];

/** An `up`, a no-op `up` and a `destroy` through an authenticating proxy, against the same without one. */
export interface ProxyComparison {
  resources: number;
  rounds: number;
  /** Median wall time (ms) of each phase, by route, direct and through the proxy. */
  ms: Record<Phase, Record<Route, { direct: number; proxied: number }>>;
  /** Through the proxy over direct: the median of the rounds' ratios (each round's two runs share the machine's state). */
  ratios: Record<Phase, Record<Route, number>>;
  /** Requests the proxy forwarded in a round's up, no-op up and destroy, by route: every request the service received. */
  forwarded: Record<Route, number>;
}

/**
 * `up`, a no-op `up` and `destroy` of the mixed program of `n` resources (both services), each route once direct and
 * once with `SERVICE_PROXY_ADDR` and `RUNTASK_PROXY_ADDR` naming a proxy with Basic authentication (the npm `proxy`
 * package, a process of its own), in `rounds` rounds, alternating which goes first. The emulator is on loopback, which
 * only a service's own proxy setting proxies, over HTTP: the proxy reads and forwards every request, the heavier of
 * its two ways (a tunnel to an `https://` address is read once per connection).
 */
export async function compareThroughProxy(setting: Setting, n: number, rounds: number, log: (line: string) => void): Promise<ProxyComparison> {
  const program = mixed(n);
  const proxy = await startProxyProcess({ auth: { user: "bench", password: "bench-proxy-password" } });
  const env = { SERVICE_PROXY_ADDR: proxy.url, RUNTASK_PROXY_ADDR: proxy.url };
  const samples: Record<Route, { direct: Sequence; proxied: Sequence; forwarded: number }>[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const sample = {} as (typeof samples)[number];
      for (const route of PROXY_VARIANTS) {
        const ways = round % 2 === 0 ? (["direct", "proxied"] as const) : (["proxied", "direct"] as const);
        const runs = {} as { direct: Sequence; proxied: Sequence };
        let forwarded = 0;
        for (const way of ways) {
          log(`through a proxy: mixed, ${n} resources, round ${round + 1} of ${rounds}: ${route}, ${way}`);
          await proxy.reset();
          runs[way] = await sequence(setting, route, program, `proxy-${route}-${way}-${n}-${round}`, way === "proxied" ? env : {});
          if (way === "proxied") forwarded = Object.values((await proxy.counts()).forward).reduce((a, b) => a + b, 0);
        }
        if (forwarded === 0) throw new Error(`through a proxy: the ${route} route sent nothing through the proxy`);
        sample[route] = { ...runs, forwarded };
      }
      samples.push(sample);
    }
  } finally {
    await proxy.close();
  }
  const ms = {} as ProxyComparison["ms"];
  const ratios = {} as ProxyComparison["ratios"];
  for (const p of PHASES) {
    ms[p] = {} as ProxyComparison["ms"][Phase];
    ratios[p] = {} as ProxyComparison["ratios"][Phase];
    for (const route of PROXY_VARIANTS) {
      const of = (way: "direct" | "proxied") => Math.round(median(samples.map((s) => s[route][way][p].ms)));
      ms[p][route] = { direct: of("direct"), proxied: of("proxied") };
      ratios[p][route] = round2(median(samples.map((s) => s[route].proxied[p].ms / s[route].direct[p].ms)));
    }
  }
  const forwarded = Object.fromEntries(PROXY_VARIANTS.map((r) => [r, median(samples.map((s) => s[r].forwarded))])) as ProxyComparison["forwarded"];
  return { resources: n, rounds, ms, ratios, forwarded };
}
