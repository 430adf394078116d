import { DynamicPlugin } from "../test/conformance/engine/plugin";
import type { Fixture } from "../test/conformance/fixture";
import { timed } from "./harness";

/** A provider that does nothing: the plugin's own cost, against which ours is measured. */
const TRIVIAL = "exports.handler = function () { return { check: async (olds, news) => ({ inputs: news }) }; };";

export interface StartupFigures {
  runs: number;
  /** Median milliseconds from plugin start to the first completed Check. */
  trivialMs: number;
  providerMs: number;
  addedMs: number;
}

async function firstCheck(dir: string, providerText: string, news: Record<string, unknown>): Promise<number> {
  const { ms } = await timed(async () => {
    const plugin = await DynamicPlugin.start(dir);
    try {
      await plugin.configure({});
      await plugin.check("urn:pulumi:s::p::t::n", {}, { ...news, __provider: providerText });
    } finally {
      await plugin.stop();
    }
  });
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function startup(fixture: Fixture, runs = 9): Promise<StartupFigures> {
  const [reg] = fixture.capture({ snapshots: [{ resource: "cfg", args: { interval: "24h", pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" } }] });
  const { __provider: text, ...inputs } = reg.inputs;
  const trivial: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < runs; i++) {
    trivial.push(await firstCheck(fixture.dir, TRIVIAL, inputs));
    ours.push(await firstCheck(fixture.dir, String(text), inputs));
  }
  const trivialMs = Math.round(median(trivial));
  const providerMs = Math.round(median(ours));
  return { runs, trivialMs, providerMs, addedMs: providerMs - trivialMs };
}
