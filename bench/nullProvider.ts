import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A dynamic provider that does nothing and sends no request. Its resources go through the same engine, program
 * and dynamic provider plugin as ours, so what they cost is the engine's own cost (and the plugin's gRPC and
 * protobuf work), against which ours is read.
 *
 * It is a module installed in the consumer project, as the package's providers are: the SDK then stores
 * `require("bench-null-provider")` as each resource's provider text, of the size of ours, where a provider
 * written inline would store its functions' text (several times larger, and written to the state twice per
 * resource at every checkpoint). Diff reports a change when an argument changed, so that a no-op `up` stays a
 * no-op; the id is the resource's name, which the program passes.
 */
export const NULL_PROVIDER_MODULE = "bench-null-provider";

/**
 * The environment that makes the null provider's create and delete wait, as ours wait on the service, still doing
 * nothing: the control that tells the time requests take from the work they cost (see engineComparison.ts).
 */
export function nullProviderWaits(createMs: number, deleteMs: number): NodeJS.ProcessEnv {
  return { [CREATE_WAIT]: String(createMs), [DELETE_WAIT]: String(deleteMs) };
}

const CREATE_WAIT = "BENCH_NULL_CREATE_WAIT_MS";
const DELETE_WAIT = "BENCH_NULL_DELETE_WAIT_MS";

const SOURCE = `"use strict";
const waitMs = (name) => Number(process.env[name] || 0);
const pause = (ms) => (ms ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined);
const createWaitMs = waitMs("${CREATE_WAIT}");
const deleteWaitMs = waitMs("${DELETE_WAIT}");
const changed = (olds, news) => Object.keys(news).some((k) => k !== "__provider" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
module.exports = {
  check: async (olds, news) => ({ inputs: news }),
  diff: async (id, olds, news) => ({ changes: changed(olds, news) }),
  create: async (news) => (await pause(createWaitMs), { id: String(news.resourceName), outs: news }),
  read: async (id, props) => ({ id, props }),
  update: async (id, olds, news) => ({ outs: news }),
  delete: async () => {
    await pause(deleteWaitMs);
  },
};
`;

/** Installs the null provider's module into the consumer project at `dir`. */
export function installNullProvider(dir: string): void {
  const moduleDir = join(dir, "node_modules", NULL_PROVIDER_MODULE);
  mkdirSync(moduleDir, { recursive: true });
  writeFileSync(join(moduleDir, "package.json"), JSON.stringify({ name: NULL_PROVIDER_MODULE, version: "1.0.0", main: "index.js" }));
  writeFileSync(join(moduleDir, "index.js"), SOURCE);
}
