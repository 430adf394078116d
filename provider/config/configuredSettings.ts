import { SnapshotRunTaskError } from "../common/errors";
import type { ConfigLookup } from "./lookup";
import { settingProblems } from "./serviceSettings";
import { RUNTASK_SERVICE } from "../services/runtask/settings";
import { SNAPSHOT_SERVICE } from "../services/snapshot/settings";

/** A service by its stack config namespace, as a resource names the service it belongs to. */
export type ServiceNamespace = "snapshot" | "runtask";

/**
 * Checks the settings of both services once, when the engine configures the provider, and answers for each
 * service: `require(service)` fails when a setting of that service is set (stack config or environment) but wrong,
 * each problem naming where its value came from. Each resource requires its own service's before it is touched, so
 * that a wrong address stops a preview rather than an `up` after some resources were already made, and so that a
 * wrong `RUNTASK_ADDR` stops the run task resources and is never reported on a snapshot configuration (the dynamic
 * provider's one configuration serves the resources of both services).
 */
export function checkSettings(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): (service: ServiceNamespace) => void {
  const problems: Record<ServiceNamespace, { reason: string }[]> = {
    snapshot: settingProblems(SNAPSHOT_SERVICE, lookup, env),
    runtask: settingProblems(RUNTASK_SERVICE, lookup, env),
  };
  return (service) => {
    const wrong = problems[service];
    if (wrong.length > 0) {
      throw new SnapshotRunTaskError("invalid_setting", `the provider's settings are wrong: ${wrong.map((p) => p.reason).join("; ")}`);
    }
  };
}
