import { hasCode, SnapshotRunTaskError } from "../common/errors";
import type { RunTaskEndpoints } from "../services/runtask/endpoints";
import { theOneObject } from "../takeover/proof";
import { workspaceTaskFromWire, type WorkspaceTaskRecord } from "./wire";

/** The ids `pulumi import` takes for a `WorkspaceRunTask`, as messages and the README show them. */
export const WORKSPACE_RUN_TASK_IMPORT_FORMS = ["<workspace-id>/<wstask-id>", "<workspace-id>/<task-id>", "<workspace-id>/<task-name>"];

const FORMS = WORKSPACE_RUN_TASK_IMPORT_FORMS.join(", ");

function refused(importId: string, why: string): SnapshotRunTaskError {
  return new SnapshotRunTaskError("invalid", `"${importId}" is not an import id of a WorkspaceRunTask: ${why}; use ${FORMS}`);
}

/**
 * The association an import id names: `<workspace-id>/<wstask-id>` as it is, or the association of the task (by
 * its id, else by its name) in the workspace's list. The spec reaches an association only through its workspace
 * and has no lookup of a workspace by name, so the Terraform tfe provider's
 * `<organization>/<workspace-name>/<task-name>` is refused, saying why; so is any other shape, before any request.
 */
export async function associationOfImport(api: RunTaskEndpoints, importId: string): Promise<{ workspaceId: string; id: string }> {
  const parts = importId.split("/");
  if (parts.length === 3) {
    throw refused(
      importId,
      "the run task API has no lookup of a workspace by name, so the form <organization>/<workspace-name>/<task-name> cannot be " +
        `resolved: give the workspace's id instead (${parts[1]}'s id, ws-..., is in its settings), e.g. ws-.../${parts[2]}`,
    );
  }
  if (parts.length === 1 && importId.startsWith("wstask-")) throw refused(importId, "an association is reached only through its workspace");
  const [workspaceId, second] = parts;
  if (parts.length !== 2 || !workspaceId || !second) throw refused(importId, "its shape is none of these");
  if (!workspaceId.startsWith("ws-")) {
    throw refused(importId, `"${workspaceId}" is not a workspace id (ws-...), and the run task API has no lookup of a workspace by name`);
  }
  if (second.startsWith("wstask-")) return { workspaceId, id: second };
  let list;
  try {
    list = await api.listWorkspaceTasks(workspaceId);
  } catch (err) {
    if (!hasCode(err, "not_found")) throw err;
    throw new SnapshotRunTaskError(
      "not_found",
      `import "${importId}": workspace ${workspaceId} answers 404: it does not exist, or the token lacks the Manage Workspace Run Tasks permission on it`,
      { cause: err },
    );
  }
  const listed = list.items.map((r) => workspaceTaskFromWire(r, workspaceId));
  // Taken only where it is the only association the id names (takeover/proof.ts): the spec does not forbid two of one
  // task in a workspace, nor two tasks of one name.
  const only = (found: WorkspaceTaskRecord[], identity: string) =>
    theOneObject({ found, consistent: list.consistent }, (a) => a.id, { kind: "association", identity, purpose: `import "${importId}"` });
  const ofTask = second.startsWith("task-")
    ? only(
        listed.filter((a) => a.taskId === second),
        `associations of task ${second} in workspace ${workspaceId}`,
      )
    : undefined;
  if (ofTask) return { workspaceId, id: ofTask.id };
  const named: WorkspaceTaskRecord[] = [];
  for (const association of listed) {
    const task = await api.showTask(association.taskId);
    if (task?.task.attributes.name === second) named.push(association);
  }
  const ofName = only(named, `associations of run tasks named "${second}" in workspace ${workspaceId}`);
  if (ofName) return { workspaceId, id: ofName.id };
  throw new SnapshotRunTaskError(
    "not_found",
    `import "${importId}": workspace ${workspaceId} has no association of a run task with the id or name "${second}"`,
  );
}
