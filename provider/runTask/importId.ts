import { hasCode, SnapshotRunTaskError } from "../common/errors";
import { notDotSegment } from "../common/validate";
import type { RunTaskEndpoints } from "../services/runtask/endpoints";
import { theOneObject } from "../takeover/proof";

/** The ids `pulumi import` takes for a `RunTask`, as messages and the README show them. */
export const RUN_TASK_IMPORT_FORMS = ["task-<id> (the service's id)", "<organization>/<task-name> (as the Terraform tfe provider takes it)"];

const TASK_ID = /^task-[^/\s]+$/;
const ORGANIZATION_AND_NAME = /^([^/\s]+)\/([A-Za-z0-9_-]+)$/;

/**
 * The service's `task-` id for an import id: the id itself, or the task of that name in the organization, found
 * in its list. An id of another shape is refused before any request, with the forms that are taken.
 */
export async function taskIdOfImport(api: RunTaskEndpoints, importId: string): Promise<{ id: string; organization?: string }> {
  if (TASK_ID.test(importId)) return { id: importId };
  const byName = ORGANIZATION_AND_NAME.exec(importId);
  if (!byName || !notDotSegment(byName[1])) {
    throw new SnapshotRunTaskError("invalid", `"${importId}" is not an import id of a RunTask: use ${RUN_TASK_IMPORT_FORMS.join(", or ")}`);
  }
  const [, organization, name] = byName;
  let list;
  try {
    list = await api.listTasks(organization);
  } catch (err) {
    if (!hasCode(err, "not_found")) throw err;
    throw new SnapshotRunTaskError(
      "not_found",
      `import "${importId}": organization "${organization}" answers 404: it does not exist, or the token cannot see it`,
      {
        cause: err,
      },
    );
  }
  // Taken only where it is the only task of that name (takeover/proof.ts): the spec does not make names unique.
  const task = theOneObject({ found: list.items.filter((t) => t.attributes.name === name), consistent: list.consistent }, (t) => t.id, {
    kind: "run task",
    identity: `run tasks named "${name}" in organization "${organization}"`,
    purpose: `import "${importId}"`,
  });
  if (!task) throw new SnapshotRunTaskError("not_found", `import "${importId}": organization "${organization}" has no run task named "${name}"`);
  return { id: task.id, organization };
}
