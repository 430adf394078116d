import { hasCode } from "../../common/errors";
import type { RunTaskEndpoints } from "./endpoints";
import { includedOf } from "./jsonApi";
import { FORGET_ADVICE, ORGANIZATION_SETTING, TOKEN_SETTING } from "./notFound";
import { notProvenGone } from "./outcomes";

/**
 * The service answers 404 both for a missing object and for one the token may not see or act on. After a read's
 * or a delete's 404, an object is gone only when a list that answers this token does not hold it: looked at by
 * content, every page of it. Held by the list, or the list unreadable: the call fails with the permission the spec
 * names and the setting of the token, and the state keeps the object (it may well still be there).
 */

type Verb = "GET" | "DELETE";
const acting = (method: Verb) => (method === "GET" ? "read" : "delete");

/** After `method /tasks/:id` answered 404: resolves when the organization's task list proves the task gone. */
export async function requireTaskGone(api: RunTaskEndpoints, method: Verb, id: string, organization: string | undefined): Promise<void> {
  const call = `run task service: ${method} /tasks/${id} answered 404`;
  if (!organization) {
    throw notProvenGone(
      `${call}, and no organization is known to look for it in: set ${ORGANIZATION_SETTING} (or import the task as ` +
        "<organization>/<task-name>); a 404 may mean that the token lacks permissions, so the task is not taken for deleted",
    );
  }
  const org = `organization "${organization}"`;
  let ids: string[];
  try {
    ids = (await api.listTasks(organization)).items.map((t) => t.id);
  } catch (err) {
    if (!hasCode(err, "not_found")) throw notProvenGone(`${call}, and the task list of ${org} could not be read to tell: ${messageOf(err)}`, err);
    throw notProvenGone(
      `${call}, and so does the task list of ${org}: the organization may have been deleted, and the task with it, or the token ` +
        `cannot see it (the spec names the Manage Run Tasks permission for an organization's run tasks). Check ${TOKEN_SETTING} and the ` +
        `organization; the task is kept in the state. If the organization is gone for certain, ${FORGET_ADVICE}`,
    );
  }
  if (!ids.includes(id)) return;
  throw notProvenGone(
    `${call}, but the task list of ${org} holds ${id}: the token may list the organization's run tasks but not ${acting(method)} ` +
      `this one. The spec names the Manage Run Tasks permission for working with an organization's run tasks: use a token with it ` +
      `(${TOKEN_SETTING}); the task is kept in the state`,
  );
}

/**
 * After `method /workspaces/:ws/tasks/:id` answered 404: resolves when the workspace's run task list proves the
 * association gone, or, where that list answers 404 too, when its task (`taskId`, from the state) answers without
 * it among its included associations: the workspace was deleted, and the association with it.
 */
export async function requireAssociationGone(
  api: RunTaskEndpoints,
  method: Verb,
  workspaceId: string,
  id: string,
  taskId: string | undefined,
): Promise<void> {
  const call = `run task service: ${method} /workspaces/${workspaceId}/tasks/${id} answered 404`;
  const ws = `workspace ${workspaceId}`;
  const permission = `the Manage Workspace Run Tasks permission on ${ws}, which the spec names for associating and dissociating run tasks`;
  let ids: string[];
  try {
    ids = (await api.listWorkspaceTasks(workspaceId)).items.map((w) => w.id);
  } catch (err) {
    if (!hasCode(err, "not_found")) throw notProvenGone(`${call}, and the run task list of ${ws} could not be read to tell: ${messageOf(err)}`, err);
    return requireGoneWithWorkspace(api, call, ws, permission, id, taskId);
  }
  if (!ids.includes(id)) return;
  throw notProvenGone(
    `${call}, but the run task list of ${ws} holds ${id}: the token may list the workspace's run tasks but not ${acting(method)} this ` +
      `association. It needs ${permission}: use a token with it (${TOKEN_SETTING}); the association is kept in the state`,
  );
}

/** The workspace's list answered 404 as well: its task, where known and visible, says whether the association is there. */
async function requireGoneWithWorkspace(
  api: RunTaskEndpoints,
  call: string,
  ws: string,
  permission: string,
  id: string,
  taskId: string | undefined,
): Promise<void> {
  let shown: Awaited<ReturnType<RunTaskEndpoints["showTask"]>>;
  try {
    shown = taskId ? await api.showTask(taskId, "workspace_tasks") : undefined;
  } catch (err) {
    throw notProvenGone(`${call}, and so does the run task list of ${ws}; asking task ${taskId} failed: ${messageOf(err)}`, err);
  }
  // Only an answer that included the associations can tell: a server that ignores `include` proves nothing.
  const listed = shown && Array.isArray(shown.included) ? includedOf({ included: shown.included }) : undefined;
  if (listed && !listed.some((r) => r.type === "workspace-tasks" && r.id === id)) return;
  if (listed) {
    throw notProvenGone(
      `${call}, and so does the run task list of ${ws}, while task ${taskId} still lists the association: the token lacks ${permission} ` +
        `(${TOKEN_SETTING}); the association is kept in the state`,
    );
  }
  const task = !taskId ? "" : shown ? ` (task ${taskId} answers, but without its associations, so it cannot tell)` : ` and task ${taskId}`;
  throw notProvenGone(
    `${call}, and so does the run task list of ${ws}${task}: the workspace may have been deleted, and the association with it, or the ` +
      `token cannot see it (it needs ${permission}). Check ${TOKEN_SETTING}; the association is kept in the state. If the workspace is ` +
      `gone for certain, ${FORGET_ADVICE}`,
  );
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
