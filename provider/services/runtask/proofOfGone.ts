import { hasCode, messageOf, SnapshotRunTaskError } from "../../common/errors";
import { providerContext } from "../../context";
import type { RunTaskEndpoints } from "./endpoints";
import { LIST_READS, type ListResult } from "./client";
import { relatedId, type ResourceObject } from "./jsonApi";
import { FORGET_ADVICE, notProvenGone, ORGANIZATION_SETTING, TOKEN_SETTING } from "./errors";

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
  let list: ListResult;
  try {
    list = await api.listTasks(organization);
  } catch (err) {
    if (!hasCode(err, "not_found")) throw notProvenGone(`${call}, and the task list of ${org} could not be read to tell: ${messageOf(err)}`, err);
    throw notProvenGone(
      `${call}, and so does the task list of ${org}: the organization may have been deleted, and the task with it, or the token ` +
        `cannot see it (the spec names the Manage Run Tasks permission for an organization's run tasks). Check ${TOKEN_SETTING} and the ` +
        `organization; the task is kept in the state. If the organization is gone for certain, ${forgetAdvice()}`,
    );
  }
  if (!list.items.some((t) => t.id === id)) {
    if (list.consistent) return;
    throw notProvenGone(`${call}, and the task list of ${org} ${CHANGED_WHILE_READ}; the task is kept in the state. Run the command again`);
  }
  throw notProvenGone(
    `${call}, but the task list of ${org} holds ${id}: the token may list the organization's run tasks but not ${acting(method)} ` +
      `this one. The spec names the Manage Run Tasks permission for working with an organization's run tasks: use a token with it ` +
      `(${TOKEN_SETTING}); the task is kept in the state`,
  );
}

/**
 * After `method /workspaces/:ws/tasks/:id` answered 404: resolves when the workspace's own run task list proves the
 * association gone. Nothing else can: where that list answers 404 too, the workspace may have been deleted, or the
 * token may not see it, and what the task says of its associations (`include=workspace_tasks`) leaves out, on a
 * service that hides what a token may not see, exactly the associations in question. Both ways out are named.
 */
export async function requireAssociationGone(api: RunTaskEndpoints, method: Verb, workspaceId: string, id: string): Promise<void> {
  const call = `run task service: ${method} /workspaces/${workspaceId}/tasks/${id} answered 404`;
  const list = await workspaceList(api, workspaceId, call);
  if (!list.items.some((w) => w.id === id)) {
    if (list.consistent) return;
    throw notProvenGone(
      `${call}, and the run task list of workspace ${workspaceId} ${CHANGED_WHILE_READ}; the association is kept in the state. Run the command again`,
    );
  }
  throw notProvenGone(
    `${call}, but the run task list of workspace ${workspaceId} holds ${id}: the token may list the workspace's run tasks but not ` +
      `${acting(method)} this association. It needs ${workspacePermission(workspaceId)}: use a token with it (${TOKEN_SETTING}); the ` +
      "association is kept in the state",
  );
}

/**
 * The `wstask-` id of the association of `taskId` in the workspace, by the workspace's own list. An association is
 * known by its task where the create that made it could not learn its id, the list not showing it yet (it is then
 * recorded as `<workspace-id>/<task-id>`): the very list that lagged behind that create may lag still. So the list
 * is read again while it does not show the association, as a failed request is tried again (`readUntil`), and only
 * a list that never shows it in all those reads, its pages agreeing, proves it gone (undefined). Cut short by the
 * operation's bound, or by a list that changed while read, nothing is proven: an error keeps it in the state.
 */
export async function associationOfTask(api: RunTaskEndpoints, workspaceId: string, taskId: string): Promise<string | undefined> {
  const call = `run task service: the association of ${taskId} is known by its task, and workspace ${workspaceId} is asked for its id`;
  const ofTask = (list: ListResult) => list.items.filter((w) => relatedId(w, "task") === taskId).map((w) => w.id);
  const { value: list, cutShort } = await api.http.readUntil(
    () => workspaceList(api, workspaceId, call),
    (read) => ofTask(read).length > 0,
  );
  const found = ofTask(list);
  if (found.length > 1) {
    throw new SnapshotRunTaskError(
      "conflict",
      `${call}: it holds ${found.length} associations of the task (${found.join(", ")}), and which one is this resource's cannot be told. ` +
        "Keep one (delete the others at the service), then run the command again",
    );
  }
  if (found.length === 1 || (list.consistent && !cutShort)) return found[0];
  const why = list.consistent
    ? "does not show it, and the operation's time bound came before the list could be read again as often as a failed request is tried (a list may lag behind the writes that made it)"
    : CHANGED_WHILE_READ;
  throw notProvenGone(`${call}: its run task list ${why}. The association is kept in the state; run the command again`);
}

/**
 * The item of `list` that `matches`; undefined only where the list's pages agree, since a list that changed while it
 * was read may have left the item out: then an error, which says that nothing can be concluded. `what` names the list.
 */
export function foundInList(list: ListResult, matches: (item: ResourceObject) => boolean, what: string): ResourceObject | undefined {
  const found = list.items.find(matches);
  if (found || list.consistent) return found;
  throw notProvenGone(`run task service: ${what} ${CHANGED_WHILE_READ}, so what it does not show may be there all the same; run the command again`);
}

/**
 * `list`, where its pages agree. One that changed while it was read (another client making or deleting objects
 * between its pages, `LIST_READS` reads) may leave an object out or show one twice: taken as complete, it would
 * answer "none of that name" for an object that exists, or a part for the whole. What takes a list as complete (a
 * function's answer, the organization that holds a task) fails instead, with code `conflict`: a list that changes
 * under the read, which the next run may read whole. `what` names the list, after who asks (`getRunTask: the
 * task list of organization "acme"`).
 */
export function wholeList(list: ListResult, what: string): ListResult {
  if (list.consistent) return list;
  throw new SnapshotRunTaskError("conflict", `${what} ${CHANGED_WHILE_READ}, so it is not taken as complete; run the command again`);
}

const CHANGED_WHILE_READ = `changed while it was read (its pages disagree, ${LIST_READS} reads): what it leaves out proves nothing`;

/** The workspace's run task list; where it cannot be read, an error that keeps the association in the state. */
async function workspaceList(api: RunTaskEndpoints, workspaceId: string, call: string): Promise<ListResult> {
  const ws = `workspace ${workspaceId}`;
  try {
    return await api.listWorkspaceTasks(workspaceId);
  } catch (err) {
    if (!hasCode(err, "not_found")) throw notProvenGone(`${call}, and the run task list of ${ws} could not be read to tell: ${messageOf(err)}`, err);
    throw notProvenGone(
      `${call}, and the run task list of ${ws} answers 404: the token cannot see the workspace, or the workspace was deleted, and the ` +
        `association with it. The association is kept in the state. Use a token that may see the workspace (it needs ` +
        `${workspacePermission(workspaceId)}; ${TOKEN_SETTING}); or, if the workspace was deleted, ${forgetAdvice()}`,
      err,
    );
  }
}

/** How to forget an object gone for certain that no answer proves gone: the caller's way, else a stack's. */
function forgetAdvice(): string {
  return providerContext().forgetAdvice ?? FORGET_ADVICE;
}

function workspacePermission(workspaceId: string): string {
  return `the Manage Workspace Run Tasks permission on workspace ${workspaceId}, which the spec names for associating and dissociating run tasks`;
}
