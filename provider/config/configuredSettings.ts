import { SnapshotRunTaskError } from "../common/errors";
import type { ConfigLookup } from "./lookup";
import { settingProblems } from "./serviceSettings";
import { RUNTASK_SERVICE } from "../services/runtask/settings";
import { SNAPSHOT_SERVICE } from "../services/snapshot/settings";

/**
 * Fails when a setting of either service is set (stack config or environment) but wrong, each problem naming
 * where its value came from. The provider checks this when the engine configures it, before any resource is
 * touched: a wrong address then stops a preview, rather than an `up` after some resources were already made.
 */
export function requireValidSettings(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): void {
  const problems = [...settingProblems(SNAPSHOT_SERVICE, lookup, env), ...settingProblems(RUNTASK_SERVICE, lookup, env)];
  if (problems.length > 0) {
    throw new SnapshotRunTaskError("invalid_setting", `the provider's settings are wrong: ${problems.map((p) => p.reason).join("; ")}`);
  }
}
