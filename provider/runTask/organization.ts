import { hasCode } from "../common/errors";
import type { RunTaskEndpoints } from "../services/runtask/endpoints";
import type { ListResult } from "../services/runtask/client";
import { relatedId, type ResourceObject } from "../services/runtask/jsonApi";
import { wholeList } from "../services/runtask/proofOfGone";

/**
 * The name of the organization a task belongs to, where nothing else names it (an import by its `task-` id,
 * `getRunTask({ id })`). Tasks are made and listed under the organization's name, and the spec gives a task's
 * organization only as `relationships.organization.data.id`, "the id of the organization", which a service may
 * keep apart from its name: so no value is taken for a name until that name's task list holds the task. The
 * candidates, in order: those given (the default organization), then the relationship's id, which a service that
 * knows its organizations by name answers. Undefined where none holds it; the list item comes with the name, for the
 * global settings a show may leave out.
 */
export async function organizationHolding(
  api: RunTaskEndpoints,
  task: ResourceObject,
  candidates: (string | undefined)[],
): Promise<{ organization: string; listed: ResourceObject } | undefined> {
  const names = [...new Set([...candidates, relatedId(task, "organization")].filter((c): c is string => typeof c === "string" && c !== ""))];
  for (const organization of names) {
    const listed = await listedIn(api, organization, task.id);
    if (listed) return { organization, listed };
  }
  return undefined;
}

/**
 * The task as `organization`'s list shows it; undefined where the list answers 404 (no such name) or lacks it,
 * its pages agreeing: a list that changed while it was read proves no absence (`wholeList`'s error).
 */
export async function listedIn(api: RunTaskEndpoints, organization: string, id: string): Promise<ResourceObject | undefined> {
  let list: ListResult;
  try {
    list = await api.listTasks(organization);
  } catch (err) {
    if (hasCode(err, "not_found")) return undefined;
    throw err;
  }
  const found = list.items.find((t) => t.id === id);
  if (!found) wholeList(list, `run task service: the task list of organization "${organization}"`);
  return found;
}
