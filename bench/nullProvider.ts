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

const SOURCE = `"use strict";
const changed = (olds, news) => Object.keys(news).some((k) => k !== "__provider" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
module.exports = {
  check: async (olds, news) => ({ inputs: news }),
  diff: async (id, olds, news) => ({ changes: changed(olds, news) }),
  create: async (news) => ({ id: String(news.resourceName), outs: news }),
  read: async (id, props) => ({ id, props }),
  update: async (id, olds, news) => ({ outs: news }),
  delete: async () => {},
};
`;

/** Installs the null provider's module into the consumer project at `dir`. */
export function installNullProvider(dir: string): void {
  const moduleDir = join(dir, "node_modules", NULL_PROVIDER_MODULE);
  mkdirSync(moduleDir, { recursive: true });
  writeFileSync(join(moduleDir, "package.json"), JSON.stringify({ name: NULL_PROVIDER_MODULE, version: "1.0.0", main: "index.js" }));
  writeFileSync(join(moduleDir, "index.js"), SOURCE);
}
