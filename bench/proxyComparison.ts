import { BenchStack } from "./benchStack";
import { PHASES, round2, type Phase } from "./engineComparison";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { mixed, type ResourceDescription } from "./programs";
import { startProxyProcess, type ProxyProcess } from "./proxyProcess";
import { benchConfig, EMULATOR_OPTIONS, measuring, median, PARALLEL, type Measured, type Setting } from "./setting";

/** The routes compared: the dynamic resources and the provider plugins, each with and without the proxy. */
export const PROXY_ROUTES = ["dynamic", "plugin"] as const;
export type ProxyRoute = (typeof PROXY_ROUTES)[number];

const WAYS = ["direct", "proxied"] as const;
type Way = (typeof WAYS)[number];
type Pair = Record<Way, number>;

/** One command of a route, direct and through the proxy, the two one after the other. */
export interface PairedCommand {
  ms: Pair;
  /** CPU milliseconds of all the command's processes (the kernel's count: the CLI, the program, the plugins). */
  totalCpuMs: Pair;
  /** Requests the emulator served. */
  requests: Pair;
  /** CPU milliseconds of the proxy process during the proxied command. */
  proxyCpuMs: number;
  /** Requests the proxy forwarded during the proxied command: all that the emulator served. */
  forwarded: number;
}

/** A phase of a route over the rounds: medians, and ratios through the proxy over direct (medians of the rounds' ratios). */
export interface ProxyPhaseSummary {
  ms: Pair;
  msRatio: number;
  /** The smallest and largest of the rounds' wall-time ratios: how far the machine moved them. */
  msRatioRange: [number, number];
  totalCpuMs: Pair;
  /** The proxied command's processes and the proxy's together over the direct command's. */
  withProxyCpuRatio: number;
  proxyCpuMs: number;
  requests: Pair;
  forwarded: number;
}

/** `up`, a no-op `up` and `destroy` through an authenticating proxy against the same without one, measured on its own. */
export interface ProxyComparison {
  measured: Measured;
  resources: number;
  rounds: number;
  phases: Record<Phase, Record<ProxyRoute, ProxyPhaseSummary>>;
  /** Every pair, by round, route and phase, for whoever wants more than medians. */
  samples: Record<ProxyRoute, Record<Phase, PairedCommand>>[];
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/**
 * `up`, a no-op `up` and `destroy` of the mixed program of `resources` resources (both services), each route direct
 * and with `SERVICE_PROXY_ADDR` and `RUNTASK_PROXY_ADDR` naming a proxy with Basic authentication (the npm `proxy`
 * package, a process of its own), in `rounds` rounds. Within a round each route's two stacks go through the engine a
 * command at a time, direct and proxied one after the other (which goes first alternating from round to round), so
 * that each pair meets the machine in nearly the same state: on a shared machine the load moves from minute to
 * minute, more than a proxy on loopback moves a command. The emulator is on loopback, which only a service's own
 * proxy setting proxies, over HTTP: the proxy reads and forwards every request, the heavier of its two ways (a tunnel
 * to an `https://` address is read once per connection).
 */
export async function compareThroughProxy(setting: Setting, size: { resources: number; rounds: number }): Promise<ProxyComparison> {
  const measurement = measuring();
  log(`through a proxy: load average at the start ${measurement.start.join(", ")}`);
  const program = mixed(size.resources);
  const proxy = await startProxyProcess({ auth: { user: "bench", password: "bench-proxy-password" } });
  const samples: ProxyComparison["samples"] = [];
  try {
    for (let round = 0; round < size.rounds; round++) {
      const sample = {} as (typeof samples)[number];
      for (const route of PROXY_ROUTES) {
        log(`through a proxy: ${size.resources} resources, round ${round + 1} of ${size.rounds}, ${route}`);
        sample[route] = await pairedRound(setting, route, program, proxy, `${size.resources}-${round}`, round % 2 === 1);
      }
      samples.push(sample);
    }
  } finally {
    await proxy.close();
  }
  const phases = Object.fromEntries(
    PHASES.map((p) => [p, Object.fromEntries(PROXY_ROUTES.map((r) => [r, summary(samples.map((s) => s[r][p]))]))]),
  ) as ProxyComparison["phases"];
  const measured = measurement.end();
  log(`through a proxy: load average at the end ${measured.loadAverage.end.join(", ")}`);
  return { measured, resources: size.resources, rounds: size.rounds, phases, samples };
}

/**
 * One round of a route: a stack direct and a stack whose CLI (and so its plugins) has the proxy settings, each
 * against an emulator process of its own, taken through `up`, a no-op `up` and `destroy` a phase at a time, the two
 * one after the other within each phase (the proxied first where `proxiedFirst`).
 */
async function pairedRound(
  setting: Setting,
  route: ProxyRoute,
  program: ResourceDescription[],
  proxy: ProxyProcess,
  name: string,
  proxiedFirst: boolean,
): Promise<Record<Phase, PairedCommand>> {
  const ways: readonly Way[] = proxiedFirst ? ["proxied", "direct"] : WAYS;
  const proxyEnv = { SERVICE_PROXY_ADDR: proxy.url, RUNTASK_PROXY_ADDR: proxy.url };
  const emulators = new Map<Way, EmulatorProcess>();
  const stacks = new Map<Way, BenchStack>();
  try {
    for (const way of ways) {
      const emulator = await startEmulatorProcess(EMULATOR_OPTIONS);
      emulators.set(way, emulator);
      const env = way === "proxied" ? proxyEnv : {};
      stacks.set(way, new BenchStack(setting.project, setting.engine, `proxy-${route}-${way}-${name}`, benchConfig(emulator.url), env));
    }
    const expected: Record<Phase, string> = { up: "create", noOpUp: "same", destroy: "delete" };
    const out = {} as Record<Phase, PairedCommand>;
    for (const phase of PHASES) {
      const pair = () => ({ direct: 0, proxied: 0 });
      const command: PairedCommand = { ms: pair(), totalCpuMs: pair(), requests: pair(), proxyCpuMs: 0, forwarded: 0 };
      for (const way of ways) {
        const stack = stacks.get(way)!;
        const emulator = emulators.get(way)!;
        await emulator.resetRequests();
        await proxy.reset();
        const proxyCpuBefore = await proxy.cpuMs();
        const figures =
          phase === "destroy" ? await stack.destroy(route, { parallel: PARALLEL }) : await stack.up(route, program, { parallel: PARALLEL });
        const served = (await emulator.stats()).requests;
        const forwarded = Object.values((await proxy.counts()).forward).reduce((a, b) => a + b, 0);
        // The summary counts the stack resource too.
        if (figures.changes[expected[phase]] !== program.length + 1) {
          throw new Error(
            `through a proxy, ${route} ${way}, ${phase}: expected ${program.length + 1} "${expected[phase]}" changes, the engine reported ${JSON.stringify(figures.changes)}`,
          );
        }
        if (way === "proxied") {
          // Every request the service received went through the proxy; the direct stack's none.
          if (forwarded !== served)
            throw new Error(`through a proxy, ${route}, ${phase}: the service received ${served} requests, the proxy forwarded ${forwarded}`);
          command.forwarded = forwarded;
          command.proxyCpuMs = (await proxy.cpuMs()) - proxyCpuBefore;
        } else if (forwarded !== 0) {
          throw new Error(`through a proxy, ${route}, ${phase}: the direct stack sent ${forwarded} requests through the proxy`);
        }
        command.ms[way] = figures.ms;
        command.totalCpuMs[way] = figures.totalCpuMs;
        command.requests[way] = served;
      }
      out[phase] = command;
    }
    return out;
  } finally {
    for (const stack of stacks.values()) stack.remove();
    for (const emulator of emulators.values()) await emulator.close();
  }
}

function summary(xs: PairedCommand[]): ProxyPhaseSummary {
  const m = (f: (x: PairedCommand) => number) => Math.round(median(xs.map(f)));
  const pairOf = (f: (x: PairedCommand) => Pair): Pair => ({ direct: m((x) => f(x).direct), proxied: m((x) => f(x).proxied) });
  const ratio = (f: (x: PairedCommand) => number) => round2(median(xs.map(f)));
  const msRatios = xs.map((x) => x.ms.proxied / x.ms.direct);
  return {
    ms: pairOf((x) => x.ms),
    msRatio: round2(median(msRatios)),
    msRatioRange: [round2(Math.min(...msRatios)), round2(Math.max(...msRatios))],
    totalCpuMs: pairOf((x) => x.totalCpuMs),
    withProxyCpuRatio: ratio((x) => (x.totalCpuMs.proxied + x.proxyCpuMs) / x.totalCpuMs.direct),
    proxyCpuMs: m((x) => x.proxyCpuMs),
    requests: pairOf((x) => x.requests),
    forwarded: m((x) => x.forwarded),
  };
}
