import { providerConfig, type ConfigLookup } from "../config/lookup";
import { RunTaskHttp } from "./client";
import { resolveRunTaskSettings } from "./settings";
import { RunTasks } from "./tasks";
import { WorkspaceTasks } from "./workspaceTasks";

export interface RunTaskApi {
  tasks: RunTasks;
  workspaceTasks: WorkspaceTasks;
}

/** The run task service's endpoints, with settings read now from the given config (the provider's by default). */
export function runTaskApi(lookup: ConfigLookup = providerConfig()): RunTaskApi {
  const http = new RunTaskHttp(resolveRunTaskSettings(lookup));
  return { tasks: new RunTasks(http), workspaceTasks: new WorkspaceTasks(http) };
}
