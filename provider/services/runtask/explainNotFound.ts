import type { ServiceError } from "../../http/serviceError";
import type { RunTaskHttp } from "./client";
import type { Body } from "./endpoints";
import { ORGANIZATION_SETTING, TOKEN_SETTING } from "./notFound";

/**
 * Which list to ask after a call's 404, and what each answer means. The spec has no endpoint for an organization
 * or a workspace themselves: their run task lists stand for them.
 */
export interface ParentProbe {
  /** The parent's list, e.g. `/organizations/acme/tasks`. */
  path: string;
  /** Advice when the list answers 404 too: the parent is missing, or the token cannot see it. */
  whenMissing: string;
  /** Advice when the list answers: the parent is there, so the 404 is about the object (or a permission on it). */
  whenAnswers: string;
}

/**
 * After the service's 404 to a create or an update, one request to the parent's list says which of the parent
 * and the object answered it, and the error says what to check. A probe that fails itself leaves the 404's own
 * advice, with what the probe got.
 */
export async function explainNotFound(http: RunTaskHttp, failure: ServiceError, probe: ParentProbe): Promise<ServiceError> {
  try {
    return failure.with({ advice: (await http.answers(probe.path)) ? probe.whenAnswers : probe.whenMissing });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return failure.with({ advice: `${failure.advice ?? "missing or not authorized"} (asking the parent's list failed too: ${why})` });
  }
}

/** After a 404 to creating a task, or updating one, in `organization`. */
export function organizationProbe(organization: string, call: "create" | "update", taskId?: string): ParentProbe {
  const org = `organization "${organization}"`;
  return {
    path: `/organizations/${encodeURIComponent(organization)}/tasks`,
    whenMissing:
      `${org} answers 404 too: it does not exist, or the token cannot see it ` +
      `(check the RunTask's organization, or ${ORGANIZATION_SETTING}, and ${TOKEN_SETTING})`,
    whenAnswers:
      call === "create"
        ? `${org} answers, so the token may not create run tasks there: the spec requires owner permission in the organization to create one (${TOKEN_SETTING})`
        : `${org} answers, so run task ${taskId} was deleted outside the program (\`pulumi refresh\`, then \`pulumi up\` creates it again), ` +
          `or the token lacks the Manage Run Tasks permission (${TOKEN_SETTING})`,
  };
}

/** After a 404 to associating a task to `workspaceId`, or updating an association there. */
export function workspaceProbe(workspaceId: string, call: "associate" | "update", body: Body, associationId?: string): ParentProbe {
  const ws = `workspace ${workspaceId}`;
  const taskId = body.relationships?.task?.data.id;
  return {
    path: `/workspaces/${encodeURIComponent(workspaceId)}/tasks`,
    whenMissing:
      `${ws} answers 404 too: it does not exist, or the token lacks the Manage Workspace Run Tasks permission on it ` +
      `(check workspaceId, a ws-... id, and ${TOKEN_SETTING})`,
    whenAnswers:
      call === "associate"
        ? `${ws} answers, so run task ${taskId} does not exist or the token cannot see it (check taskId; the task must be in the workspace's organization)`
        : `${ws} answers, so association ${associationId} was deleted outside the program (\`pulumi refresh\`, then \`pulumi up\` attaches the ` +
          `task again), or the token lacks the Manage Workspace Run Tasks permission on the workspace (${TOKEN_SETTING})`,
  };
}
