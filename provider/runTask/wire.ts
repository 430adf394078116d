import { withDefaults } from "../table/check";
import type { StateOf } from "../table/types";
import { reportedGlobal, type RunTaskGlobal } from "./global";
import { fromWire, toWire } from "../table/wire";
import type { Body } from "../services/runtask/endpoints";
import { relatedId, relatedIds, resourcesOf, type ResourceObject } from "../services/runtask/jsonApi";
import { runTaskTable } from "./fields";

type Props = Record<string, unknown>;
const { fields } = runTaskTable;

/**
 * A run task as the provider keeps it: the checked arguments (`global.enabled` filled in), and the service's
 * `global` where it reports one.
 */
export type RunTaskState = StateOf<typeof runTaskTable> & { organization: string; name: string; url: string; global?: RunTaskGlobal };

/** What to send besides the always-sent attributes: the write-only key and the global settings, when they change. */
export interface TaskWrite {
  hmacKey?: string;
  global?: RunTaskGlobal;
}

/**
 * The JSON:API body of a create or update. Every attribute the program sets is sent (a removed description as
 * ""); the HMAC key and the global settings only as `write` says, since on update an omitted key keeps its value.
 */
export function taskBody(state: RunTaskState, write: TaskWrite): Body {
  const values: Props = { ...state, description: state.description ?? "", hmacKey: write.hmacKey, global: write.global };
  const attributes = toWire(fields, values);
  // The attribute table spells the key `hmac-key`, the spec's create and update samples `hmac_key`: both are sent,
  // so that it reaches a service that reads either.
  if (attributes["hmac-key"] !== undefined) attributes.hmac_key = attributes["hmac-key"];
  return { type: "tasks", attributes };
}

/**
 * The state for a task document: the service's attributes over the prior state (the HMAC key, never returned,
 * keeps its prior value), the prior organization, and the prior global settings where the document has none (a
 * server whose show leaves them out: their drift cannot be seen then). The organization is a name, which the paths
 * take and a change of which replaces the task: never the relationship's `data.id`, which the spec calls the
 * organization's id (organization.ts finds the name where nothing gives it).
 */
export function taskFromWire(task: ResourceObject, prior: Props): RunTaskState {
  const read = fromWire(fields, task.attributes, prior);
  const state = withDefaults(fields, read) as RunTaskState;
  state.organization = String(prior.organization ?? "");
  state.global = reportedGlobal(task) ?? (prior.global as RunTaskGlobal | undefined);
  if (state.global === undefined) delete state.global;
  if (prior.adopt !== undefined) state.adopt = prior.adopt === true;
  return state;
}

/** The inputs a program would write for this state (what an import generates): the outputs' arguments. */
export function inputsOf(state: RunTaskState): Props {
  const { taskId: _id, ...inputs } = state;
  return inputs;
}

/**
 * Ids of a task's workspace associations, from what the spec defines: the `workspace-tasks` documents included
 * with `include=workspace_tasks` whose task is this one, and `relationships.tasks` items of that type. Undefined
 * when the answer carries neither (a server that ignores `include`): "none" would be a claim it did not make.
 */
export function workspaceTaskIdsOf(task: ResourceObject, included: unknown): string[] | undefined {
  const related = relatedIds(task, "tasks", "workspace-tasks");
  if (!Array.isArray(included) && related.length === 0) return undefined;
  const fromIncluded = resourcesOf({ data: included })
    .filter((r) => r.type === "workspace-tasks" && relatedId(r, "task") === task.id)
    .map((r) => r.id);
  return [...new Set([...fromIncluded, ...related])];
}
